// vectors_test.go owns conformance check (a): every shared vector read by
// zap-proto/go v1.3.0's own reader, with the outcome the vectors' README
// states (fields for the accepted, null or a Parse error for the rejected),
// and the RPC envelopes rebuilt byte for byte by its rpc package. A vector
// without an expectation here fails: a new vector must be given one.
package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	zap "github.com/zap-proto/go"
	"github.com/zap-proto/go/rpc"

	"zapbench/go/internal/vectors"
	"zapbench/go/record"
)

// check is one vector's expected outcome; it returns what differs.
type check func(data []byte) error

// root parses data and gives its root, or fails the check.
func root(data []byte) (*zap.Message, zap.Object, error) {
	m, err := zap.Parse(data)
	if err != nil {
		return nil, zap.Object{}, fmt.Errorf("Parse: %v, want a message", err)
	}
	return m, m.Root(), nil
}

// fields: Parse succeeds and every named read gives its value.
func fields(version uint16, reads map[string]func(o zap.Object) (got, want any)) check {
	return func(data []byte) error {
		m, o, err := root(data)
		if err != nil {
			return err
		}
		if m.Version() != version {
			return fmt.Errorf("version %d, want %d", m.Version(), version)
		}
		var errs []error
		for name, read := range reads {
			if got, want := read(o); fmt.Sprint(got) != fmt.Sprint(want) {
				errs = append(errs, fmt.Errorf("%s = %v, want %v", name, got, want))
			}
		}
		return errors.Join(errs...)
	}
}

func parseFails(want error) check {
	return func(data []byte) error {
		if _, err := zap.Parse(data); !errors.Is(err, want) {
			return fmt.Errorf("Parse: %v, want %v", err, want)
		}
		return nil
	}
}

func isNil(b []byte) bool { return b == nil }

func u32s(l zap.List) []uint32 {
	out := []uint32{}
	for i := 0; i < l.Len(); i++ {
		out = append(out, l.Uint32(i))
	}
	return out
}

// golden is golden_v1.hex's fields (u32 @0, text @8, bytes @16).
var golden = map[string]func(o zap.Object) (any, any){
	"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(0xdeadbeef) },
	"Text(8)":   func(o zap.Object) (any, any) { return o.Text(8), "zap" },
	"Bytes(16)": func(o zap.Object) (any, any) { return o.Bytes(16), []byte{1, 2, 3, 4} },
}

type reads = map[string]func(o zap.Object) (any, any)

// ethCheck decodes an eth vector with the Go record's ZAP codec (zap-proto/go
// underneath) and compares it with the sample in raw form.
func ethCheck(decode func(c *record.Codec, data []byte) (any, any, error)) check {
	return func(data []byte) error {
		c := record.Lookup("zap")
		got, want, err := decode(c, data)
		if err != nil || got != want {
			return fmt.Errorf("decodes to %+v, %v; want %+v", got, err, want)
		}
		return nil
	}
}

func rpcRequest(want rpc.Call) check {
	return func(data []byte) error {
		got, err := rpc.ParseRequest(data)
		if err != nil || got.Method != want.Method || got.PromiseID != want.PromiseID || got.Target != want.Target ||
			!bytes.Equal(got.Cap, want.Cap) || !bytes.Equal(got.Payload, want.Payload) {
			return fmt.Errorf("ParseRequest = %+v, %v; want %+v", got, err, want)
		}
		if b := rpc.BuildRequest(want); !bytes.Equal(b, data) {
			return fmt.Errorf("BuildRequest gives %x", b)
		}
		return nil
	}
}

func rpcResponse(want rpc.Response) check {
	return func(data []byte) error {
		got, err := rpc.ParseResponse(data)
		if err != nil || got.Status != want.Status || got.PromiseID != want.PromiseID || !bytes.Equal(got.Body, want.Body) {
			return fmt.Errorf("ParseResponse = %+v, %v; want %+v", got, err, want)
		}
		if b := rpc.BuildResponse(want.Status, want.PromiseID, want.Body); !bytes.Equal(b, data) {
			return fmt.Errorf("BuildResponse gives %x", b)
		}
		return nil
	}
}

