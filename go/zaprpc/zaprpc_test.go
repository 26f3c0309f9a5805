// zaprpc_test.go owns the tests of the Go ZAP-RPC server and conformance
// check (e): zap-proto/go v1.8.1's transport client, with many calls in
// flight, against `zapbench serve --zap-rpc` (ZAPBENCH_EXE), and our loader
// (`zapbench load --framing zap-rpc`) against this Go server, every answer
// validated by it.
package zaprpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zap-proto/go/rpc"
	"github.com/zap-proto/go/transport"

	"zapbench/go/internal/spawn"
	"zapbench/go/internal/vectors"
	"zapbench/go/record"
)

// start serves Dispatch on a free port, closed at the test's end.
func start(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// call makes one call on c and checks its status and body.
func call(c transport.Conn, method uint32, target uint32, payload []byte, status uint32, body []byte) error {
	id := c.NextPromiseID()
	resp, err := c.Call(rpc.BuildRequest(rpc.Call{Method: method, PromiseID: id, Target: target, Payload: payload}))
	switch {
	case err != nil:
		return fmt.Errorf("method %d: %v", method, err)
	case resp.PromiseID != id || resp.Status != status || (body != nil && !bytes.Equal(resp.Body, body)):
		return fmt.Errorf("method %d: promise %d status %d body %q, want promise %d status %d body %q",
			method, resp.PromiseID, resp.Status, resp.Body, id, status, body)
	}
	return nil
}

// TestDispatch: the Go server's answers, through zap-proto/go's own client.
func TestDispatch(t *testing.T) {
	c, err := transport.Dial("tcp", start(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req, fold := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp_server_fold.hex")
	for _, ck := range []struct {
		method, target uint32
		payload        []byte
		status         uint32
		body           []byte
	}{
		{MethodHealth, 0, nil, 200, []byte("ok")},
		{MethodEthCall, 0, req, 200, fold},
		{MethodEthCall, 0, req[:20], 400, nil},
		{MethodEthCall, 1, req, 400, []byte("promise pipelining (Target) is not supported")},
		{17, 0, req, 404, []byte("unknown method 17")},
	} {
		if err := call(c, ck.method, ck.target, ck.payload, ck.status, ck.body); err != nil {
			t.Error(err)
		}
	}
}

// concurrentCalls makes calls from `callers` goroutines at once on one
// connection (so many are in flight), health and eth_call interleaved.
func concurrentCalls(t *testing.T, addr string, callers, each int) {
	c, err := transport.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	zap := record.Lookup("zap")
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := 0; g < callers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				q := record.SampleRequestFor(zap)
				q.ID, q.Block = uint64(g*each+i), uint64(i)*7919
				in, err := zap.EncodeRequest(&q)
				if err != nil {
					errs <- err
					return
				}
				a := record.Compute(&q)
				want, _ := zap.EncodeResponse(&a)
				want = append([]byte(nil), want...)
				if err := call(c, MethodEthCall, 0, in, 200, want); err != nil {
					errs <- fmt.Errorf("caller %d call %d: %v", g, i, err)
					return
				}
				if i%8 == 0 {
					if err := call(c, MethodHealth, 0, nil, 200, []byte("ok")); err != nil {
						errs <- err
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGoClientAgainstCppServer is check (e), one way: zap-proto/go's client,
// 64 callers on one connection, against our server.
func TestGoClientAgainstCppServer(t *testing.T) {
	s := spawn.Start(t, spawn.CppExe(t), "serve", "--zap-rpc", "127.0.0.1:0")
	addr := s.Ready["zap-rpc"]
	if addr == "" {
		t.Fatalf("no zap-rpc ready line: %v", s.Ready)
	}
	concurrentCalls(t, addr, 64, 40)
	c, err := transport.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := call(c, 99, 0, nil, 404, nil); err != nil {
		t.Error(err)
	}
	c.Close()
	if err := s.Terminate(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, s.Output())
	}
}

// TestGoClientAgainstGoServer: the same load on the Go server itself.
func TestGoClientAgainstGoServer(t *testing.T) { concurrentCalls(t, start(t), 64, 40) }

// TestCppLoaderAgainstGoServer is check (e), the other way: our loader, 4
// connections with 16 calls in flight each, against the Go server: every
// answer validated, none missing, no error of any kind.
func TestCppLoaderAgainstGoServer(t *testing.T) {
	exe := spawn.CppExe(t)
	addr := start(t)
	out := filepath.Join(t.TempDir(), "load.json")
	for _, scenario := range []string{"hello", "rpc"} {
		cmd := exec.Command(exe, "load", "--framing", "zap-rpc", "--addr", addr, "--scenario", scenario, "--body", "zap",
			"-c", "4", "-p", "16", "-d", "300ms", "--warmup", "100ms", "--json-out", out)
		done := make(chan struct{})
		var output []byte
		var err error
		go func() { output, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(spawn.Deadline):
			cmd.Process.Kill()
			<-done
			t.Fatalf("zapbench load did not end within %v", spawn.Deadline)
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", scenario, err, output)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Requests, Responses uint64
			Errors              map[string]uint64
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		bad := uint64(0)
		for _, n := range r.Errors {
			bad += n
		}
		if r.Responses == 0 || r.Requests != r.Responses || bad != 0 {
			t.Errorf("%s: %d requests, %d responses, errors %v\n%s", scenario, r.Requests, r.Responses, r.Errors, output)
		}
	}
}

// TestModuleVersion: this build links v1.8.1 (the rest of the Go arm v1.3.0).
func TestModuleVersion(t *testing.T) {
	if v := record.ModuleVersion(record.ZapModule); v != "v1.8.1" && v != "(version unknown)" {
		t.Errorf("zap-proto/go %s, want v1.8.1", v)
	}
}
