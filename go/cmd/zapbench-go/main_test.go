// main_test.go owns the CLI tests: the zapbench-go binary is built once into
// a temporary directory and run as the C++ supervisor would — capabilities,
// usage errors (exit 2, one line), serve with --ready-fd and SIGTERM, micro.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	zaphttp "github.com/zap-proto/http"

	"zapbench/go/internal/httpcheck"
	"zapbench/go/internal/spawn"
	"zapbench/go/record"
	"zapbench/go/server"
)

var exe string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "zapbench-go-test")
	if err != nil {
		panic(err)
	}
	exe = filepath.Join(dir, "zapbench-go")
	args := []string{"build", "-o", exe}
	// The binary must match this test binary's codec table: pass the one build
	// tag that changes it.
	if record.Lookup("sonic").Reason == "built with -tags nosonic" {
		args = append(args, "-tags", "nosonic")
	}
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append(args, ".")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	code := 1
	if build.Run() == nil {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// run returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	// A command that should exit but serves instead is killed at the deadline
	// (and the test fails on its exit code) rather than left running.
	ctx, cancel := context.WithTimeout(context.Background(), spawn.Deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestCapabilities(t *testing.T) {
	out, _, code := run(t, "capabilities")
	var c capabilities
	if code != 0 || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	if c.GoVersion != runtime.Version() || c.Modules["github.com/goccy/go-json"] == "" || c.Modules["github.com/valyala/fasthttp"] == "" ||
		c.Modules[record.ZapModule] != "v1.3.0" {
		t.Errorf("go_version/modules: %+v", c)
	}
	if c.Frameworks["fasthttp"] != "" || c.Frameworks["nethttp"] != "" || c.Frameworks["zip"] != server.ZipReason {
		t.Errorf("frameworks: %v", c.Frameworks)
	}
	if c.Transports["http"] != "" || c.Transports["zap"] != "" ||
		c.Transports["zap-rpc"] != server.ZapRPCReason || len(c.Transports) != 3 {
		t.Errorf("transports: %v", c.Transports)
	}
	if c.Codecs["goccy"] != "" || c.Codecs["stdlib"] != "" || c.Codecs["zap"] != "" || c.Codecs["zap-reset"] != "" ||
		c.Codecs["sonic"] != record.Lookup("sonic").Reason {
		t.Errorf("codecs: %v", c.Codecs)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{}, "usage"},
		{[]string{"bogus"}, "unknown command"},
		{[]string{"serve"}, "give --http HOST:PORT or --zap"},
		{[]string{"serve", "--zap", "nope"}, "--zap \"nope\": want HOST:PORT"},
		{[]string{"serve", "--http", "nope"}, "want HOST:PORT"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--nope"}, "not defined"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--fw", "gin"}, "want one of"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--fw", "zip"}, server.ZipReason},
		{[]string{"serve", "--http", "127.0.0.1:0", "--json", "zap"}, "want one of"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--json", "zap-reset"}, "want one of"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--zap-rpc", "127.0.0.1:0"}, server.ZapRPCReason},
		{[]string{"serve", "--http", "127.0.0.1:0", "--ready-fd", "x"}, "invalid value"},
		{[]string{"micro"}, "give --json-out"},
		{[]string{"micro", "--json-out", "x", "--min-time", "fast"}, "--min-time"},
		{[]string{"micro", "--json-out", "x", "--repetitions", "0"}, "--repetitions"},
		{[]string{"micro", "--json-out", "x", "--filter", "("}, "--filter"},
		{[]string{"capabilities", "extra"}, "unexpected argument"},
	}
	for _, c := range cases {
		_, stderr, code := run(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
		if len(c.args) > 1 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: the error is not one line: %q", c.args, stderr)
		}
	}
	if rc := record.Lookup("sonic"); !rc.Available {
		_, stderr, code := run(t, "serve", "--http", "127.0.0.1:0", "--json", "sonic")
		if code != 2 || !strings.Contains(stderr, rc.Reason) {
			t.Errorf("--json sonic (unavailable): exit %d %q", code, stderr)
		}
	}
	for _, args := range [][]string{{"--help"}, {"serve", "-h"}, {"micro", "--help"}, {"capabilities", "-h"}} {
		out, _, code := run(t, args...)
		if code != 0 || !strings.Contains(out, "usage") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
}

func TestServe(t *testing.T) {
	for _, fw := range []string{"fasthttp", "nethttp"} {
		t.Run(fw, func(t *testing.T) {
			s := spawn.Start(t, exe, "serve", "--http", "127.0.0.1:0", "--zap", "127.0.0.1:0", "--fw", fw, "--json", "stdlib")
			if !strings.HasPrefix(s.HTTP, "127.0.0.1:") || strings.HasSuffix(s.HTTP, ":0") ||
				!strings.HasPrefix(s.Ready["zap"], "127.0.0.1:") || s.Ready["zap"] == s.HTTP || len(s.Ready) != 2 {
				t.Fatalf("ready lines %v", s.Ready)
			}
			// The ZAP-HTTP listener answers zap-proto/http's client.
			zc := zaphttp.Dial("tcp", s.Ready["zap"])
			zc.SetReadTimeout(spawn.Deadline)
			var zreq fasthttp.Request
			var zresp fasthttp.Response
			zreq.SetRequestURI("/health")
			if err := zc.Do(&zreq, &zresp); err != nil || zresp.StatusCode() != 200 || string(zresp.Body()) != "ok" {
				t.Errorf("zap /health: %v %d %q", err, zresp.StatusCode(), zresp.Body())
			}
			zc.CloseIdleConnections()
			c := httpcheck.Client(t)
			resp, body := httpcheck.Do(t, c, "GET", "http://"+s.HTTP+"/health", "", nil)
			if resp.StatusCode != 200 || string(body) != "ok" {
				t.Errorf("/health: %d %q", resp.StatusCode, body)
			}
			c.CloseIdleConnections() // so the graceful stop waits on no idle keep-alive
			if err := s.Terminate(); err != nil {
				t.Errorf("SIGTERM: want exit 0, got %v\n%s", err, s.Output())
			}
		})
	}
}

// readMicroFile reads what `micro --json-out` wrote, and its bytes for messages.
func readMicroFile(t *testing.T, path string) (microFile, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f microFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f, data
}

// A filter for C++ benchmarks only (zapbench passes its own on) is no error:
// the file has no benchmark.
func TestMicroFilterMatchingNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "micro.json")
	_, stderr, code := run(t, "micro", "--json-out", out, "--filter", "^Decode/zap$")
	if code != 0 || !strings.Contains(stderr, "matches no benchmark") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	f, data := readMicroFile(t, out)
	if len(f.Benchmarks) != 0 {
		t.Errorf("%s", data)
	}
}