var expectations = map[string]check{
	// §1 and §7: golden and its mutations.
	"golden_v1.hex":                     fields(1, golden),
	"golden_v2.hex":                     fields(2, golden),
	"accept_trailing_bytes_ignored.hex": fields(1, golden), // and TestZapProtoGoTrailingBytes
	"accept_size_truncates_bytes_field.hex": fields(1, reads{
		"Text(8)":         func(o zap.Object) (any, any) { return o.Text(8), "zap" },
		"Bytes(16) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(16)), true },
	}),
	"reject_bytes_highbit_reloffset.hex": fields(1, reads{
		"Text(8)":         func(o zap.Object) (any, any) { return o.Text(8), "zap" },
		"Bytes(16) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(16)), true },
	}),
	"reject_bytes_length_overrun.hex": fields(1, reads{
		"Bytes(16) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(16)), true },
	}),
	"null_text_rel0_len3.hex": fields(1, reads{
		"Text(8)":        func(o zap.Object) (any, any) { return o.Text(8), "" },
		"Bytes(8) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(8)), true },
	}),
	"reject_bytes_backward_into_header.hex": fields(1, reads{
		"Bytes(0) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(0)), true },
	}),
	"reject_parse_bad_magic.hex":             parseFails(zap.ErrInvalidMagic),
	"reject_parse_version3.hex":              parseFails(zap.ErrInvalidVersion),
	"reject_parse_size_below_header.hex":     parseFails(zap.ErrBufferTooSmall),
	"reject_parse_size_exceeds_input.hex":    parseFails(zap.ErrBufferTooSmall),
	"reject_parse_short_15.hex":              parseFails(zap.ErrBufferTooSmall),
	"reject_list_length_ffffffff.hex":        fields(1, reads{"List(0) null?": func(o zap.Object) (any, any) { return o.List(0).IsNull() || o.List(0).Len() == 0, true }}),
	"reject_list_backward_into_header.hex":   fields(1, reads{"List(0) null?": func(o zap.Object) (any, any) { return o.List(0).IsNull(), true }}),
	"reject_object_backward_into_header.hex": fields(1, reads{"Object(0) null?": func(o zap.Object) (any, any) { return o.Object(0).IsNull(), true }}),
	"reject_object_at_size.hex":              fields(1, reads{"Object(0) null?": func(o zap.Object) (any, any) { return o.Object(0).IsNull(), true }}),
	"accept_list_length_equals_size.hex": fields(1, reads{
		"List(0) null?": func(o zap.Object) (any, any) { return o.List(0).IsNull(), false },
		"List(0).Len":   func(o zap.Object) (any, any) { return o.List(0).Len(), 32 },
		"List(0)[0]":    func(o zap.Object) (any, any) { return o.List(0).Uint32(0), uint32(42) },
	}),
	"go_list_u32_one.hex": fields(1, reads{"List(0)": func(o zap.Object) (any, any) { return u32s(o.List(0)), []uint32{42} }}),
	"go_nested_backward_ok.hex": fields(1, reads{
		"Object(0).Uint32(0)": func(o zap.Object) (any, any) { return o.Object(0).Uint32(0), uint32(0xcafebabe) },
	}),

	// §2: zap-proto/cpp's pinned buffers (v2 headers).
	"cpp_scalars.hex": fields(2, reads{
		"Uint8(0)":  func(o zap.Object) (any, any) { return o.Uint8(0), uint8(0x2a) },
		"Uint16(2)": func(o zap.Object) (any, any) { return o.Uint16(2), uint16(0xbeef) },
		"Uint32(4)": func(o zap.Object) (any, any) { return o.Uint32(4), uint32(0xdeadbeef) },
		"Uint64(8)": func(o zap.Object) (any, any) { return o.Uint64(8), uint64(0x0102030405060708) },
		"Bool(16)":  func(o zap.Object) (any, any) { return o.Bool(16), true },
	}),
	"cpp_one_tail.hex": fields(2, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(7) },
		"Bytes(8)":  func(o zap.Object) (any, any) { return string(o.Bytes(8)), "hello zap" },
	}),
	"cpp_two_tails.hex": fields(2, reads{
		"Bytes(0)":   func(o zap.Object) (any, any) { return string(o.Bytes(0)), "first" },
		"Bytes(8)":   func(o zap.Object) (any, any) { return string(o.Bytes(8)), "second" },
		"Uint64(16)": func(o zap.Object) (any, any) { return o.Uint64(16), uint64(99) },
	}),
	"cpp_tail_then_list.hex": fields(2, reads{
		"Bytes(0)":   func(o zap.Object) (any, any) { return string(o.Bytes(0)), "tail" },
		"List(8)":    func(o zap.Object) (any, any) { return u32s(o.List(8)), []uint32{1, 2, 3} },
		"Uint64(16)": func(o zap.Object) (any, any) { return o.Uint64(16), uint64(5) },
	}),
	"cpp_nested.hex": fields(2, reads{
		"Uint32(0)":           func(o zap.Object) (any, any) { return o.Uint32(0), uint32(1) },
		"Object(4).Uint64(0)": func(o zap.Object) (any, any) { return o.Object(4).Uint64(0), uint64(0xcafebabe) },
	}),
	"cpp_text_empty_list.hex": fields(2, reads{
		"Text(0)":        func(o zap.Object) (any, any) { return o.Text(0), "zap" },
		"Bytes(8) null?": func(o zap.Object) (any, any) { return isNil(o.Bytes(8)), true },
		"List(16)":       func(o zap.Object) (any, any) { return string(o.List(16).Bytes()), "\x09\x08\x07" },
	}),
	"cpp_write_bytes.hex": fields(2, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(16) },
	}),

	// §3: the Go capability runtime's output, read structurally.
	"cap_zero_caveat_wire.hex": fields(1, reads{
		"kind":          func(o zap.Object) (any, any) { return o.Uint32(0), uint32(1) },
		"issuedAt":      func(o zap.Object) (any, any) { return o.Uint64(140), uint64(1700000000) },
		"expiresAt":     func(o zap.Object) (any, any) { return o.Uint64(148), uint64(2000000000) },
		"caveats null?": func(o zap.Object) (any, any) { return o.List(156).IsNull(), true },
		"sig (inline)":  func(o zap.Object) (any, any) { return len(o.BytesFixed(164, 3408)), 3408 },
	}),
	"cap_two_caveat_wire.hex": fields(1, reads{
		"kind":        func(o zap.Object) (any, any) { return o.Uint32(0), uint32(0x11) },
		"caveats len": func(o zap.Object) (any, any) { return o.List(156).Len(), 2 },
		"caveat 0": func(o zap.Object) (any, any) {
			c := o.List(156).ObjectAt(0)
			return fmt.Sprint(c.Uint32(0), " ", c.Bytes(4)), fmt.Sprint(uint32(1), " ", []byte{0x40, 0x42, 0x0f, 0, 0, 0, 0, 0})
		},
		"caveat 1": func(o zap.Object) (any, any) {
			c := o.List(156).ObjectAt(1)
			return fmt.Sprint(c.Uint32(0), " ", string(c.Bytes(4))), "4 10.0.0.0/8"
		},
	}),

	// §4: the benchmark record.
	"eth_req.hex": ethCheck(func(c *record.Codec, data []byte) (any, any, error) {
		var q record.Request
		err := c.DecodeRequest(data, &q)
		return q, record.SampleRequestFor(c), err
	}),
	"eth_resp.hex": ethCheck(func(c *record.Codec, data []byte) (any, any, error) {
		var r record.Response
		err := c.DecodeResponse(data, &r)
		return r, record.SampleResponseFor(c), err
	}),
	"eth_resp_server_fold.hex": ethCheck(func(c *record.Codec, data []byte) (any, any, error) {
		var r record.Response
		err := c.DecodeResponse(data, &r)
		q := record.SampleRequestFor(c)
		return r, record.Compute(&q), err
	}),

	// §5: zap-proto/go's unit-test shapes.
	"go_TestBuilder.hex": fields(1, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(42) },
		"Uint64(8)": func(o zap.Object) (any, any) { return o.Uint64(8), uint64(0xdeadbeef) },
		"Bool(16)":  func(o zap.Object) (any, any) { return o.Bool(16), true },
	}),
	"go_TestPrimitives.hex": fields(1, reads{
		"Int8(0)":     func(o zap.Object) (any, any) { return o.Int8(0), int8(-42) },
		"Int16(2)":    func(o zap.Object) (any, any) { return o.Int16(2), int16(-1000) },
		"Int32(4)":    func(o zap.Object) (any, any) { return o.Int32(4), int32(-100000) },
		"Int64(8)":    func(o zap.Object) (any, any) { return o.Int64(8), int64(-1000000000) },
		"Uint8(16)":   func(o zap.Object) (any, any) { return o.Uint8(16), uint8(255) },
		"Uint16(18)":  func(o zap.Object) (any, any) { return o.Uint16(18), uint16(65535) },
		"Uint32(20)":  func(o zap.Object) (any, any) { return o.Uint32(20), uint32(0xffffffff) },
		"Uint64(24)":  func(o zap.Object) (any, any) { return o.Uint64(24), ^uint64(0) },
		"Float32(32)": func(o zap.Object) (any, any) { return o.Float32(32), float32(3.14) },
		"Float64(40)": func(o zap.Object) (any, any) { return o.Float64(40), 2.718281828 },
	}),
	"go_TestList.hex": fields(1, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(999) },
		"List(4)":   func(o zap.Object) (any, any) { return u32s(o.List(4)), []uint32{100, 200, 300} },
	}),
	"go_TestByteList.hex": fields(1, reads{
		"List(0)": func(o zap.Object) (any, any) { return string(o.List(0).Bytes()), "hello" },
	}),
	"go_TestNestedObject.hex": fields(1, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(333) },
		"Object(4)": func(o zap.Object) (any, any) {
			return fmt.Sprint(o.Object(4).Uint32(0), o.Object(4).Uint32(4)), "111 222"
		},
	}),
	"go_TestTextRoundTrip.hex": fields(1, reads{
		"Uint32(0)": func(o zap.Object) (any, any) { return o.Uint32(0), uint32(42) },
		"Text(4)":   func(o zap.Object) (any, any) { return o.Text(4), "Alice" },
		"Int32(12)": func(o zap.Object) (any, any) { return o.Int32(12), int32(30) },
	}),
	"go_TestMultipleTextFields.hex": fields(1, reads{
		"Text(0,8,16)": func(o zap.Object) (any, any) { return o.Text(0) + "|" + o.Text(8) + "|" + o.Text(16), "hello|world|!" },
	}),
	"go_TestNestedObjectWithText.hex": fields(1, reads{
		"Text(0)":             func(o zap.Object) (any, any) { return o.Text(0), "outer-text" },
		"Object(8).Text(0)":   func(o zap.Object) (any, any) { return o.Object(8).Text(0), "inner-text" },
		"Object(8).Uint32(8)": func(o zap.Object) (any, any) { return o.Object(8).Uint32(8), uint32(999) },
	}),
	"go_varlist_bytes.hex": fields(1, reads{
		"List(0)": func(o zap.Object) (any, any) {
			var got []string
			o.List(0).EachBytes(func(_ int, b []byte) bool { got = append(got, string(b)); return true })
			return strings.Join(got, ","), "self-hosted,macos,,arm64,a"
		},
	}),
	"go_varlist_objects.hex": fields(1, reads{
		"List(0)": func(o zap.Object) (any, any) {
			l := o.List(0)
			return fmt.Sprint(l.Len(), l.ObjectAt(0).Uint32(0), l.ObjectAt(1).Uint32(0), l.ObjectAt(2).Uint32(0)), "3 10 20 30"
		},
	}),

	// §6: the RPC envelopes, read and rebuilt by zap-proto/go's rpc package.
	"rpc_request_roundtrip.hex":  rpcRequest(rpc.Call{Method: 3, PromiseID: 42, Cap: []byte("capability-bytes"), Payload: []byte{1, 2, 3, 4, 5}}),
	"rpc_response_roundtrip.hex": rpcResponse(rpc.Response{Status: 200, PromiseID: 42, Body: []byte("result-body-bytes")}),
	"rpc_request_wireshape.hex":  rpcRequest(rpc.Call{Method: 7, PromiseID: 9}),
	"rpc_response_forbidden.hex": rpcResponse(rpc.Response{Status: 403, PromiseID: 9}),
	"rpc_request_pipelined.hex":  rpcRequest(rpc.Call{Method: 2, PromiseID: 2, Target: 1}),
}

