// modules.go owns the build's module versions, read from the binary's own
// build info (so the reported versions are the linked ones, not go.mod's).
package record

import "runtime/debug"

// Modules maps every dependency module path to its version (a replaced module
// reports its replacement's version). Empty when the binary has no build info.
func Modules() map[string]string {
	out := map[string]string{}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	for _, d := range info.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		out[d.Path] = v
	}
	return out
}

// ModuleVersion is one module's version, or "(version unknown)".
func ModuleVersion(path string) string {
	if v, ok := Modules()[path]; ok {
		return v
	}
	return "(version unknown)"
}
