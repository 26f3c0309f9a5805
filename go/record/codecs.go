// codecs.go owns the codec table of the Go arm: stdlib (encoding/json),
// goccy (goccy/go-json), sonic (codec_sonic.go), the ZAP codecs (codec_zap.go),
// and the one decode path (presence and hex checks) they all share.
package record

import (
	"encoding/json"
	"fmt"
	"unsafe"

	gojson "github.com/goccy/go-json"
)

// Codec is one JSON (or ZAP) codec as the benchmarks and the server use it.
// When Available is false, Reason says why and the functions are nil.
type Codec struct {
	Name      string
	Available bool
	Reason    string
	// Raw: the codec carries account and blockHash as raw bytes (ZAP), not
	// as 0x-hex text (JSON); its values are in raw form (SampleRequestFor).
	Raw bool

	EncodeRequest  func(q *Request) ([]byte, error)
	DecodeRequest  func(data []byte, q *Request) error
	EncodeResponse func(r *Response) ([]byte, error)
	DecodeResponse func(data []byte, r *Response) error
}

// Codecs lists every codec in table order (the micro benchmark order):
// zap, zap-reset, then goccy, sonic, stdlib.
func Codecs() []*Codec { return []*Codec{zapCodec, zapResetCodec, goccyCodec, sonicCodec, stdlibCodec} }

// ZapCodecs is the two ZAP codecs (codec_zap.go).
func ZapCodecs() []*Codec { return []*Codec{zapCodec, zapResetCodec} }

// JSONCodecs is Codecs without zap.
func JSONCodecs() []*Codec { return []*Codec{goccyCodec, sonicCodec, stdlibCodec} }

// Lookup finds a codec by name, or nil.
func Lookup(name string) *Codec {
	for _, c := range Codecs() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

var (
	stdlibCodec = jsonCodec("stdlib", json.Marshal, json.Unmarshal)
	goccyCodec  = jsonCodec("goccy", gojson.Marshal, gojson.Unmarshal)
)

// jsonCodec builds a codec from a library's ordinary Marshal/Unmarshal, the
// API the reference used. Values are passed by pointer so boxing them into
// the interface does not allocate a copy.
func jsonCodec(name string, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) *Codec {
	return &Codec{
		Name:           name,
		Available:      true,
		EncodeRequest:  func(q *Request) ([]byte, error) { return marshal(q) },
		EncodeResponse: func(r *Response) ([]byte, error) { return marshal(r) },
		DecodeRequest:  func(data []byte, q *Request) error { return decodeRequest(unmarshal, data, q) },
		DecodeResponse: func(data []byte, r *Response) error { return decodeResponse(unmarshal, data, r) },
	}
}

// Presence: a missing field must be an error, not a zero, at no cost to a
// well-formed message (pointer fields would cost an allocation per number).
//   - numbers start as a sentinel; the libraries leave a field untouched
//     when its key is absent (or null). A field still equal to the sentinel
//     after the decode is either absent or really carries the sentinel's
//     value, so only then is the message decoded once more from a second,
//     different sentinel: a field that kept both is absent. Every uint64 stays
//     a valid value, and no benchmark message ever pays the second decode.
//   - strings start as a sentinel and are "seen" when their data pointer has
//     changed: every decoder stores a new string (a copy, or a view into the
//     input for sonic), never one pointing at this package variable, so the
//     check costs no allocation and no value is reserved (even "" or the
//     sentinel's own text in the input counts as present).
//
// Unknown keys are ignored by all three libraries, as in C++. (They also
// accept a repeated key, keeping the last, and match keys case-insensitively;
// C++ rejects duplicates. Neither is exercised by the benchmarks.)
var unsetText = "\x00unset"

func seen(s string) bool {
	return unsafe.StringData(s) != unsafe.StringData(unsetText) || len(s) != len(unsetText)
}

// The two number sentinels: arbitrary, distinct, and unlikely in real traffic.
const (
	unsetNumber      uint64 = 0xfeedfacecafebeef
	unsetNumberAgain uint64 = 0x0ddba11deadc0de5
)

type wireRequest struct {
	Method  string `json:"method"`
	Account string `json:"account"`
	Block   uint64 `json:"block"`
	ID      uint64 `json:"id"`
}

type wireResponse struct {
	ID        uint64 `json:"id"`
	Balance   uint64 `json:"balance"`
	Nonce     uint64 `json:"nonce"`
	BlockHash string `json:"blockHash"`
}

func missing(field string) error { return fmt.Errorf("%w: %s", ErrMissingField, field) }

func decodeRequest(unmarshal func([]byte, any) error, data []byte, q *Request) error {
	w := wireRequest{Method: unsetText, Account: unsetText, Block: unsetNumber, ID: unsetNumber}
	if err := unmarshal(data, &w); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if w.Block == unsetNumber || w.ID == unsetNumber {
		again := wireRequest{Block: unsetNumberAgain, ID: unsetNumberAgain}
		if err := unmarshal(data, &again); err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if w.Block == unsetNumber && again.Block == unsetNumberAgain {
			return missing("block")
		}
		if w.ID == unsetNumber && again.ID == unsetNumberAgain {
			return missing("id")
		}
	}
	switch {
	case !seen(w.Method):
		return missing("method")
	case !seen(w.Account):
		return missing("account")
	}
	a0, err := checkHex("account", w.Account, AccountBytes)
	if err != nil {
		return err
	}
	*q = Request{Method: w.Method, Account: w.Account, Block: w.Block, ID: w.ID, Account0: a0}
	return nil
}

func decodeResponse(unmarshal func([]byte, any) error, data []byte, r *Response) error {
	w := wireResponse{ID: unsetNumber, Balance: unsetNumber, Nonce: unsetNumber, BlockHash: unsetText}
	if err := unmarshal(data, &w); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if w.ID == unsetNumber || w.Balance == unsetNumber || w.Nonce == unsetNumber {
		again := wireResponse{ID: unsetNumberAgain, Balance: unsetNumberAgain, Nonce: unsetNumberAgain}
		if err := unmarshal(data, &again); err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		switch {
		case w.ID == unsetNumber && again.ID == unsetNumberAgain:
			return missing("id")
		case w.Balance == unsetNumber && again.Balance == unsetNumberAgain:
			return missing("balance")
		case w.Nonce == unsetNumber && again.Nonce == unsetNumberAgain:
			return missing("nonce")
		}
	}
	if !seen(w.BlockHash) {
		return missing("blockHash")
	}
	if _, err := checkHex("blockHash", w.BlockHash, HashBytes); err != nil {
		return err
	}
	*r = Response{ID: w.ID, Balance: w.Balance, Nonce: w.Nonce, BlockHash: w.BlockHash}
	return nil
}
