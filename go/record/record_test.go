// record_test.go owns the record tests: every codec against the shared JSON
// vectors (decode to the sample, byte-identical re-encode), the wire sizes,
// the compute, and the decode errors every codec must report.
package record

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"zapbench/go/internal/vectors"
)

func readVector(t *testing.T, name string) []byte {
	t.Helper()
	b, err := vectors.Raw(name)
	if err != nil {
		t.Fatalf("vector %s: %v (set ZAPBENCH_VECTORS to the shared/vectors folder)", name, err)
	}
	return b
}

func available(t *testing.T) []*Codec {
	var out []*Codec
	for _, c := range JSONCodecs() {
		if c.Available {
			out = append(out, c)
		} else {
			t.Logf("%s unavailable: %s", c.Name, c.Reason)
		}
	}
	return out
}

func TestCodecTable(t *testing.T) {
	for _, name := range []string{"goccy", "sonic", "stdlib", "zap", "zap-reset"} {
		c := Lookup(name)
		if c == nil {
			t.Fatalf("no codec %q", name)
		}
		if c.Available == (c.Reason != "") {
			t.Errorf("%s: Available=%v with reason %q", name, c.Available, c.Reason)
		}
		if c.Available && (c.EncodeRequest == nil || c.DecodeRequest == nil || c.EncodeResponse == nil || c.DecodeResponse == nil) {
			t.Errorf("%s: available without functions", name)
		}
	}
	for _, name := range []string{"goccy", "stdlib", "zap", "zap-reset"} {
		if !Lookup(name).Available {
			t.Errorf("%s must be available", name)
		}
	}
}

func TestVectorsDecodeAndReencode(t *testing.T) {
	reqJSON, respJSON := readVector(t, "eth_req.json"), readVector(t, "eth_resp.json")
	for _, c := range available(t) {
		var q Request
		if err := c.DecodeRequest(reqJSON, &q); err != nil || q != SampleRequest() {
			t.Errorf("%s: eth_req.json decodes to %+v, %v", c.Name, q, err)
		}
		var r Response
		if err := c.DecodeResponse(respJSON, &r); err != nil || r != SampleResponse() {
			t.Errorf("%s: eth_resp.json decodes to %+v, %v", c.Name, r, err)
		}
		// All three libraries emit struct fields in declaration order without
		// spaces, and nothing in the sample needs escaping, so the bytes must be
		// identical (sonic's default skips HTML escaping, irrelevant here).
		a, err := c.EncodeRequest(&q)
		if err != nil || !bytes.Equal(a, reqJSON) {
			t.Errorf("%s: re-encoded request differs: %s, %v", c.Name, a, err)
		}
		z, err := c.EncodeResponse(&r)
		if err != nil || !bytes.Equal(z, respJSON) {
			t.Errorf("%s: re-encoded response differs: %s, %v", c.Name, z, err)
		}
	}
}

func TestWireSizes(t *testing.T) {
	reqJSON, respJSON := readVector(t, "eth_req.json"), readVector(t, "eth_resp.json")
	if len(reqJSON) != RequestJSONBytes || len(respJSON) != ResponseJSONBytes || len(reqJSON)+len(respJSON) != 233 {
		t.Fatalf("vector sizes %d + %d, want 103 + 130 = 233", len(reqJSON), len(respJSON))
	}
	for _, c := range available(t) {
		q, r := SampleRequest(), SampleResponse()
		a, _ := c.EncodeRequest(&q)
		z, _ := c.EncodeResponse(&r)
		if len(a)+len(z) != 233 {
			t.Errorf("%s: wire %d + %d, want 233", c.Name, len(a), len(z))
		}
	}
}

