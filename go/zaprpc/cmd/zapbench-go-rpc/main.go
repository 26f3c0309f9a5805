// Command zapbench-go-rpc is the Go reference's ZAP-RPC server (package
// zaprpc: zap-proto/go v1.8.1's transport): `serve --zap-rpc HOST:PORT
// [--ready-fd N]` until SIGTERM or SIGINT, and `capabilities`, the Go
// version and linked modules as JSON. zapbench-go reports this binary's
// transport, and zapbench runs it as the Go cell of the zap-rpc framing.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"zapbench/go/record"
	"zapbench/go/zaprpc"
)

const usage = `zapbench-go-rpc — the Go reference's ZAP-RPC server (zap-proto/go's transport)

usage:
  zapbench-go-rpc serve --zap-rpc HOST:PORT [--ready-fd N]
  zapbench-go-rpc capabilities

serve answers method 0 (health: "ok") and 1 (eth_call with ZAP bodies) of
docs/spec/zap-rpc.md; other methods 404. Port 0 picks a free port; the bound
address is printed, and written as 'zap-rpc HOST:PORT' to descriptor N (then
closed) with --ready-fd. SIGTERM or SIGINT stops (exit 0). Usage errors exit 2.
`

func main() { os.Exit(run(os.Args[1:])) }

func fail(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "zapbench-go-rpc: "+format+" (see zapbench-go-rpc --help)\n", a...)
	return 2
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Print(usage)
		return 0
	case "capabilities":
		if len(args) > 1 {
			return fail("capabilities: unexpected argument %q", args[1])
		}
		out, _ := json.MarshalIndent(map[string]any{"go_version": runtime.Version(), "modules": record.Modules()}, "", "  ")
		fmt.Println(string(out))
		return 0
	case "serve":
		return serve(args[1:])
	}
	return fail("unknown command %q: want serve or capabilities", args[0])
}

func serve(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	addr := fs.String("zap-rpc", "", "ZAP-RPC listener `HOST:PORT` (required)")
	readyFD := fs.Int("ready-fd", -1, "once listening, write 'zap-rpc HOST:PORT' to descriptor `N`, then close it")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return fail("serve: unexpected argument %q", fs.Arg(0))
	}
	if *addr == "" {
		return fail("serve: give --zap-rpc HOST:PORT")
	}
	if _, port, err := net.SplitHostPort(*addr); err != nil {
		return fail("serve: --zap-rpc %q: want HOST:PORT", *addr)
	} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fail("serve: --zap-rpc %q: port %q is not a number in 0..65535", *addr, port)
	}
	var ready *os.File
	if *readyFD >= 0 {
		if ready = os.NewFile(uintptr(*readyFD), "ready-fd"); ready == nil {
			return fail("serve: --ready-fd %d is not an open descriptor", *readyFD)
		}
	} else if *readyFD != -1 {
		return fail("serve: --ready-fd %d: want a descriptor number >= 0", *readyFD)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "zapbench-go-rpc serve: %v\n", err)
		return 1
	}
	srv := zaprpc.Serve(ln)
	bound := ln.Addr().String()
	fmt.Printf("zapbench-go-rpc serve: zap-rpc listening on %s (zap-proto/go %s)\n", bound, record.ModuleVersion(record.ZapModule))
	if ready != nil {
		_, werr := fmt.Fprintf(ready, "zap-rpc %s\n", bound)
		if cerr := ready.Close(); werr != nil || cerr != nil {
			srv.Close()
			fmt.Fprintf(os.Stderr, "zapbench-go-rpc serve: --ready-fd %d: %v %v\n", *readyFD, werr, cerr)
			return 1
		}
	}
	sig := <-sigs
	if err := srv.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "zapbench-go-rpc serve: closing after %v: %v\n", sig, err)
		return 1
	}
	fmt.Printf("zapbench-go-rpc serve: stopped (%v)\n", sig)
	return 0
}
