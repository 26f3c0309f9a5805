// logs_bench.go owns the Go arm's logs benchmarks, with the meanings of
// src/micro/logs_bench.cpp, on zap-proto/go's reader (the Go runtime's only
// access to our layout): Logs/DecodeAll/go/zap/N (every field of every log
// folded into the digest), Logs/AccessOne/go/zap/N (logIndex and
// transactionHash of log N/2), Logs/ScanField/go/zap/N (the sum of
// blockNumber). Each checks its answer against the logical values' before
// timing and reports the answer's wire bytes.
package record

import (
	"fmt"
	"testing"
)

// LogsOps and LogCounts: the ops and the N of the Go logs benchmarks (the
// C++ micro's kLogCounts).
var (
	LogsOps   = []string{"DecodeAll", "AccessOne", "ScanField"}
	LogCounts = []int{1, 10, 100, 1000, 10000}
)

// LogsName is a logs benchmark's name: Logs/<op>/go/zap/<N>.
func LogsName(op string, n int) string { return fmt.Sprintf("Logs/%s/go/zap/%d", op, n) }

var (
	sinkDigest LogsDigest
	sinkScan   LogsScan
	sinkPick   LogPick
)

// BenchLogs returns the benchmark of op at n logs, or nil for an unknown op.
func BenchLogs(op string, n int) func(*testing.B) {
	run := map[string]func(b *testing.B, wire []byte, logs []Log){
		"DecodeAll": func(b *testing.B, wire []byte, logs []Log) {
			var d LogsDigest
			if err := ZapLogsDecodeAll(wire, &d); err != nil || d != DigestOf(logs) {
				b.Fatalf("DecodeAll does not give the digest of the logs: %v", err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := ZapLogsDecodeAll(wire, &d); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			sinkDigest = d
		},
		"AccessOne": func(b *testing.B, wire []byte, logs []Log) {
			k := MiddleLog(len(logs))
			var p LogPick
			if err := ZapLogsAccessOne(wire, k, &p); err != nil || p != (LogPick{logs[k].LogIndex, logs[k].TxHash}) {
				b.Fatalf("AccessOne does not give log %d's logIndex and transactionHash: %v", k, err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := ZapLogsAccessOne(wire, k, &p); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			sinkPick = p
		},
		"ScanField": func(b *testing.B, wire []byte, logs []Log) {
			var s LogsScan
			if err := ZapLogsScan(wire, &s); err != nil || s != ScanOf(logs) {
				b.Fatalf("ScanField does not give the sum of blockNumber: %v", err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := ZapLogsScan(wire, &s); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			sinkScan = s
		},
	}[op]
	if run == nil {
		return nil
	}
	return func(b *testing.B) {
		b.StopTimer()
		logs := GenerateLogs(SampleLogsRequest(uint32(n)))
		wire := AppendLogsZap(nil, logs)
		b.StartTimer()
		run(b, wire, logs)
		report(b, len(wire))
	}
}
