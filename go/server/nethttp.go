// nethttp.go owns the net/http glue: an http.Server on the listener Start
// made, bodies read into pooled buffers, requests handed to the shared routes.
package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"sync"
)

type netRunner struct {
	ln  net.Listener
	srv *http.Server
}

// Header values shared by every reply: net/http only reads them, and setting
// the map entry directly skips canonicalising the key per request.
var (
	textCT = []string{textType}
	jsonCT = []string{jsonType}
	zapCT  = []string{zapType}
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func startNetHTTP(ln net.Listener, h *Handler) runner {
	handler := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		buf := bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		defer bufPool.Put(buf)
		var r reply
		if _, err := buf.ReadFrom(io.LimitReader(req.Body, maxBodyBytes+1)); err != nil {
			r = reply{status: 400, ctype: textType, body: []byte("bad request: reading the body: " + err.Error())}
		} else if buf.Len() > maxBodyBytes {
			r = reply{status: 413, ctype: textType, body: []byte("request body too large")}
		} else {
			r = h.route(req.Method, req.URL.Path, req.Header.Get("Content-Type"), buf.Bytes())
		}
		hdr := w.Header()
		switch r.ctype {
		case jsonType:
			hdr["Content-Type"] = jsonCT
		case zapType:
			hdr["Content-Type"] = zapCT
		default:
			hdr["Content-Type"] = textCT
		}
		if r.allow != "" {
			hdr["Allow"] = []string{r.allow}
		}
		hdr["Content-Length"] = []string{strconv.Itoa(len(r.body))}
		w.WriteHeader(r.status)
		w.Write(r.body)
	})
	srv := &http.Server{
		Handler: handler,
		// No per-request or per-connection logging: it would be measured.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return &netRunner{ln: ln, srv: srv}
}

func (n *netRunner) serve() error {
	if err := n.srv.Serve(n.ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (n *netRunner) shutdown(ctx context.Context) error { return n.srv.Shutdown(ctx) }
