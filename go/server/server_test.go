// server_test.go owns the in-process server tests: every framework on
// 127.0.0.1:0 with every available codec, answered through net/http's client
// and through one raw connection carrying 16 pipelined requests.
package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	zaphttp "github.com/zap-proto/http"

	"zapbench/go/internal/httpcheck"
	"zapbench/go/internal/vectors"
	"zapbench/go/record"
)

// Generous: only a hung server trips these, never a slow machine.
const deadline = 30 * time.Second

func start(t *testing.T, fw string, codec string) (*Server, string) {
	t.Helper()
	s, err := Start(LookupFramework(fw), record.Lookup(codec), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s, "http://" + s.Addr().String()
}

var ids = []uint64{1, 2, 1<<53 + 1, ^uint64(0), 0}

func availableCodecs() []*record.Codec {
	var out []*record.Codec
	for _, c := range record.JSONCodecs() {
		if c.Available {
			out = append(out, c)
		}
	}
	return out
}

func TestFrameworkTable(t *testing.T) {
	if f := LookupFramework("zip"); f == nil || f.Available || f.Reason != ZipReason {
		t.Errorf("zip must be unavailable with %q", ZipReason)
	}
	if _, err := Start(LookupFramework("zip"), record.Lookup("goccy"), "127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), ZipReason) {
		t.Errorf("starting zip: %v", err)
	}
	if Transports()["zap"] != "" {
		t.Error("the ZAP-HTTP transport must be available")
	}
	if Transports()["zap-rpc"] != ZapRPCReason {
		t.Error("the ZAP-RPC transport must be unavailable")
	}
}

func TestRoutes(t *testing.T) {
	for _, fw := range []string{"fasthttp", "nethttp"} {
		for _, codec := range availableCodecs() {
			t.Run(fw+"/"+codec.Name, func(t *testing.T) {
				_, base := start(t, fw, codec.Name)
				c := httpcheck.Client(t)

				resp, body := httpcheck.Do(t, c, "GET", base+"/health", "", nil)
				if resp.StatusCode != 200 || string(body) != "ok" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
					t.Errorf("/health: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
				}

				// Every codec's request encoding against this server's codec.
				for _, enc := range availableCodecs() {
					for _, ctype := range []string{"application/json", "Application/JSON; charset=utf-8"} {
						for _, id := range ids {
							q := record.SampleRequest()
							q.ID, q.Block = id, id^12345
							in, err := enc.EncodeRequest(&q)
							if err != nil {
								t.Fatal(err)
							}
							resp, body := httpcheck.Do(t, c, "POST", base+"/rpc", ctype, in)
							if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
								t.Fatalf("/rpc id %d: %d %q %s", id, resp.StatusCode, resp.Header.Get("Content-Type"), body)
							}
							var r record.Response
							if err := codec.DecodeResponse(body, &r); err != nil || r != record.Compute(&q) {
								t.Errorf("/rpc id %d (%s body): %s -> %+v %v", id, enc.Name, body, r, err)
							}
						}
					}
				}

				// The ZAP body, whatever the JSON codec: the eth vector's answer is
				// the server-fold vector, with the request's content type.
				zreq, zwant := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp_server_fold.hex")
				resp, body = httpcheck.Do(t, c, "POST", base+"/rpc", "application/zap", zreq)
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zap" || !bytes.Equal(body, zwant) {
					t.Errorf("/rpc application/zap eth_req.hex: %d %q %x, want %x", resp.StatusCode, resp.Header.Get("Content-Type"), body, zwant)
				}

				checks := []struct {
					method, path, ctype string
					body                string
					status              int
					allow               string
				}{
					{"POST", "/rpc", "application/json", `{"method":"eth_getBalance"`, 400, ""},
					{"POST", "/rpc", "application/json", `{"method":"m","block":1,"id":1}`, 400, ""},
					{"POST", "/rpc", "application/json", `{"method":"m","account":"0x12","block":1,"id":1}`, 400, ""},
					{"POST", "/rpc", "application/zap", "ZAP\x00", 400, ""},
					{"POST", "/rpc", "text/plain", "x", 415, ""},
					{"POST", "/rpc", "", "x", 415, ""},
					{"GET", "/rpc", "", "", 405, "POST"},
					{"POST", "/health", "application/json", "{}", 405, "GET"},
					{"GET", "/nope", "", "", 404, ""},
				}
				for _, ck := range checks {
					resp, body := httpcheck.Do(t, c, ck.method, base+ck.path, ck.ctype, []byte(ck.body))
					if resp.StatusCode != ck.status || resp.Header.Get("Allow") != ck.allow {
						t.Errorf("%s %s %q: %d Allow %q (%s), want %d Allow %q",
							ck.method, ck.path, ck.ctype, resp.StatusCode, resp.Header.Get("Allow"), body, ck.status, ck.allow)
					}
					if ck.ctype == "application/zap" && !strings.Contains(string(body), "malformed") {
						t.Errorf("application/zap: body %q does not say why", body)
					}
				}
			})
		}
	}
}

