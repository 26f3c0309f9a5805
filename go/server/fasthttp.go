// fasthttp.go owns the valyala/fasthttp glue: the routes as a fasthttp
// handler, served by a fasthttp.Server (HTTP/1.1) or by zap-proto/http's
// Server (ZAP-HTTP, wire A: the reference's -transport zap) on the listener
// Start made.
package server

import (
	"context"
	"net"
	"unsafe"

	"github.com/valyala/fasthttp"
	zaphttp "github.com/zap-proto/http"
)

type fastRunner struct {
	ln  net.Listener
	srv *fasthttp.Server
}

// view reads fasthttp's request bytes as a string without copying; route
// keeps nothing past the call, so the aliasing is safe and allocation-free.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// fastHandler is the routes as fasthttp calls them.
func fastHandler(h *Handler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		r := h.route(view(ctx.Method()), view(ctx.Path()), view(ctx.Request.Header.ContentType()), ctx.PostBody())
		ctx.SetStatusCode(r.status)
		ctx.SetContentType(r.ctype)
		if r.allow != "" {
			ctx.Response.Header.Set("Allow", r.allow)
		}
		ctx.SetBody(r.body)
	}
}

func startFastHTTP(ln net.Listener, h *Handler) runner {
	srv := &fasthttp.Server{
		Handler:            fastHandler(h),
		Name:               "zapbench-go",
		MaxRequestBodySize: maxBodyBytes,
		// No per-request or per-connection logging: it would be measured.
		Logger: quietLogger{},
	}
	return &fastRunner{ln: ln, srv: srv}
}

func (f *fastRunner) serve() error { return f.srv.Serve(f.ln) }

func (f *fastRunner) shutdown(ctx context.Context) error { return f.srv.ShutdownWithContext(ctx) }

type zapRunner struct {
	ln  net.Listener
	srv *zaphttp.Server
}

// startZapHTTP serves the routes over ZAP-HTTP with zap-proto/http's own
// server (one goroutine per connection, one RequestCtx per connection).
func startZapHTTP(ln net.Listener, h *Handler) runner {
	return &zapRunner{ln: ln, srv: &zaphttp.Server{Handler: fastHandler(h), Logger: quietLogger{}}}
}

func (z *zapRunner) serve() error { return z.srv.Serve(z.ln) }

// shutdown closes the listener: zap-proto/http's Server has no graceful
// drain (its Close leaves connections to their clients), and the process
// exits after it.
func (z *zapRunner) shutdown(context.Context) error { return z.srv.Close() }

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}
