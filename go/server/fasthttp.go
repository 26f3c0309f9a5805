// fasthttp.go owns the valyala/fasthttp glue: a fasthttp.Server on the
// listener Start made, its requests handed to the shared routes.
package server

import (
	"context"
	"net"
	"unsafe"

	"github.com/valyala/fasthttp"
)

type fastRunner struct {
	ln  net.Listener
	srv *fasthttp.Server
}

// view reads fasthttp's request bytes as a string without copying; route
// keeps nothing past the call, so the aliasing is safe and allocation-free.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func startFastHTTP(ln net.Listener, h *Handler) runner {
	srv := &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			r := h.route(view(ctx.Method()), view(ctx.Path()), view(ctx.Request.Header.ContentType()), ctx.PostBody())
			ctx.SetStatusCode(r.status)
			ctx.SetContentType(r.ctype)
			if r.allow != "" {
				ctx.Response.Header.Set("Allow", r.allow)
			}
			ctx.SetBody(r.body)
		},
		Name:               "zapbench-go",
		MaxRequestBodySize: maxBodyBytes,
		// No per-request or per-connection logging: it would be measured.
		Logger: quietLogger{},
	}
	return &fastRunner{ln: ln, srv: srv}
}

func (f *fastRunner) serve() error { return f.srv.Serve(f.ln) }

func (f *fastRunner) shutdown(ctx context.Context) error { return f.srv.ShutdownWithContext(ctx) }

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}
