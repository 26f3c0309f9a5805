// newest_test.go keeps, in this module's go.mod and go.sum, what the Go
// arm's own packages need, so that check (f) can run them here against the
// newest versions the mirror has, zap-proto/go v1.8.1 and zap-proto/http
// v0.3.9: tests/go/go_test.sh runs `go test zapbench/go/record
// zapbench/go/server zapbench/go/conformance` in this module (the codecs, the
// server with its ZAP-HTTP transport, the vector, encoder, zap-proto/http
// client and logs checks) beside the same packages at the reference's pins
// (v1.3.0, v0.3.5) in their own module.
package zaprpc

import _ "zapbench/go/server" // the server, and through it fasthttp and zap-proto/http
