// Package conformance holds the cross-arm tests of the Go arm: the C++
// zapbench server answered by Go's codecs (conformance_test.go), and the
// zap-proto checks — (a) every shared vector read by zap-proto/go
// (vectors_test.go), (b) its bytes against our server's and (c)
// zap-proto/http's client against our ZAP-HTTP (conformance_test.go), (d) our
// logs layout read with List.Object(k, 88) (logs_test.go). The ZAP-RPC
// transport check (e) is go/zaprpc's (zap-proto/go v1.8.1, a module of its
// own), which also runs this package against v1.8.1 (f).
package conformance
