//go:build !nosonic

// codec_sonic.go owns the sonic entry of the codec table: bytedance/sonic's
// default config (sonic.Marshal/Unmarshal, its fastest general path), listed
// as available only when sonic really runs its JIT/native backend.
package record

import (
	"fmt"
	"runtime"

	"github.com/bytedance/sonic"
)

var sonicCodec = newSonicCodec()

func newSonicCodec() *Codec {
	// sonic picks its implementation with build constraints: where it has no
	// native backend (other GOARCH, a Go release past its support window) the
	// same API silently runs encoding/json (its compat.go). APIKind tells
	// which one was compiled in; a fallback must never be reported as sonic.
	if sonic.APIKind != sonic.UseSonicJSON {
		return &Codec{Name: "sonic", Reason: fmt.Sprintf(
			"bytedance/sonic %s has no native backend for %s/%s: it would fall back to encoding/json",
			ModuleVersion("github.com/bytedance/sonic"), runtime.Version(), runtime.GOARCH)}
	}
	return jsonCodec("sonic", sonic.Marshal, sonic.Unmarshal)
}