func TestMicro(t *testing.T) {
	out := filepath.Join(t.TempDir(), "micro.json")
	stdout, stderr, code := run(t, "micro", "--json-out", out, "--filter", "^(Decode|Handler)/go/", "--min-time", "1ms", "--repetitions", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	f, data := readMicroFile(t, out)
	avail := 0
	for _, c := range record.Codecs() {
		if c.Available {
			avail++
		} else if !slices.Contains(f.Unavailable, unavailableEntry{"go/" + c.Name, c.Reason}) {
			t.Errorf("go/%s is unavailable without its reason: %+v", c.Name, f.Unavailable)
		}
	}
	if len(f.Benchmarks) != 2*2*avail {
		t.Fatalf("%d entries, want %d:\n%s", len(f.Benchmarks), 2*2*avail, data)
	}
	for _, b := range f.Benchmarks {
		if b.RunType != "iteration" || b.Iterations < 1 || b.RealTime <= 0 || (b.WireBytes != 233) != strings.Contains(b.Name, "/go/zap") ||
			b.Repetitions != 2 || b.TimeUnit != "ns" || !strings.Contains(b.Name, "/go/") || b.ErrorOccurred {
			t.Errorf("entry %+v", b)
		}
		if !strings.Contains(stdout, b.Name) {
			t.Errorf("the table lacks %s", b.Name)
		}
	}
	if f.Context.GoVersion != runtime.Version() || f.Context.GOMAXPROCS < 1 || f.Context.Modules["github.com/goccy/go-json"] == "" {
		t.Errorf("context %+v", f.Context)
	}
	for _, name := range []string{"Decode/go/zap", "Handler/go/zap-reset"} {
		if !strings.Contains(string(data), `"`+name+`"`) {
			t.Errorf("no %s in %s", name, data)
		}
	}
}