// TestPipelining writes 16 requests on one connection in one write (as the
// C++ loader does) and reads 16 answers back, in order.
func TestPipelining(t *testing.T) {
	const n = 16
	for _, fw := range []string{"fasthttp", "nethttp"} {
		t.Run(fw, func(t *testing.T) {
			s, _ := start(t, fw, "goccy")
			codec := record.Lookup("goccy")
			conn, err := net.DialTimeout("tcp", s.Addr().String(), deadline)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(deadline))

			var batch bytes.Buffer
			reqs := make([]record.Request, n)
			for i := range reqs {
				reqs[i] = record.SampleRequest()
				reqs[i].ID = uint64(1000 + i)
				if i%5 == 4 { // a /health in the middle of the stream
					fmt.Fprintf(&batch, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
					continue
				}
				body, _ := codec.EncodeRequest(&reqs[i])
				fmt.Fprintf(&batch, "POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			}
			if _, err := conn.Write(batch.Bytes()); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(conn)
			for i := 0; i < n; i++ {
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("answer %d: %d %s %v", i, resp.StatusCode, body, err)
				}
				if i%5 == 4 {
					if string(body) != "ok" {
						t.Errorf("answer %d: %q, want ok", i, body)
					}
					continue
				}
				var r record.Response
				if err := codec.DecodeResponse(body, &r); err != nil || r != record.Compute(&reqs[i]) {
					t.Errorf("answer %d: %s -> %+v %v", i, body, r, err)
				}
			}
		})
	}
}

// TestZapTransport: the routes over ZAP-HTTP (zap-proto/http's server),
// driven by zap-proto/http's own client: health, the ZAP body's vector
// answer, a JSON body, and a bad ZAP body's 400.
func TestZapTransport(t *testing.T) {
	s, err := StartZap(record.Lookup("goccy"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()
	client := zaphttp.Dial("tcp", s.Addr().String())
	defer client.CloseIdleConnections()
	client.SetReadTimeout(deadline)
	do := func(method, path, ctype string, body []byte) (int, string, []byte) {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.Header.SetMethod(method)
		req.SetRequestURI(path)
		if ctype != "" {
			req.Header.SetContentType(ctype)
		}
		req.SetBody(body)
		if err := client.Do(req, resp); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return resp.StatusCode(), string(resp.Header.ContentType()), append([]byte(nil), resp.Body()...)
	}
	if st, _, body := do("GET", "/health", "", nil); st != 200 || string(body) != "ok" {
		t.Errorf("/health: %d %q", st, body)
	}
	zreq, zwant := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp_server_fold.hex")
	jreq, err := vectors.Raw("eth_req.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // several on one connection
		if st, ct, body := do("POST", "/rpc", "application/zap", zreq); st != 200 || ct != "application/zap" || !bytes.Equal(body, zwant) {
			t.Errorf("/rpc zap: %d %q %x", st, ct, body)
		}
	}
	var r record.Response
	if st, ct, body := do("POST", "/rpc", "application/json", jreq); st != 200 || ct != "application/json" ||
		record.Lookup("goccy").DecodeResponse(body, &r) != nil || r.Balance != record.ServerFoldBalance {
		t.Errorf("/rpc json: %d %q %s", st, ct, body)
	}
	if st, _, body := do("POST", "/rpc", "application/zap", zreq[:20]); st != 400 {
		t.Errorf("/rpc truncated zap: %d %s, want 400", st, body)
	}
}
