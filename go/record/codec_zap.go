// codec_zap.go owns the Go ZAP codecs: zap-proto/go v1.3.0 (the version the
// reference pins) used the reference's way — "zap", a fresh NewBuilder per
// message — and "zap-reset", one builder per direction reused with Reset(),
// the runtime's own answer to the per-message allocation. Both decode with
// Parse + Root + accessors (zero copy). The record's layout is the
// reference's (design/reference.md): EthCallReq id u64 @0, block u64 @8,
// method text @16, account bytes @24; EthCallResp id @0, balance @8, nonce
// @16, blockHash bytes @24; fixed sections of 32 bytes.
package record

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"unsafe"

	zap "github.com/zap-proto/go"
)

// The field offsets of the two objects, and their fixed size.
const (
	zapFixedBytes = 32

	zapReqID      = 0
	zapReqBlock   = 8
	zapReqMethod  = 16
	zapReqAccount = 24

	zapRespID      = 0
	zapRespBalance = 8
	zapRespNonce   = 16
	zapRespHash    = 24

	// zapBuilderBytes is the fresh builder's capacity: both messages (82 and
	// 80 bytes) fit without a grow, so the fresh builder pays one buffer.
	zapBuilderBytes = 128
)

// ZapModule is the module the ZAP codecs are built on, as linked.
const ZapModule = "github.com/zap-proto/go"

var (
	zapCodec      = zapCodecWith("zap", func() *zap.Builder { return zap.NewBuilder(zapBuilderBytes) })
	zapResetCodec = zapResetCodecNew()
)

// zapResetCodecNew: one builder per direction (a request and a response
// encoded back to back must not share bytes), reset per message. Not safe
// for concurrent use: the benchmarks are single-goroutine, and the Go server
// serves ZAP with the reference's "zap".
func zapResetCodecNew() *Codec {
	req, resp := zap.NewBuilder(zapBuilderBytes), zap.NewBuilder(zapBuilderBytes)
	c := zapCodecWith("zap-reset", nil)
	c.EncodeRequest = func(q *Request) ([]byte, error) { req.Reset(); return zapEncodeRequest(req, q) }
	c.EncodeResponse = func(r *Response) ([]byte, error) { resp.Reset(); return zapEncodeResponse(resp, r) }
	return c
}

func zapCodecWith(name string, fresh func() *zap.Builder) *Codec {
	c := &Codec{Name: name, Available: true, Raw: true, DecodeRequest: zapDecodeRequest, DecodeResponse: zapDecodeResponse}
	if fresh != nil {
		c.EncodeRequest = func(q *Request) ([]byte, error) { return zapEncodeRequest(fresh(), q) }
		c.EncodeResponse = func(r *Response) ([]byte, error) { return zapEncodeResponse(fresh(), r) }
	}
	return c
}

// rawField gives a raw-form field's bytes without a copy; a hex-form value
// (a JSON-shaped Request handed to ZAP, tests only) is decoded first.
func rawField(s string, n int) ([]byte, error) {
	if len(s) == n {
		return unsafe.Slice(unsafe.StringData(s), n), nil
	}
	if len(s) == 2+2*n {
		return hex.DecodeString(s[2:])
	}
	return nil, fmt.Errorf("%w: %d bytes, want %d raw or %d as 0x-hex", ErrBadLength, len(s), n, 2+2*n)
}

func zapEncodeRequest(b *zap.Builder, q *Request) ([]byte, error) {
	account, err := rawField(q.Account, AccountBytes)
	if err != nil {
		return nil, err
	}
	o := b.StartObject(zapFixedBytes)
	o.SetUint64(zapReqID, q.ID)
	o.SetUint64(zapReqBlock, q.Block)
	o.SetText(zapReqMethod, q.Method)
	o.SetBytes(zapReqAccount, account)
	o.FinishAsRoot()
	return b.Finish(), nil
}

func zapEncodeResponse(b *zap.Builder, r *Response) ([]byte, error) {
	hash, err := rawField(r.BlockHash, HashBytes)
	if err != nil {
		return nil, err
	}
	o := b.StartObject(zapFixedBytes)
	o.SetUint64(zapRespID, r.ID)
	o.SetUint64(zapRespBalance, r.Balance)
	o.SetUint64(zapRespNonce, r.Nonce)
	o.SetBytes(zapRespHash, hash)
	o.FinishAsRoot()
	return b.Finish(), nil
}

// zapRootFits checks that the root lies inside the parsed message, as the
// C++ reader does (zap::Message::parse): a root in the header or at or past
// the size is malformed. A field past the size reads as 0 and a slot that
// does not resolve as null, as the runtime's accessors answer.
func zapRootFits(data []byte, size int) error {
	if root := binary.LittleEndian.Uint32(data[8:12]); uint64(root) < zap.HeaderSize || uint64(root) >= uint64(size) {
		return fmt.Errorf("%w: zap: the root offset %d is outside the message's %d bytes", ErrMalformed, root, size)
	}
	return nil
}

func zapParseError(err error) error { return fmt.Errorf("%w: %v", ErrMalformed, err) }

// zapDecodeRequest reads every field (zero copy: Method and Account point
// into data). As in C++, only the byte fields can be checked: a null
// account is missing, one of another length the wrong length; a null
// method reads as "" (ZAP writes an empty text as null).
func zapDecodeRequest(data []byte, q *Request) error {
	m, err := zap.Parse(data)
	if err != nil {
		return zapParseError(err)
	}
	if err := zapRootFits(data, m.Size()); err != nil {
		return err
	}
	o := m.Root()
	method, account := o.Text(zapReqMethod), o.Bytes(zapReqAccount)
	switch {
	case account == nil:
		return missing("account")
	case len(account) != AccountBytes:
		return fmt.Errorf("%w: account has %d bytes, want %d", ErrBadLength, len(account), AccountBytes)
	}
	*q = Request{Method: method, Account: unsafe.String(&account[0], len(account)), Block: o.Uint64(zapReqBlock),
		ID: o.Uint64(zapReqID), Account0: account[0]}
	return nil
}

func zapDecodeResponse(data []byte, r *Response) error {
	m, err := zap.Parse(data)
	if err != nil {
		return zapParseError(err)
	}
	if err := zapRootFits(data, m.Size()); err != nil {
		return err
	}
	o := m.Root()
	hash := o.Bytes(zapRespHash)
	switch {
	case hash == nil:
		return missing("blockHash")
	case len(hash) != HashBytes:
		return fmt.Errorf("%w: blockHash has %d bytes, want %d", ErrBadLength, len(hash), HashBytes)
	}
	*r = Response{ID: o.Uint64(zapRespID), Balance: o.Uint64(zapRespBalance), Nonce: o.Uint64(zapRespNonce),
		BlockHash: unsafe.String(&hash[0], len(hash))}
	return nil
}
