// serde_test.go owns the `go test -bench` entry points: one wrapper per op,
// with a sub-benchmark per available codec, over the functions of bench.go.
package record

import (
	"flag"
	"testing"
)

func runOp(b *testing.B, op string) {
	for _, c := range Codecs() {
		if !c.Available {
			b.Run(c.Name, func(b *testing.B) { b.Skip(c.Reason) })
			continue
		}
		b.Run(c.Name, Benchmark(op, c))
	}
}

func BenchmarkDecode(b *testing.B)  { runOp(b, "Decode") }
func BenchmarkEncode(b *testing.B)  { runOp(b, "Encode") }
func BenchmarkSerde(b *testing.B)   { runOp(b, "Serde") }
func BenchmarkHandler(b *testing.B) { runOp(b, "Handler") }

// TestBenchmarksSmoke runs every benchmark function through testing.Benchmark
// with a tiny benchtime, as the CLI does: each must pass its own result check.
func TestBenchmarksSmoke(t *testing.T) {
	// "1x": testing.Benchmark then runs the function once with b.N = 1 (the
	// result checks run before the timer, so one pass exercises them).
	old := flag.Lookup("test.benchtime").Value.String()
	if err := flag.Set("test.benchtime", "1x"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("test.benchtime", old)
	for _, c := range Codecs() {
		if !c.Available {
			continue
		}
		want := float64(RequestJSONBytes + ResponseJSONBytes)
		if c.Raw {
			want = 162
		}
		for _, op := range Ops {
			r := testing.Benchmark(Benchmark(op, c))
			if r.N == 0 {
				t.Errorf("%s: the benchmark failed its result check", Name(op, c))
				continue
			}
			if w := r.Extra["wire_bytes"]; w != want {
				t.Errorf("%s: wire_bytes = %v, want %v", Name(op, c), w, want)
			}
		}
	}
}
