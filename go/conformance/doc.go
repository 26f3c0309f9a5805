// Package conformance holds the cross-arm tests of the Go arm (all in
// conformance_test.go): the C++ zapbench server answered by Go's codecs, and
// the zap-proto/go vector and ZAP-RPC transport checks, which skip with the
// reason zap-proto/go is not in this build.
package conformance
