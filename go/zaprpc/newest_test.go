// newest_test.go keeps, in this module's go.mod and go.sum, what the Go
// arm's own packages need, so that check (f) can run them here against
// zap-proto/go v1.8.1: tests/go/go_test.sh runs `go test zapbench/go/record
// zapbench/go/server zapbench/go/conformance` in this module (the codecs, the
// server with its ZAP-HTTP transport, the vector, encoder and logs checks)
// beside the same packages at v1.3.0 in their own module.
package zaprpc

import _ "zapbench/go/server" // the server, and through it fasthttp and zap-proto/http
