// fuzz_test.go owns the Go arm's fuzz targets (go test -fuzz; without -fuzz
// `go test` runs their seeds): the ZAP eth decoders and the logs readers on
// zap-proto/go, given any bytes, return a value or an error of their kind —
// never a panic — and what they accept re-encodes to what decodes the same.
// tests/go/go_fuzz.sh runs each for FUZZ_SECONDS in the fuzz stage of make test.
package record

import (
	"errors"
	"testing"

	"zapbench/go/internal/vectors"
)

func seedVectors(f *testing.F, names ...string) {
	for _, name := range names {
		f.Add(vectors.MustHex(f, name))
	}
}

func FuzzZapRequest(f *testing.F) {
	seedVectors(f, "eth_req.hex", "golden_v1.hex", "reject_bytes_backward_into_header.hex")
	c := Lookup("zap")
	f.Fuzz(func(t *testing.T, in []byte) {
		var q Request
		err := c.DecodeRequest(in, &q)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrMissingField) && !errors.Is(err, ErrBadLength) {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		out, err := c.EncodeRequest(&q)
		var again Request
		if err != nil || c.DecodeRequest(out, &again) != nil || again != q {
			t.Fatalf("%+v re-encodes to %x (%v), which decodes to %+v", q, out, err, again)
		}
	})
}

func FuzzZapResponse(f *testing.F) {
	seedVectors(f, "eth_resp.hex", "eth_resp_server_fold.hex", "golden_v2.hex")
	c := Lookup("zap")
	f.Fuzz(func(t *testing.T, in []byte) {
		var r Response
		err := c.DecodeResponse(in, &r)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrMissingField) && !errors.Is(err, ErrBadLength) {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		out, err := c.EncodeResponse(&r)
		var again Response
		if err != nil || c.DecodeResponse(out, &again) != nil || again != r {
			t.Fatalf("%+v re-encodes to %x (%v), which decodes to %+v", r, out, err, again)
		}
	})
}

func FuzzZapLogs(f *testing.F) {
	f.Add(AppendLogsZap(nil, GenerateLogs(SampleLogsRequest(2))))
	f.Add(AppendLogsZap(nil, GenerateLogs(SampleLogsRequest(0))))
	f.Add(AppendLogsZap(nil, GenerateLogs(SampleLogsRequest(5))))
	f.Fuzz(func(t *testing.T, in []byte) {
		var d LogsDigest
		var s LogsScan
		var p LogPick
		ed, es := ZapLogsDecodeAll(in, &d), ZapLogsScan(in, &s)
		for _, err := range []error{ed, es} {
			if err != nil && !errors.Is(err, ErrLogs) {
				t.Fatalf("an error of no kind: %v", err)
			}
		}
		// DecodeAll reads all ScanField reads and more: it cannot accept what ScanField refuses.
		if ed == nil && es != nil {
			t.Fatalf("DecodeAll accepts what ScanField refuses: %v", es)
		}
		if ed == nil && es == nil && d.Count != s.Count {
			t.Fatalf("DecodeAll counts %d logs, ScanField %d", d.Count, s.Count)
		}
		if es == nil && s.Count > 0 {
			if err := ZapLogsAccessOne(in, int(s.Count-1), &p); err != nil {
				t.Fatalf("AccessOne refuses the last of %d logs ScanField read: %v", s.Count, err)
			}
		}
	})
}
