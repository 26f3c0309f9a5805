// serve.go owns `zapbench-go serve`: flags to a running server.Server, the
// ready line on --ready-fd, and SIGTERM/SIGINT to a graceful shutdown.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"zapbench/go/record"
	"zapbench/go/server"
)

// shutdownGrace bounds how long requests in flight may take after a signal.
const shutdownGrace = 10 * time.Second

func names[T any](xs []T, name func(T) string) string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	return strings.Join(out, ", ")
}

func cmdServe(args []string) int {
	cmd := newCommand("serve", "serve [--http HOST:PORT] [--zap HOST:PORT] [flags]",
		"Serves GET /health and POST /rpc over HTTP/1.1 (keep-alive, pipelining)\n"+
			"and/or over ZAP-HTTP (wire A, zap-proto/http on fasthttp: the reference's\n"+
			"-transport zap).\n"+
			"/rpc decodes an application/json body with the --json codec, computes and\n"+
			"answers application/json; an application/zap body is decoded with\n"+
			"zap-proto/go (zero copy, as the reference) and answered application/zap.\n"+
			"Port 0 picks a free port. SIGTERM or SIGINT stops\n"+
			"gracefully (exit 0).")
	httpAddr := cmd.fs.String("http", "", "HTTP/1.1 listener `HOST:PORT` (on --fw)")
	zapAddr := cmd.fs.String("zap", "", "ZAP-HTTP listener `HOST:PORT` (zap-proto/http on fasthttp)")
	zapRPCAddr := cmd.fs.String("zap-rpc", "", "not served by zapbench-go (exits 2): ZAP-RPC is zapbench-go-rpc serve --zap-rpc")
	fwName := cmd.fs.String("fw", "fasthttp", "HTTP `framework`: "+names(server.Frameworks(), func(f *server.Framework) string { return f.Name }))
	jsonName := cmd.fs.String("json", "goccy", "JSON `codec` for application/json: "+names(record.JSONCodecs(), func(c *record.Codec) string { return c.Name }))
	readyFD := cmd.fs.Int("ready-fd", -1, "once listening, write one line per listener ('http HOST:PORT', 'zap HOST:PORT') to descriptor `N`, then close it")
	if code := cmd.parse(args); code >= 0 {
		return code
	}

	if *zapRPCAddr != "" {
		return cmd.fail("--zap-rpc: not served here: %s", server.ZapRPCReason)
	}
	if *httpAddr == "" && *zapAddr == "" {
		return cmd.fail("give --http HOST:PORT or --zap HOST:PORT")
	}
	for _, l := range []struct{ flag, addr string }{{"--http", *httpAddr}, {"--zap", *zapAddr}} {
		if l.addr == "" {
			continue
		}
		_, port, err := net.SplitHostPort(l.addr)
		if err != nil {
			return cmd.fail("%s %q: want HOST:PORT", l.flag, l.addr)
		}
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return cmd.fail("%s %q: port %q is not a number in 0..65535", l.flag, l.addr, port)
		}
	}
	fw := server.LookupFramework(*fwName)
	if fw == nil {
		return cmd.fail("--fw %q: want one of %s", *fwName, names(server.Frameworks(), func(f *server.Framework) string { return f.Name }))
	}
	if !fw.Available {
		return cmd.fail("--fw %s is unavailable: %s", fw.Name, fw.Reason)
	}
	codec := record.Lookup(*jsonName)
	if codec == nil || codec.Raw {
		return cmd.fail("--json %q: want one of %s", *jsonName, names(record.JSONCodecs(), func(c *record.Codec) string { return c.Name }))
	}
	if !codec.Available {
		return cmd.fail("--json %s is unavailable: %s", codec.Name, codec.Reason)
	}
	var ready *os.File
	if *readyFD >= 0 {
		if ready = os.NewFile(uintptr(*readyFD), "ready-fd"); ready == nil {
			return cmd.fail("--ready-fd %d is not an open descriptor", *readyFD)
		}
	} else if *readyFD != -1 {
		return cmd.fail("--ready-fd %d: want a descriptor number >= 0", *readyFD)
	}

	// Signals are caught before listening, so an early SIGTERM still stops
	// gracefully instead of killing the process.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)

	type listener struct {
		kind string
		srv  *server.Server
	}
	var listeners []listener
	stopAll := func() {
		for _, l := range listeners {
			l.srv.Shutdown(context.Background())
		}
	}
	if *httpAddr != "" {
		srv, err := server.Start(fw, codec, *httpAddr)
		if err != nil {
			return cmd.die("--http: %v", err)
		}
		listeners = append(listeners, listener{"http", srv})
	}
	if *zapAddr != "" {
		srv, err := server.StartZap(codec, *zapAddr)
		if err != nil {
			stopAll()
			return cmd.die("--zap: %v", err)
		}
		listeners = append(listeners, listener{"zap", srv})
	}
	var lines strings.Builder
	// Done of each listener (nil, never ready, for an absent one); read only
	// in the select below, since Shutdown reads it too.
	var done [2]<-chan error
	for _, l := range listeners {
		bound := net.JoinHostPort(l.srv.Addr().IP.String(), strconv.Itoa(l.srv.Addr().Port))
		fmt.Printf("zapbench-go serve: %s listening on %s (%s, JSON codec %s)\n", l.kind, bound, fw.Name, codec.Name)
		fmt.Fprintf(&lines, "%s %s\n", l.kind, bound)
	}
	for i, l := range listeners {
		done[i] = l.srv.Done()
	}
	if ready != nil {
		_, werr := ready.WriteString(lines.String())
		cerr := ready.Close() // EOF tells the parent every listener is announced
		if werr != nil || cerr != nil {
			stopAll()
			return cmd.die("--ready-fd %d: %v", *readyFD, firstErr(werr, cerr))
		}
	}

	select {
	case sig := <-sigs:
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		for _, l := range listeners {
			if err := l.srv.Shutdown(ctx); err != nil {
				return cmd.die("shutdown of %s after %v: %v", l.kind, sig, err)
			}
		}
		fmt.Printf("zapbench-go serve: stopped (%v)\n", sig)
		return 0
	case err := <-done[0]:
		stopAll()
		return cmd.die("%s server stopped: %v", listeners[0].kind, err)
	case err := <-done[1]:
		stopAll()
		return cmd.die("%s server stopped: %v", listeners[1].kind, err)
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
