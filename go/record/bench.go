// bench.go owns the four codec benchmarks of the Go arm — Decode, Encode,
// Serde, Handler — with the meanings of src/micro/codec_bench.cpp, as plain
// functions so `go test -bench` (serde_test.go) and the CLI's
// testing.Benchmark run the very same code.
package record

import (
	"fmt"
	"testing"
)

// Ops is the benchmark order of the table.
var Ops = []string{"Decode", "Encode", "Serde", "Handler"}

// Benchmark returns the benchmark function for op on an available codec, or
// nil for an unknown op.
func Benchmark(op string, c *Codec) func(*testing.B) {
	switch op {
	case "Decode":
		return func(b *testing.B) { BenchDecode(b, c) }
	case "Encode":
		return func(b *testing.B) { BenchEncode(b, c) }
	case "Serde":
		return func(b *testing.B) { BenchSerde(b, c) }
	case "Handler":
		return func(b *testing.B) { BenchHandler(b, c) }
	}
	return nil
}

// Sinks keep results observable so no work is optimised away (the calls go
// through function values into libraries, so this is belt and braces).
var (
	sinkReq   Request
	sinkResp  Response
	sinkBytes []byte
)

func isSample(c *Codec, q *Request) bool { return *q == SampleRequestFor(c) }

func isSampleResponse(c *Codec, r *Response) bool { return *r == SampleResponseFor(c) }

// isComputedResponse: the server's answer to the sample request.
func isComputedResponse(c *Codec, r *Response) bool {
	q := SampleRequestFor(c)
	return *r == Compute(&q) && r.Balance == ServerFoldBalance
}

func report(b *testing.B, wire int) {
	b.ReportMetric(float64(wire), "wire_bytes")
}

func mustEncode(b *testing.B, c *Codec) (req, resp []byte) {
	q, r := SampleRequestFor(c), SampleResponseFor(c)
	req, err1 := c.EncodeRequest(&q)
	resp, err2 := c.EncodeResponse(&r)
	if err1 != nil || err2 != nil {
		b.Fatalf("%s: encoding the sample: %v %v", c.Name, err1, err2)
	}
	return req, resp
}

// BenchDecode decodes the sample request and the sample response (every
// field, and account[0] from its hex) per op.
func BenchDecode(b *testing.B, c *Codec) {
	req, resp := mustEncode(b, c)
	var q Request
	var r Response
	if err := c.DecodeRequest(req, &q); err != nil || !isSample(c, &q) {
		b.Fatalf("%s: decode does not give the sample request back: %v %+v", c.Name, err, q)
	}
	if err := c.DecodeResponse(resp, &r); err != nil || !isSampleResponse(c, &r) {
		b.Fatalf("%s: decode does not give the sample response back: %v %+v", c.Name, err, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e1 := c.DecodeRequest(req, &q)
		e2 := c.DecodeResponse(resp, &r)
		if e1 != nil || e2 != nil {
			b.Fatal(e1, e2)
		}
	}
	b.StopTimer()
	sinkReq, sinkResp = q, r
	report(b, len(req)+len(resp))
}

// BenchEncode encodes the sample request and response from their values.
// Charitable to Go, as in the reference: the hex fields are already text in
// the values of a JSON codec, so no hex encoding is timed (C++ encodes from
// raw bytes); a ZAP codec encodes from the raw bytes, as C++ does.
func BenchEncode(b *testing.B, c *Codec) {
	q, r := SampleRequestFor(c), SampleResponseFor(c)
	{
		a, _ := c.EncodeRequest(&q)
		z, _ := c.EncodeResponse(&r)
		var dq Request
		var dr Response
		if c.DecodeRequest(a, &dq) != nil || !isSample(c, &dq) || c.DecodeResponse(z, &dr) != nil || !isSampleResponse(c, &dr) {
			b.Fatalf("%s: encode does not round-trip the sample", c.Name)
		}
	}
	wire := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, e1 := c.EncodeRequest(&q)
		z, e2 := c.EncodeResponse(&r)
		if e1 != nil || e2 != nil {
			b.Fatal(e1, e2)
		}
		sinkBytes = z
		wire = len(a) + len(z)
	}
	b.StopTimer()
	report(b, wire)
}

// serdeOnce is what a client and server pair pays per call: encode the
// request, decode it, compute, encode the response, decode it.
func serdeOnce(c *Codec, q *Request, dq *Request, dr *Response) (int, error) {
	a, err := c.EncodeRequest(q)
	if err != nil {
		return 0, err
	}
	if err := c.DecodeRequest(a, dq); err != nil {
		return 0, err
	}
	resp := Compute(dq)
	z, err := c.EncodeResponse(&resp)
	if err != nil {
		return 0, err
	}
	if err := c.DecodeResponse(z, dr); err != nil {
		return 0, err
	}
	return len(a) + len(z), nil
}

// BenchSerde: encode request, decode it, compute, encode response, decode it.
func BenchSerde(b *testing.B, c *Codec) {
	q := SampleRequestFor(c)
	var dq Request
	var dr Response
	if _, err := serdeOnce(c, &q, &dq, &dr); err != nil || !isSample(c, &dq) || !isComputedResponse(c, &dr) {
		b.Fatalf("%s: serde does not give the computed response: %v %+v", c.Name, err, dr)
	}
	wire := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := serdeOnce(c, &q, &dq, &dr)
		if err != nil {
			b.Fatal(err)
		}
		wire = n
	}
	b.StopTimer()
	sinkResp = dr
	report(b, wire)
}

// BenchHandler: decode the sample request, compute, encode the response —
// Handle, the Go server's own /rpc work.
func BenchHandler(b *testing.B, c *Codec) {
	req, _ := mustEncode(b, c)
	var q Request
	out, err := Handle(c, req, &q)
	var r Response
	if err != nil || c.DecodeResponse(out, &r) != nil || !isComputedResponse(c, &r) {
		b.Fatalf("%s: handler does not give the computed response: %v %s", c.Name, err, out)
	}
	wire := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := Handle(c, req, &q)
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = out
		wire = len(req) + len(out)
	}
	b.StopTimer()
	report(b, wire)
}

// Name is a benchmark's name in the results: <Op>/go/<codec>.
func Name(op string, c *Codec) string { return fmt.Sprintf("%s/go/%s", op, c.Name) }
