// conformance_test.go owns the cross-arm tests: the C++ `zapbench serve`
// (ZAPBENCH_EXE) driven by a Go net/http client with Go-encoded JSON and the
// ZAP vector, zap-proto/go's bytes against ours (b), zap-proto/http's client
// against our ZAP-HTTP (c). The ZAP-RPC transport check (e) is in the
// module go/zaprpc, built against zap-proto/go v1.8.1.
package conformance

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	zaphttp "github.com/zap-proto/http"

	"zapbench/go/internal/httpcheck"
	"zapbench/go/internal/spawn"
	"zapbench/go/internal/vectors"
	"zapbench/go/record"
)

func cppServer(t *testing.T) (*spawn.Server, string, *http.Client) {
	s := spawn.Start(t, spawn.CppExe(t), "serve", "--http", "127.0.0.1:0")
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

	zreq, zwant := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp_server_fold.hex")
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

// The zap-proto/go halves of the conformance suite: zap-proto/go v1.3.0 and
// zap-proto/http v0.3.5 (the reference's pins) against our bytes and our
// server. Check (a), the shared vectors, is vectors_test.go.

// zapBodies: requests built by zap-proto/go for several ids and blocks, each
// with the answer zap-proto/go builds for it.
func zapBodies(t *testing.T) (reqs, answers [][]byte) {
	c := record.Lookup("zap")
	for _, id := range []uint64{1, 2, 1<<53 + 1, ^uint64(0), 0} {
		q := record.SampleRequestFor(c)
		q.ID, q.Block = id, id^0x5a5a
		in, err := c.EncodeRequest(&q)
		if err != nil {
			t.Fatal(err)
		}
		a := record.Compute(&q)
		want, err := c.EncodeResponse(&a)
		if err != nil {
			t.Fatal(err)
		}
		reqs, answers = append(reqs, in), append(answers, want)
	}
	return reqs, answers
}

// TestZapProtoGoEncoderMatchesCpp is check (b): our encoder's bytes equal
// zap-proto/go's, both directions. The vectors are the C++ encoder's bytes
// (tests/record checks that): zap-proto/go encodes eth_req and eth_resp to
// them. Live: zap-proto/go-built requests decoded by `zapbench serve`, whose
// answers must be, byte for byte, what zap-proto/go builds for them.
func TestZapProtoGoEncoderMatchesCpp(t *testing.T) {
	c := record.Lookup("zap")
	for _, v := range []struct {
		file   string
		encode func() ([]byte, error)
	}{
		{"eth_req.hex", func() ([]byte, error) { q := record.SampleRequestFor(c); return c.EncodeRequest(&q) }},
		{"eth_resp.hex", func() ([]byte, error) { r := record.SampleResponseFor(c); return c.EncodeResponse(&r) }},
	} {
		want := vectors.MustHex(t, v.file)
		if got, err := v.encode(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("zap-proto/go encodes %s as %x, %v; want %x", v.file, got, err, want)
		}
	}

	s, base, hc := cppServer(t)
	reqs, answers := zapBodies(t)
	for i, in := range reqs {
		resp, out := httpcheck.Do(t, hc, "POST", base+"/rpc", "application/zap", in)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zap" || !bytes.Equal(out, answers[i]) {
			t.Errorf("request %x: %d %q %x, want zap-proto/go's %x", in, resp.StatusCode, resp.Header.Get("Content-Type"), out, answers[i])
		}
	}
	hc.Transport.(*http.Transport).CloseIdleConnections()
	if err := s.Terminate(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, s.Output())
	}
}

// TestZapProtoGoClientAgainstCppServer is check (c): zap-proto/http's own
// client (wire A) against `zapbench serve --zap`: /health, zap-proto/go
// bodies on /rpc decoded by zap-proto/go, a malformed body's 400, a JSON body.
func TestZapProtoGoClientAgainstCppServer(t *testing.T) {
	s := spawn.Start(t, spawn.CppExe(t), "serve", "--zap", "127.0.0.1:0")
	addr := s.Ready["zap"]
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("ready lines %v, want zap 127.0.0.1:PORT", s.Ready)
	}
	client := zaphttp.Dial("tcp", addr)
	client.SetReadTimeout(spawn.Deadline)
	do := func(method, path, ctype string, body []byte) (int, string, []byte) {
		var req fasthttp.Request
		var resp fasthttp.Response
		req.Header.SetMethod(method)
		req.SetRequestURI(path)
		if ctype != "" {
			req.Header.SetContentType(ctype)
		}
		req.SetBody(body)
		if err := client.Do(&req, &resp); err != nil {
			t.Fatalf("zap-proto/http %s %s: %v\n%s", method, path, err, s.Output())
		}
		return resp.StatusCode(), string(resp.Header.ContentType()), append([]byte(nil), resp.Body()...)
	}
	if st, _, body := do("GET", "/health", "", nil); st != 200 || string(body) != "ok" {
		t.Errorf("/health: %d %q", st, body)
	}
	c := record.Lookup("zap")
	reqs, answers := zapBodies(t)
	for i, in := range reqs {
		st, ct, out := do("POST", "/rpc", "application/zap", in)
		var r record.Response
		if st != 200 || ct != "application/zap" || !bytes.Equal(out, answers[i]) || c.DecodeResponse(out, &r) != nil {
			t.Errorf("/rpc %x: %d %q %x, want %x", in, st, ct, out, answers[i])
		}
	}
	if st, _, out := do("POST", "/rpc", "application/zap", reqs[0][:20]); st != 400 {
		t.Errorf("/rpc truncated ZAP: %d %s, want 400", st, out)
	}
	jreq, err := vectors.Raw("eth_req.json")
	if err != nil {
		t.Fatal(err)
	}
	var r record.Response
	if st, ct, out := do("POST", "/rpc", "application/json", jreq); st != 200 || !strings.HasPrefix(ct, "application/json") ||
		record.Lookup("goccy").DecodeResponse(out, &r) != nil || r.Balance != record.ServerFoldBalance {
		t.Errorf("/rpc JSON: %d %q %s", st, ct, out)
	}
	client.CloseIdleConnections()
	if err := s.Terminate(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, s.Output())
	}
}
