// conformance_test.go owns the cross-arm tests: the C++ `zapbench serve`
// (ZAPBENCH_EXE) driven by a Go net/http client with Go-encoded JSON and the
// ZAP vector, and the zap-proto/go checks, incl. its ZAP-RPC transport against
// ours (skipped: module unavailable).
package conformance

import (
	"bytes"
	"net/http"
	"os"
	"strings"
	"testing"

	"zapbench/go/internal/httpcheck"
	"zapbench/go/internal/spawn"
	"zapbench/go/internal/vectors"
	"zapbench/go/record"
	"zapbench/go/server"
)

func cppServer(t *testing.T) (*spawn.Server, string, *http.Client) {
	exe := os.Getenv("ZAPBENCH_EXE")
	if exe == "" {
		t.Skip("ZAPBENCH_EXE is unset: set it to the C++ zapbench binary to run the cross-arm tests")
	}
	s := spawn.Start(t, exe, "serve", "--http", "127.0.0.1:0")
	if !strings.HasPrefix(s.HTTP, "127.0.0.1:") {
		t.Fatalf("ready line address %q, want 127.0.0.1:PORT", s.HTTP)
	}
	return s, "http://" + s.HTTP, httpcheck.Client(t)
}

// TestCppServer: the C++ server's answers, checked by Go.
func TestCppServer(t *testing.T) {
	s, base, c := cppServer(t)

	resp, body := httpcheck.Do(t, c, "GET", base+"/health", "", nil)
	if resp.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("GET /health: %d %q", resp.StatusCode, body)
	}

	for _, codec := range record.JSONCodecs() {
		if !codec.Available {
			t.Logf("%s not tried: %s", codec.Name, codec.Reason)
			continue
		}
		for _, id := range []uint64{1, 2, 1<<53 + 1, ^uint64(0), 0} {
			q := record.SampleRequest()
			q.ID, q.Block = id, id^0x5a5a
			in, err := codec.EncodeRequest(&q)
			if err != nil {
				t.Fatal(err)
			}
			resp, out := httpcheck.Do(t, c, "POST", base+"/rpc", "application/json", in)
			var r record.Response
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%s id %d: %d %q %s", codec.Name, id, resp.StatusCode, resp.Header.Get("Content-Type"), out)
			} else if err := codec.DecodeResponse(out, &r); err != nil || r != record.Compute(&q) {
				t.Errorf("%s id %d: %s -> %+v %v, want %+v", codec.Name, id, out, r, err, record.Compute(&q))
			}
		}
	}

	zreq, err := vectors.Hex("eth_req.hex")
	if err != nil {
		t.Fatal(err)
	}
	zwant, err := vectors.Hex("eth_resp_server_fold.hex")
	if err != nil {
		t.Fatal(err)
	}
	resp, out := httpcheck.Do(t, c, "POST", base+"/rpc", "application/zap", zreq)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zap" || !bytes.Equal(out, zwant) {
		t.Errorf("application/zap eth_req.hex: %d %q %x, want 200 application/zap %x",
			resp.StatusCode, resp.Header.Get("Content-Type"), out, zwant)
	}

	resp, out = httpcheck.Do(t, c, "POST", base+"/rpc", "application/json", []byte(`{"method":"eth_getBalance",`))
	if resp.StatusCode != 400 {
		t.Errorf("malformed JSON: %d %s, want 400", resp.StatusCode, out)
	}

	c.Transport.(*http.Transport).CloseIdleConnections()
	if err := s.Terminate(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, s.Output())
	}
}

// The zap-proto/go halves of the conformance suite. They need the module
// itself; a hand-written ZAP codec must not stand in for it.

// TestZapProtoGoVectors would read every shared vector with zap-proto/go's
// reader and check the README's outcomes.
func TestZapProtoGoVectors(t *testing.T) { t.Skip(record.ZapReason) }

// TestZapProtoGoEncoderMatchesCpp would rebuild eth_req/eth_resp with
// zap-proto/go and compare its bytes with the C++ encoder's (the vectors).
func TestZapProtoGoEncoderMatchesCpp(t *testing.T) { t.Skip(record.ZapReason) }

// TestZapProtoGoClientAgainstCppServer would send zap-proto/go-encoded
// requests to the C++ server and decode the answers with zap-proto/go.
func TestZapProtoGoClientAgainstCppServer(t *testing.T) { t.Skip(record.ZapReason) }

// TestZapProtoGoTransportInterop is the Go runtime's own ZAP-RPC transport
// (zap-proto/go v1.4+, packages transport and rpc: wire B of the shared spec
// §5) against ours, both ways. It would check:
//   - a zap-proto/go transport client dialing `zapbench serve --zap-rpc` with
//     many calls in flight on one connection (health, ordinal 0, and eth_call,
//     ordinal 1, with a zap-proto/go-built EthCallReq), every answer matched by
//     its PromiseID: status 200, "ok" for health, and for eth_call the id
//     echoed, balance = the server's fold, nonce 42, blockHash;
//   - `zapbench load --framing zap-rpc` driving a zap-proto/go rpc server that
//     serves the same eth_call, with the loader's full validation and no
//     errors, so both implementations of the transport run side by side.
//
// Until the module can be fetched, tests/node/zap_rpc_client.mjs (on the
// independent @zap-proto/zap runtime) is the second client of our server.
func TestZapProtoGoTransportInterop(t *testing.T) { t.Skip(server.ZapRPCReason) }
