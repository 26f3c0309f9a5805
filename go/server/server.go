// Package server owns the Go arm's HTTP server: the routes (GET /health,
// POST /rpc: application/json with the chosen JSON codec, application/zap
// with zap-proto/go as the reference decodes it), their replies, and the
// framework table — fasthttp and net/http available, zap-proto/zip reported
// unavailable — and the transports: HTTP/1.1 and ZAP-HTTP (zap-proto/http).
// Framework glue lives in fasthttp.go and nethttp.go.
package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"zapbench/go/record"
)

// Why the zap-proto based pieces that are missing are missing. Never replaced
// by a stand-in. ZapRPCReason is the ZAP-RPC transport (wire B of the shared
// spec §5, zap-proto/go's transport and rpc packages, v1.4 or newer).
const (
	ZipReason    = "github.com/zap-proto/zip cannot be built here: every tag since v1.3.0 needs github.com/zap-proto/fiber/v3 v3.2.1, which no reachable source serves"
	ZapRPCReason = "zapbench-go links zap-proto/go v1.3.0 (the reference's pin), which has no transport: ZAP-RPC is zapbench-go-rpc, a build of its own on v1.8.1 (go/zaprpc)"
)

// maxBodyBytes bounds a request body (fasthttp's own default is 4 MiB; the
// record is ~100 bytes, so 1 MiB is generous and protects the server).
const maxBodyBytes = 1 << 20

// Framework is one HTTP framework. When Available is false, Reason says why.
type Framework struct {
	Name      string
	Available bool
	Reason    string
	start     func(ln net.Listener, h *Handler) runner
}

// runner is a framework's server running on a listener.
type runner interface {
	serve() error // blocks; returns nil after a shutdown
	shutdown(ctx context.Context) error
}

// Frameworks lists every framework in table order; the first is the default.
func Frameworks() []*Framework {
	return []*Framework{
		{Name: "fasthttp", Available: true, start: startFastHTTP},
		{Name: "nethttp", Available: true, start: startNetHTTP},
		{Name: "zip", Reason: ZipReason},
	}
}

// LookupFramework finds a framework by name, or nil.
func LookupFramework(name string) *Framework {
	for _, f := range Frameworks() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Transports lists the transports and why one is unavailable ("" = available).
func Transports() map[string]string {
	return map[string]string{"http": "", "zap": "", "zap-rpc": ZapRPCReason}
}

// Handler holds what the routes need: the JSON codec of application/json.
type Handler struct {
	codec *record.Codec
}

// reply is what a route answers; allow is a 405's Allow value.
type reply struct {
	status int
	ctype  string
	allow  string
	body   []byte
}

const (
	textType = "text/plain; charset=utf-8"
	jsonType = "application/json"
	zapType  = "application/zap"
)

var (
	okBody          = []byte("ok")
	notFoundBody    = []byte("not found")
	notAllowedBody  = []byte("method not allowed")
	unsupportedBody = []byte("unsupported content type: want application/json or application/zap")
	zapCodec        = record.Lookup("zap")
)

// mediaType is a Content-Type without its parameters and surrounding blanks.
func mediaType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.Trim(ct, " \t")
}

// route answers one request. The strings may alias a framework's buffers:
// nothing here keeps them past the call.
func (h *Handler) route(method, path, contentType string, body []byte) reply {
	switch path {
	case "/health":
		if method != "GET" {
			return reply{status: 405, ctype: textType, allow: "GET", body: notAllowedBody}
		}
		return reply{status: 200, ctype: textType, body: okBody}
	case "/rpc":
		if method != "POST" {
			return reply{status: 405, ctype: textType, allow: "POST", body: notAllowedBody}
		}
		// The exact spelling first (the common case, no scan); then media type
		// matching, case-insensitive as RFC 9110 says.
		mt := contentType
		if mt != jsonType {
			mt = mediaType(contentType)
		}
		switch {
		case strings.EqualFold(mt, jsonType):
			return rpc(h.codec, jsonType, body)
		case strings.EqualFold(mt, zapType):
			return rpc(zapCodec, zapType, body)
		}
		return reply{status: 415, ctype: textType, body: unsupportedBody}
	}
	return reply{status: 404, ctype: textType, body: notFoundBody}
}

// rpc is the handler: decode with codec c, compute, encode; the answer has
// the request's content type.
func rpc(c *record.Codec, ctype string, body []byte) reply {
	var q record.Request
	out, err := record.Handle(c, body, &q)
	switch {
	case errors.Is(err, record.ErrEncode):
		return reply{status: 500, ctype: textType, body: []byte(err.Error())}
	case err != nil:
		return reply{status: 400, ctype: textType, body: []byte("bad request: " + err.Error())}
	}
	return reply{status: 200, ctype: ctype, body: out}
}

// Server is a framework serving on its own listener.
type Server struct {
	ln   net.Listener
	r    runner
	done chan error
}

// Start listens on addr (port 0 picks a free port) and serves HTTP/1.1 in
// the background with framework fw and JSON codec c.
func Start(fw *Framework, c *record.Codec, addr string) (*Server, error) {
	return startWith(fw, c, addr, nil)
}

// StartZap serves the same routes over ZAP-HTTP (wire A) with
// zap-proto/http on fasthttp, the reference's -transport zap.
func StartZap(c *record.Codec, addr string) (*Server, error) {
	return startWith(LookupFramework("fasthttp"), c, addr, startZapHTTP)
}

// startWith: with transport nil, fw's own HTTP/1.1 server.
func startWith(fw *Framework, c *record.Codec, addr string, transport func(net.Listener, *Handler) runner) (*Server, error) {
	if fw == nil {
		return nil, errors.New("server: no framework")
	}
	if !fw.Available {
		return nil, fmt.Errorf("framework %s is unavailable: %s", fw.Name, fw.Reason)
	}
	if c == nil || !c.Available {
		reason := "no such codec"
		if c != nil {
			reason = c.Reason
		}
		return nil, fmt.Errorf("JSON codec unavailable: %s", reason)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if transport == nil {
		transport = fw.start
	}
	s := &Server{ln: ln, r: transport(ln, &Handler{codec: c}), done: make(chan error, 1)}
	go func() { s.done <- s.r.serve() }()
	return s, nil
}

// Addr is the bound address.
func (s *Server) Addr() *net.TCPAddr { return s.ln.Addr().(*net.TCPAddr) }

// Done delivers Serve's result once it returns.
func (s *Server) Done() <-chan error { return s.done }

// Shutdown stops accepting, lets requests in flight finish (until ctx ends),
// closes idle connections, and waits for the serve loop to return.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.r.shutdown(ctx)
	select {
	case serr := <-s.done:
		s.done <- serr // keep it for Done()
		if err == nil {
			err = serr
		}
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	return err
}
