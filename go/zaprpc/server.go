// Package zaprpc owns the Go reference's ZAP-RPC server: zap-proto/go v1.8.1's
// own transport (package transport: wire B of the shared spec §5) serving the
// method ordinals of docs/spec/zap-rpc.md §2 that the Go arm has — health (0)
// and eth_call with ZAP bodies (1) — with the record's ZAP codec as the
// reference uses it (a fresh builder per answer). A module of its own: one
// Go build holds one version of a module, and the rest of the Go arm pins
// v1.3.0, the version the reference pins; this one links the newest tag
// the mirror has, the first with the transport.
package zaprpc

import (
	"errors"
	"fmt"
	"net"

	"github.com/zap-proto/go/rpc"
	"github.com/zap-proto/go/transport"

	"zapbench/go/record"
)

// The method ordinals served (docs/spec/zap-rpc.md §2).
const (
	MethodHealth  = 0
	MethodEthCall = 1
)

var (
	okBody   = []byte("ok")
	zapCodec = record.Lookup("zap")
)

// Dispatch answers one request envelope with a response envelope, as the
// transport calls it: 200 with the answer, 400 with the reason for a body
// that does not decode or a Target (promise pipelining is not supported),
// 404 for an unknown method. An envelope that does not parse is the
// transport's error (it answers nothing: there is no PromiseID).
func Dispatch(envelope []byte) ([]byte, error) {
	call, err := rpc.ParseRequest(envelope)
	if err != nil {
		return nil, err
	}
	if call.Target != 0 {
		return rpc.BuildResponse(400, call.PromiseID, []byte("promise pipelining (Target) is not supported")), nil
	}
	switch call.Method {
	case MethodHealth:
		return rpc.BuildResponse(200, call.PromiseID, okBody), nil
	case MethodEthCall:
		var q record.Request
		out, err := record.Handle(zapCodec, call.Payload, &q)
		switch {
		case errors.Is(err, record.ErrEncode):
			return rpc.BuildResponse(500, call.PromiseID, []byte(err.Error())), nil
		case err != nil:
			return rpc.BuildResponse(400, call.PromiseID, []byte(err.Error())), nil
		}
		return rpc.BuildResponse(200, call.PromiseID, out), nil
	}
	return rpc.BuildResponse(404, call.PromiseID, fmt.Appendf(nil, "unknown method %d", call.Method)), nil
}

// Serve serves Dispatch on ln with zap-proto/go's transport.
func Serve(ln net.Listener) *transport.Server { return transport.Serve(ln, Dispatch) }
