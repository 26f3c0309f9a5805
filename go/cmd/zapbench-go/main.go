// Command zapbench-go is the Go reference arm of zapbench: `serve` (the HTTP
// server), `micro` (the codec benchmarks, Google-Benchmark-shaped JSON) and
// `capabilities` (what this build has and why the rest is missing). This file
// owns the subcommand dispatch and the shared usage-error handling.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = `zapbench-go — the Go reference arm of zapbench

usage:
  zapbench-go serve --http HOST:PORT [--fw fasthttp|nethttp|zip] [--json goccy|sonic|stdlib] [--ready-fd N]
  zapbench-go micro --json-out FILE [--filter REGEX] [--min-time 0.2s] [--repetitions 3]
  zapbench-go capabilities

'zapbench-go COMMAND -h' describes a command's flags. Usage errors exit 2.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	switch cmd {
	case "serve":
		os.Exit(cmdServe(args))
	case "micro":
		os.Exit(cmdMicro(args))
	case "capabilities":
		os.Exit(cmdCapabilities(args))
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
		os.Exit(0)
	}
	fmt.Fprintf(os.Stderr, "zapbench-go: unknown command %q: want serve, micro or capabilities (see zapbench-go --help)\n", cmd)
	os.Exit(2)
}

// command is one subcommand's flag set with the CLI's error conventions:
// -h/--help prints the usage to stdout (exit 0); any usage error is one line
// on stderr (exit 2), never the flag package's full dump.
type command struct {
	name     string
	synopsis string // the usage line after "zapbench-go"
	about    string
	fs       *flag.FlagSet
}

func newCommand(name, synopsis, about string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &command{name: name, synopsis: synopsis, about: about, fs: fs}
}

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: zapbench-go %s\n\n%s\n\nflags (-flag and --flag are the same):\n", c.synopsis, c.about)
	c.fs.SetOutput(w)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
}

// parse returns -1 to go on, or the exit code to leave with.
func (c *command) parse(args []string) int {
	err := c.fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		c.printUsage(os.Stdout)
		return 0
	}
	if err != nil {
		return c.fail("%v", err)
	}
	if c.fs.NArg() > 0 {
		return c.fail("unexpected argument %q", c.fs.Arg(0))
	}
	return -1
}

// fail prints a one-line usage error and returns exit code 2.
func (c *command) fail(format string, a ...any) int {
	msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " ")
	fmt.Fprintf(os.Stderr, "zapbench-go %s: %s (see zapbench-go %s -h)\n", c.name, msg, c.name)
	return 2
}

// die prints a one-line runtime error and returns exit code 1.
func (c *command) die(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "zapbench-go %s: %s\n", c.name, fmt.Sprintf(format, a...))
	return 1
}
