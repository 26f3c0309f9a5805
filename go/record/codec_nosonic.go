//go:build nosonic

// codec_nosonic.go owns the sonic entry when built with -tags nosonic: sonic
// is not linked at all, and the entry says so.
package record

var sonicCodec = &Codec{Name: "sonic", Reason: "built with -tags nosonic"}
