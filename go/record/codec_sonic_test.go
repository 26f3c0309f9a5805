//go:build !nosonic

// codec_sonic_test.go owns the check that the sonic entry is honest: listed
// available exactly when sonic compiled its native (JIT + assembly) backend,
// never when its encoding/json fallback is in.
package record

import (
	"testing"

	"github.com/bytedance/sonic"
)

func TestSonicIsNativeOrUnavailable(t *testing.T) {
	c := Lookup("sonic")
	native := sonic.APIKind == sonic.UseSonicJSON
	if c.Available != native {
		t.Fatalf("sonic Available=%v but native backend=%v (reason %q)", c.Available, native, c.Reason)
	}
	t.Logf("sonic native backend: %v %s", native, c.Reason)
}
