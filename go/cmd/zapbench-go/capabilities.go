// capabilities.go owns `zapbench-go capabilities`: the Go version, linked
// module versions, and every framework, transport and codec with the reason
// it is unavailable ("" = available).
package main

import (
	"encoding/json"
	"os"
	"runtime"

	"zapbench/go/record"
	"zapbench/go/server"
)

type capabilities struct {
	GoVersion  string            `json:"go_version"`
	Modules    map[string]string `json:"modules"`
	Frameworks map[string]string `json:"frameworks"`
	Transports map[string]string `json:"transports"`
	Codecs     map[string]string `json:"codecs"`
}

func currentCapabilities() capabilities {
	c := capabilities{
		GoVersion:  runtime.Version(),
		Modules:    record.Modules(),
		Frameworks: map[string]string{},
		Transports: server.Transports(),
		Codecs:     map[string]string{},
	}
	for _, f := range server.Frameworks() {
		c.Frameworks[f.Name] = f.Reason
	}
	for _, k := range record.Codecs() {
		c.Codecs[k.Name] = k.Reason
	}
	return c
}

func cmdCapabilities(args []string) int {
	cmd := newCommand("capabilities", "capabilities", "Prints, as JSON, the Go version, the linked module versions, and each\n"+
		"framework, transport and codec: \"\" if available, else why not.")
	if code := cmd.parse(args); code >= 0 {
		return code
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(currentCapabilities()); err != nil {
		return cmd.die("%v", err)
	}
	return 0
}
