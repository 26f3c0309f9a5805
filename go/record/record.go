// Package record owns the eth JSON-RPC benchmark record of the Go arm: its
// logical values, the sample, the validation a decoded message must pass, and
// the one compute every arm runs (src/record/record.hpp on the C++ side).
package record

import (
	"errors"
	"fmt"
)

// Request is eth_req.json (JSON form) or eth_req.hex (raw form). The field order is the wire order of the vector
// (method, account, block, id), which encoding/json-style encoders follow.
// Account is the wire text "0x" + 40 hex digits: JSON codecs are held to the
// charitable framing of the reference, which keeps hex as text and decodes
// only the first byte (Account0) — the same rule as the C++ arm. A ZAP codec
// (Codec.Raw) carries the 20 raw bytes instead, as C++'s RequestView does:
// the length tells the forms apart (20 raw, 42 as text).
type Request struct {
	Method   string `json:"method"`
	Account  string `json:"account"`
	Block    uint64 `json:"block"`
	ID       uint64 `json:"id"`
	Account0 byte   `json:"-"` // set by every decoder; not on the wire
}

// Response is eth_resp.json; BlockHash is "0x" + 64 hex digits, or the 32
// raw bytes in the raw form.
type Response struct {
	ID        uint64 `json:"id"`
	Balance   uint64 `json:"balance"`
	Nonce     uint64 `json:"nonce"`
	BlockHash string `json:"blockHash"`
}

// The sample values of the vectors (shared/vectors/eth_req.*, eth_resp.*).
const (
	SampleID      uint64 = 1
	SampleBlock   uint64 = 68943 // 0x10d4f
	SampleMethod         = "eth_getBalance"
	SampleAccount        = "0xdeadbeef00112233445566778899aabbccddeeff"
	SampleBalance uint64 = 1000000000000000000 // 10^18
	SampleNonce   uint64 = 42
	SampleHash           = "0x0123456789abcdeffedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0"

	AccountBytes = 20
	HashBytes    = 32

	// ServerFoldBalance is Compute(SampleRequest()).Balance, as in
	// eth_resp_server_fold.hex.
	ServerFoldBalance uint64 = 1000000000000069003

	// JSON wire sizes of the sample (eth_req.json, eth_resp.json).
	RequestJSONBytes  = 103
	ResponseJSONBytes = 130
)

// The sample's account and hash as raw bytes (the ZAP form).
var (
	sampleAccountRaw = mustRaw(SampleAccount)
	sampleHashRaw    = mustRaw(SampleHash)
)

func mustRaw(hexText string) string {
	b := make([]byte, (len(hexText)-2)/2)
	for i := range b {
		b[i] = byte(hexDigit(hexText[2+2*i])<<4 | hexDigit(hexText[3+2*i]))
	}
	return string(b)
}

// SampleRequestFor is the sample in c's form: raw for a ZAP codec.
func SampleRequestFor(c *Codec) Request {
	q := SampleRequest()
	if c.Raw {
		q.Account = sampleAccountRaw
	}
	return q
}

// SampleResponseFor is the sample response in c's form.
func SampleResponseFor(c *Codec) Response {
	r := SampleResponse()
	if c.Raw {
		r.BlockHash = sampleHashRaw
	}
	return r
}

// SampleRequest is the request of the vectors, as a decoder returns it.
func SampleRequest() Request {
	return Request{Method: SampleMethod, Account: SampleAccount, Block: SampleBlock, ID: SampleID, Account0: 0xde}
}

// SampleResponse is eth_resp (balance 10^18, not the server's fold).
func SampleResponse() Response {
	return Response{ID: SampleID, Balance: SampleBalance, Nonce: SampleNonce, BlockHash: SampleHash}
}

// Compute is the server's work, identical on every codec and every arm: echo
// id, nonce 42, the sample hash, and a balance that folds in every request
// field so no decode can be skipped:
// 10^18 XOR (block XOR len(method) XOR 20 XOR account[0]). The hash is a
// constant of the server in the request's form (raw for a raw request), as
// each codec of the reference writes it.
func Compute(q *Request) Response {
	hash := SampleHash
	if len(q.Account) == AccountBytes {
		hash = sampleHashRaw
	}
	return Response{
		ID:        q.ID,
		Balance:   SampleBalance ^ (q.Block ^ uint64(len(q.Method)) ^ AccountBytes ^ uint64(q.Account0)),
		Nonce:     SampleNonce,
		BlockHash: hash,
	}
}

// Decode errors. Every codec returns one of these (wrapped with detail), so
// callers and tests can tell the kinds apart with errors.Is.
var (
	ErrMalformed    = errors.New("malformed JSON")
	ErrMissingField = errors.New("missing field")
	ErrBadLength    = errors.New("account or hash of the wrong length")
	ErrBadHex       = errors.New("bad hex")
)

// ErrEncode wraps a failure to encode the computed response (Handle): the
// server's fault, not the request's.
var ErrEncode = errors.New("encoding the response")

// Handle is the server's per-request work on one body: decode with c,
// compute, encode. The Go server answers /rpc with it and the Handler
// benchmark times it, so the benchmark measures the server's codec share.
// A decode error is one of the kinds above; an encode error wraps ErrEncode.
func Handle(c *Codec, body []byte, q *Request) ([]byte, error) {
	if err := c.DecodeRequest(body, q); err != nil {
		return nil, err
	}
	resp := Compute(q)
	out, err := c.EncodeResponse(&resp)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEncode, err)
	}
	return out, nil
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// checkHex applies the charitable framing of record.hpp's hex::check: the
// "0x" prefix (0X accepted, as in C++), the exact length, and the first
// byte's two digits, which it returns. The rest is not decoded, on any arm.
func checkHex(field, s string, nBytes int) (byte, error) {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return 0, fmt.Errorf("%w: %s has no 0x prefix", ErrBadHex, field)
	}
	if len(s) != 2+2*nBytes {
		return 0, fmt.Errorf("%w: %s has %d characters, want %d", ErrBadLength, field, len(s), 2+2*nBytes)
	}
	hi, lo := hexDigit(s[2]), hexDigit(s[3])
	if hi < 0 || lo < 0 {
		return 0, fmt.Errorf("%w: %s's first byte is not two hex digits", ErrBadHex, field)
	}
	return byte(hi<<4 | lo), nil
}

// ValidResponse checks what a decoded response must satisfy (used by the
// decoders; exported for the tests and the conformance client).
func ValidResponse(r *Response) error {
	_, err := checkHex("blockHash", r.BlockHash, HashBytes)
	return err
}