// TestZapProtoGoVectors is check (a).
func TestZapProtoGoVectors(t *testing.T) {
	dir, err := vectors.Dir()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.hex"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .hex vectors in %s (%v): set ZAPBENCH_VECTORS", dir, err)
	}
	sort.Strings(files)
	seen := map[string]bool{}
	for _, path := range files {
		name := filepath.Base(path)
		seen[name] = true
		t.Run(strings.TrimSuffix(name, ".hex"), func(t *testing.T) {
			ck, ok := expectations[name]
			if !ok {
				t.Fatalf("%s has no expectation in vectors_test.go: give it the README's outcome", name)
			}
			if err := ck(vectors.MustHex(t, name)); err != nil {
				t.Errorf("zap-proto/go: %v", err)
			}
		})
	}
	for name := range expectations {
		if !seen[name] {
			t.Errorf("%s is expected but not in %s", name, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("the vectors' README: %v", err)
	}
}

// The trailing bytes are invisible: Size() is the header's 47.
func TestZapProtoGoTrailingBytes(t *testing.T) {
	data := vectors.MustHex(t, "accept_trailing_bytes_ignored.hex")
	m, err := zap.Parse(data)
	if err != nil || m.Size() != 47 || len(data) != 50 {
		t.Errorf("Parse: %v, Size %d of %d bytes, want 47 of 50", err, m.Size(), len(data))
	}
}
