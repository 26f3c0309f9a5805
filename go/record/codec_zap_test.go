// codec_zap_test.go owns the tests of the Go ZAP codecs (zap-proto/go
// v1.3.0): the shared eth vectors decoded to the sample and re-encoded byte
// for byte by both builders, and every decode error with its kind.
package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"zapbench/go/internal/vectors"
)

func TestZapVectors(t *testing.T) {
	req, resp, fold := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp.hex"), vectors.MustHex(t, "eth_resp_server_fold.hex")
	if len(req)+len(resp) != 162 {
		t.Fatalf("vector sizes %d + %d, want 82 + 80 = 162", len(req), len(resp))
	}
	for _, c := range ZapCodecs() {
		var q Request
		if err := c.DecodeRequest(req, &q); err != nil || q != SampleRequestFor(c) {
			t.Errorf("%s: eth_req.hex decodes to %+v, %v", c.Name, q, err)
		}
		var r Response
		if err := c.DecodeResponse(resp, &r); err != nil || r != SampleResponseFor(c) {
			t.Errorf("%s: eth_resp.hex decodes to %+v, %v", c.Name, r, err)
		}
		// Twice each: the reset builder's second message must equal its first.
		for i := 0; i < 2; i++ {
			if a, err := c.EncodeRequest(&q); err != nil || !bytes.Equal(a, req) {
				t.Errorf("%s: re-encoded request differs: %x, %v", c.Name, a, err)
			}
			if z, err := c.EncodeResponse(&r); err != nil || !bytes.Equal(z, resp) {
				t.Errorf("%s: re-encoded response differs: %x, %v", c.Name, z, err)
			}
		}
		// The JSON form of the values encodes to the same bytes (hex decoded).
		jq, jr := SampleRequest(), SampleResponse()
		if a, err := c.EncodeRequest(&jq); err != nil || !bytes.Equal(a, req) {
			t.Errorf("%s: the JSON-form request encodes to %x, %v", c.Name, a, err)
		}
		if z, err := c.EncodeResponse(&jr); err != nil || !bytes.Equal(z, resp) {
			t.Errorf("%s: the JSON-form response encodes to %x, %v", c.Name, z, err)
		}
		// The server's answer to eth_req.hex is eth_resp_server_fold.hex.
		if out, err := Handle(c, req, &q); err != nil || !bytes.Equal(out, fold) {
			t.Errorf("%s: Handle(eth_req.hex) = %x, %v, want eth_resp_server_fold.hex", c.Name, out, err)
		}
	}
}

func TestZapEncodeKeepsRequestAndResponseApart(t *testing.T) {
	c := Lookup("zap-reset")
	q, r := SampleRequestFor(c), SampleResponseFor(c)
	a, _ := c.EncodeRequest(&q)
	keep := append([]byte(nil), a...)
	c.EncodeResponse(&r)
	if !bytes.Equal(a, keep) {
		t.Errorf("encoding a response overwrote the request's bytes")
	}
}

func TestZapDecodeErrors(t *testing.T) {
	req, resp := vectors.MustHex(t, "eth_req.hex"), vectors.MustHex(t, "eth_resp.hex")
	edit := func(b []byte, f func([]byte)) []byte {
		out := append([]byte(nil), b...)
		f(out)
		return out
	}
	put32 := func(at int, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[at:], v) }
	}
	badReq := map[string]struct {
		in   []byte
		kind error
	}{
		"empty":              {nil, ErrMalformed},
		"short":              {req[:15], ErrMalformed},
		"bad magic":          {edit(req, func(b []byte) { b[0] = 'X' }), ErrMalformed},
		"version 3":          {edit(req, func(b []byte) { b[4] = 3 }), ErrMalformed},
		"size past input":    {req[:81], ErrMalformed},
		"root at the size":   {edit(req, put32(8, 82)), ErrMalformed},
		"root in the header": {edit(req, put32(8, 8)), ErrMalformed},
		"root near the end":  {edit(req, put32(8, 64)), ErrMissingField}, // the account slot reads as null
		"null account":       {edit(req, put32(16+zapReqAccount, 0)), ErrMissingField},
		"account overrun":    {edit(req, put32(16+zapReqAccount+4, 21)), ErrMissingField},
		"short account":      {edit(req, put32(16+zapReqAccount+4, 19)), ErrBadLength},
	}
	badResp := map[string]struct {
		in   []byte
		kind error
	}{
		"short":      {resp[:40], ErrMalformed},
		"null hash":  {edit(resp, put32(16+zapRespHash, 0)), ErrMissingField},
		"short hash": {edit(resp, put32(16+zapRespHash+4, 31)), ErrBadLength},
	}
	for _, c := range ZapCodecs() {
		for name, tc := range badReq {
			var q Request
			if err := c.DecodeRequest(tc.in, &q); !errors.Is(err, tc.kind) {
				t.Errorf("%s request %s: got %v, want %v", c.Name, name, err, tc.kind)
			}
		}
		for name, tc := range badResp {
			var r Response
			if err := c.DecodeResponse(tc.in, &r); !errors.Is(err, tc.kind) {
				t.Errorf("%s response %s: got %v, want %v", c.Name, name, err, tc.kind)
			}
		}
		// A null method reads as "", as in C++ (ZAP writes an empty text as null).
		var q Request
		if err := c.DecodeRequest(edit(req, put32(16+zapReqMethod, 0)), &q); err != nil || q.Method != "" || q.ID != 1 {
			t.Errorf("%s: a null method: %+v %v", c.Name, q, err)
		}
		bad := SampleRequest()
		bad.Account = "0xdead"
		if _, err := c.EncodeRequest(&bad); !errors.Is(err, ErrBadLength) {
			t.Errorf("%s: encoding a 2-byte account: %v, want ErrBadLength", c.Name, err)
		}
	}
}
