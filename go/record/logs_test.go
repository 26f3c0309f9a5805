// logs_test.go owns the tests of the Go logs record: the generator and the
// writer give the spec's vector byte for byte (docs/spec/vectors/
// logs_resp_n2.hex, the C++ encoder's bytes), the three reads give the
// logical values' answers at every N, every malformed answer is an error of
// its kind, and the benchmarks pass their own checks.
package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"testing"

	"zapbench/go/internal/vectors"
)

func TestLogsVector(t *testing.T) {
	want := vectors.MustRepo(t, "logs_resp_n2.hex")
	if got := AppendLogsZap(nil, GenerateLogs(SampleLogsRequest(2))); !bytes.Equal(got, want) {
		t.Fatalf("the answer to sample_logs_request(2):\n got %x\nwant %x", got, want)
	}
	// Appending keeps what dst held.
	if got := AppendLogsZap([]byte("x"), GenerateLogs(SampleLogsRequest(2))); got[0] != 'x' || !bytes.Equal(got[1:], want) {
		t.Error("AppendLogsZap does not append")
	}
}

func TestLogsReads(t *testing.T) {
	for _, n := range []int{0, 1, 2, 100, 1000} {
		logs := GenerateLogs(SampleLogsRequest(uint32(n)))
		wire := AppendLogsZap(nil, logs)
		var d LogsDigest
		if err := ZapLogsDecodeAll(wire, &d); err != nil || d != DigestOf(logs) || d.Count != uint64(n) {
			t.Errorf("N=%d DecodeAll: %+v %v, want %+v", n, d, err, DigestOf(logs))
		}
		var s LogsScan
		if err := ZapLogsScan(wire, &s); err != nil || s != ScanOf(logs) {
			t.Errorf("N=%d ScanField: %+v %v, want %+v", n, s, err, ScanOf(logs))
		}
		for _, k := range []int{0, MiddleLog(n), n - 1} {
			if n == 0 {
				break
			}
			var p LogPick
			if err := ZapLogsAccessOne(wire, k, &p); err != nil || p != (LogPick{logs[k].LogIndex, logs[k].TxHash}) {
				t.Errorf("N=%d AccessOne(%d): %+v %v", n, k, p, err)
			}
		}
	}
	// A field changed on the wire changes the digest: every field is read.
	logs := GenerateLogs(SampleLogsRequest(3))
	wire := AppendLogsZap(nil, logs)
	for at := logsBody; at < logsBody+logRecordBytes; at++ {
		if at >= logsBody+logTopicsAt && at < logsBody+logRecordBytes {
			break // the slots: covered by the error cases
		}
		if at >= logsBody+logRemovedAt+1 && at < logsBody+logTxHashAt {
			continue // padding after removed
		}
		bad := append([]byte(nil), wire...)
		bad[at] ^= 1
		var d LogsDigest
		if err := ZapLogsDecodeAll(bad, &d); err == nil && d == DigestOf(logs) {
			t.Errorf("byte %d of log 0 changed and the digest did not", at)
		}
	}
}

func TestLogsErrors(t *testing.T) {
	wire := AppendLogsZap(nil, GenerateLogs(SampleLogsRequest(2)))
	edit := func(f func([]byte)) []byte {
		b := append([]byte(nil), wire...)
		f(b)
		return b
	}
	put32 := func(at int, v uint32) []byte {
		return edit(func(b []byte) { binary.LittleEndian.PutUint32(b[at:], v) })
	}
	cases := map[string][]byte{
		"empty":                 nil,
		"truncated":             wire[:len(wire)-1],
		"bad magic":             edit(func(b []byte) { b[0] = 'X' }),
		"root past the end":     put32(8, uint32(len(wire))),
		"N past the size":       put32(logsRoot+4, 5),
		"N clamped away":        put32(logsRoot+4, 0xffffffff),
		"null slot with logs":   put32(logsRoot, 0),
		"topics of 33 bytes":    put32(logsBody+logTopicsAt+4, 33),
		"five topics":           put32(logsBody+logTopicsAt+4, 160),
		"size below the header": put32(12, 8),
	}
	for name, in := range cases {
		var d LogsDigest
		var s LogsScan
		var p LogPick
		e1, e2, e3 := ZapLogsDecodeAll(in, &d), ZapLogsScan(in, &s), ZapLogsAccessOne(in, 0, &p)
		if !errors.Is(e1, ErrLogs) {
			t.Errorf("%s: DecodeAll: %v, want ErrLogs", name, e1)
		}
		if name != "topics of 33 bytes" && name != "five topics" { // only DecodeAll reads the topics
			if !errors.Is(e2, ErrLogs) || !errors.Is(e3, ErrLogs) {
				t.Errorf("%s: ScanField %v, AccessOne %v, want ErrLogs", name, e2, e3)
			}
		}
	}
	var p LogPick
	if err := ZapLogsAccessOne(wire, 2, &p); !errors.Is(err, ErrLogs) {
		t.Errorf("AccessOne past N: %v", err)
	}
}

func TestLogsBenchmarksSmoke(t *testing.T) {
	old := flag.Lookup("test.benchtime").Value.String()
	if err := flag.Set("test.benchtime", "1x"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("test.benchtime", old)
	for _, op := range LogsOps {
		for _, n := range []int{1, 100} {
			r := testing.Benchmark(BenchLogs(op, n))
			if r.N == 0 || r.Extra["wire_bytes"] <= 0 {
				t.Errorf("%s: the benchmark failed its check (%+v)", LogsName(op, n), r)
			}
		}
	}
	if BenchLogs("Encode", 1) != nil {
		t.Error("an unknown logs op has a benchmark")
	}
}
