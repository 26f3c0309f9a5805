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
	cmd := newCommand("serve", "serve --http HOST:PORT [flags]",
		"Serves GET /health and POST /rpc over HTTP/1.1 (keep-alive, pipelining).\n"+
			"/rpc decodes an application/json body with the --json codec, computes and\n"+
			"answers application/json; application/zap is refused with 415 (ZAP is not\n"+
			"in this build). Port 0 picks a free port. SIGTERM or SIGINT stops\n"+
			"gracefully (exit 0).")
	httpAddr := cmd.fs.String("http", "", "HTTP/1.1 listener `HOST:PORT` (required)")
	zapAddr := cmd.fs.String("zap", "", "ZAP transport listener `HOST:PORT` (unavailable in this build: exits 2 with the reason)")
	zapRPCAddr := cmd.fs.String("zap-rpc", "", "ZAP-RPC transport listener `HOST:PORT` (unavailable in this build: exits 2 with the reason)")
	fwName := cmd.fs.String("fw", "fasthttp", "HTTP `framework`: "+names(server.Frameworks(), func(f *server.Framework) string { return f.Name }))
	jsonName := cmd.fs.String("json", "goccy", "JSON `codec` for application/json: "+names(record.JSONCodecs(), func(c *record.Codec) string { return c.Name }))
	readyFD := cmd.fs.Int("ready-fd", -1, "once listening, write one line 'http HOST:PORT' to descriptor `N`, then close it")
	if code := cmd.parse(args); code >= 0 {
		return code
	}

	if *zapAddr != "" {
		return cmd.fail("--zap: the ZAP transport is unavailable: %s", server.ZapTransportReason)
	}
	if *zapRPCAddr != "" {
		return cmd.fail("--zap-rpc: the ZAP-RPC transport is unavailable: %s", server.ZapRPCReason)
	}
	if *httpAddr == "" {
		return cmd.fail("give --http HOST:PORT")
	}
	_, port, err := net.SplitHostPort(*httpAddr)
	if err != nil {
		return cmd.fail("--http %q: want HOST:PORT", *httpAddr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return cmd.fail("--http %q: port %q is not a number in 0..65535", *httpAddr, port)
	}
	fw := server.LookupFramework(*fwName)
	if fw == nil {
		return cmd.fail("--fw %q: want one of %s", *fwName, names(server.Frameworks(), func(f *server.Framework) string { return f.Name }))
	}
	if !fw.Available {
		return cmd.fail("--fw %s is unavailable: %s", fw.Name, fw.Reason)
	}
	codec := record.Lookup(*jsonName)
	if codec == nil || codec.Name == "zap" {
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

	srv, err := server.Start(fw, codec, *httpAddr)
	if err != nil {
		return cmd.die("%v", err)
	}
	bound := net.JoinHostPort(srv.Addr().IP.String(), strconv.Itoa(srv.Addr().Port))
	fmt.Printf("zapbench-go serve: http listening on %s (%s, JSON codec %s)\n", bound, fw.Name, codec.Name)
	if ready != nil {
		_, werr := fmt.Fprintf(ready, "http %s\n", bound)
		cerr := ready.Close() // EOF tells the parent every listener is announced
		if werr != nil || cerr != nil {
			srv.Shutdown(context.Background())
			return cmd.die("--ready-fd %d: %v", *readyFD, firstErr(werr, cerr))
		}
	}

	select {
	case sig := <-sigs:
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			return cmd.die("shutdown after %v: %v", sig, err)
		}
		fmt.Printf("zapbench-go serve: stopped (%v)\n", sig)
		return 0
	case err := <-srv.Done():
		return cmd.die("server stopped: %v", err)
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