func TestCompute(t *testing.T) {
	q := SampleRequest()
	r := Compute(&q)
	want := Response{ID: 1, Balance: 1000000000000069003, Nonce: 42, BlockHash: SampleHash}
	if r != want || r.Balance != ServerFoldBalance {
		t.Fatalf("Compute(sample) = %+v, want %+v", r, want)
	}
	// Every field folds in: changing one changes the balance.
	for _, m := range []func(*Request){
		func(q *Request) { q.Block++ },
		func(q *Request) { q.Method += "x" },
		func(q *Request) { q.Account0 ^= 1 },
	} {
		x := SampleRequest()
		m(&x)
		if Compute(&x).Balance == r.Balance {
			t.Errorf("a changed request field did not change the balance")
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	req := string(readVector(t, "eth_req.json"))
	resp := string(readVector(t, "eth_resp.json"))
	acct := strings.TrimPrefix(SampleAccount, "0x")
	badReq := map[string]struct {
		in   string
		kind error
	}{
		"malformed":         {req[:50], ErrMalformed},
		"not JSON":          {"hello", ErrMalformed},
		"empty":             {"", ErrMalformed},
		"trailing garbage":  {req + "}", ErrMalformed},
		"string for number": {`{"method":"m","account":"` + SampleAccount + `","block":"1","id":1}`, ErrMalformed},
		"negative":          {`{"method":"m","account":"` + SampleAccount + `","block":-1,"id":1}`, ErrMalformed},
		"float":             {`{"method":"m","account":"` + SampleAccount + `","block":1.5,"id":1}`, ErrMalformed},
		"overflow":          {`{"method":"m","account":"` + SampleAccount + `","block":18446744073709551616,"id":1}`, ErrMalformed},
		"missing method":    {`{"account":"` + SampleAccount + `","block":1,"id":1}`, ErrMissingField},
		"missing account":   {`{"method":"m","block":1,"id":1}`, ErrMissingField},
		"missing block":     {`{"method":"m","account":"` + SampleAccount + `","id":1}`, ErrMissingField},
		"missing id":        {`{"method":"m","account":"` + SampleAccount + `","block":1}`, ErrMissingField},
		"null id":           {`{"method":"m","account":"` + SampleAccount + `","block":1,"id":null}`, ErrMissingField},
		"missing both":      {`{"method":"m","account":"` + SampleAccount + `"}`, ErrMissingField},
		"short account":     {`{"method":"m","account":"0xdeadbeef","block":1,"id":1}`, ErrBadLength},
		"long account":      {`{"method":"m","account":"` + SampleAccount + `00","block":1,"id":1}`, ErrBadLength},
		"no 0x":             {`{"method":"m","account":"00` + acct + `","block":1,"id":1}`, ErrBadHex},
		"bad hex":           {`{"method":"m","account":"0xzz` + acct[2:] + `","block":1,"id":1}`, ErrBadHex},
	}
	badResp := map[string]struct {
		in   string
		kind error
	}{
		"malformed":         {resp[:60], ErrMalformed},
		"missing id":        {`{"balance":1,"nonce":42,"blockHash":"` + SampleHash + `"}`, ErrMissingField},
		"missing balance":   {`{"id":1,"nonce":42,"blockHash":"` + SampleHash + `"}`, ErrMissingField},
		"missing nonce":     {`{"id":1,"balance":1,"blockHash":"` + SampleHash + `"}`, ErrMissingField},
		"missing blockHash": {`{"id":1,"balance":1,"nonce":42}`, ErrMissingField},
		"null nonce":        {`{"id":1,"balance":1,"nonce":null,"blockHash":"` + SampleHash + `"}`, ErrMissingField},
		"short hash":        {`{"id":1,"balance":1,"nonce":42,"blockHash":"0x0123"}`, ErrBadLength},
		"hash without 0x":   {`{"id":1,"balance":1,"nonce":42,"blockHash":"00` + SampleHash[2:] + `"}`, ErrBadHex},
	}
	for _, c := range available(t) {
		for name, tc := range badReq {
			var q Request
			if err := c.DecodeRequest([]byte(tc.in), &q); !errors.Is(err, tc.kind) {
				t.Errorf("%s request %s: got %v, want %v", c.Name, name, err, tc.kind)
			}
		}
		for name, tc := range badResp {
			var r Response
			if err := c.DecodeResponse([]byte(tc.in), &r); !errors.Is(err, tc.kind) {
				t.Errorf("%s response %s: got %v, want %v", c.Name, name, err, tc.kind)
			}
		}
		// Present-but-empty and reordered/unknown fields are fine.
		var q Request
		in := `{"id":7,"x":[1,{"y":2}],"block":0,"account":"` + SampleAccount + `","method":""}`
		if err := c.DecodeRequest([]byte(in), &q); err != nil || q.ID != 7 || q.Method != "" || q.Account0 != 0xde {
			t.Errorf("%s: %s -> %+v, %v", c.Name, in, q, err)
		}
		// The number sentinels' own values in the input are present values: they take the second decode.
		for _, id := range []uint64{unsetNumber, unsetNumberAgain} {
			in = fmt.Sprintf(`{"method":"m","account":"%s","block":%d,"id":%d}`, SampleAccount, id, id)
			if err := c.DecodeRequest([]byte(in), &q); err != nil || q.ID != id || q.Block != id {
				t.Errorf("%s: %s -> %+v, %v", c.Name, in, q, err)
			}
			var r Response
			in = fmt.Sprintf(`{"id":%d,"balance":%d,"nonce":%d,"blockHash":"%s"}`, id, id, id, SampleHash)
			if err := c.DecodeResponse([]byte(in), &r); err != nil || r.ID != id || r.Balance != id || r.Nonce != id {
				t.Errorf("%s: %s -> %+v, %v", c.Name, in, r, err)
			}
		}
		// The sentinel's own text in the input is a present value.
		in = `{"method":"\u0000unset","account":"` + SampleAccount + `","block":0,"id":0}`
		if err := c.DecodeRequest([]byte(in), &q); err != nil || q.Method != unsetText {
			t.Errorf("%s: %s -> %+v, %v", c.Name, in, q, err)
		}
	}
}

func TestLargeIDsRoundTrip(t *testing.T) {
	for _, c := range available(t) {
		for _, id := range []uint64{0, 1, 1<<53 + 1, ^uint64(0)} {
			q := SampleRequest()
			q.ID = id
			a, err := c.EncodeRequest(&q)
			var d Request
			if err != nil || c.DecodeRequest(a, &d) != nil || d != q {
				t.Errorf("%s: id %d does not round-trip: %s", c.Name, id, a)
			}
		}
	}
}

// Handle, the server's /rpc work and the Handler benchmark's: the computed
// answer, a decode error of its kind, and an encode failure told apart
// (ErrEncode: the server's fault, a 500, not the request's 400).
func TestHandle(t *testing.T) {
	for _, c := range available(t) {
		var q Request
		out, err := Handle(c, readVector(t, "eth_req.json"), &q)
		var r Response
		if err != nil || c.DecodeResponse(out, &r) != nil || r.Balance != ServerFoldBalance || r.ID != SampleID {
			t.Errorf("%s: %s, %v", c.Name, out, err)
		}
		if _, err := Handle(c, []byte("{"), &q); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrEncode) {
			t.Errorf("%s: malformed body: %v", c.Name, err)
		}
	}
	failing := *goccyCodec
	failing.EncodeResponse = func(*Response) ([]byte, error) { return nil, errors.New("no room") }
	var q Request
	if _, err := Handle(&failing, readVector(t, "eth_req.json"), &q); !errors.Is(err, ErrEncode) {
		t.Errorf("an encode failure: %v, want ErrEncode", err)
	}
}
