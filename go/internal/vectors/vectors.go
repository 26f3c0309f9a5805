// Package vectors (internal) finds and reads the shared test vectors for the
// Go arm's tests: the JSON files as raw bytes, the .hex files decoded.
package vectors

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir is $ZAPBENCH_VECTORS, else the first shared/vectors found walking up
// from the working directory (which `go test` sets to the package
// directory): the repository checkout is a sibling of shared/
// (/work/main/go/record -> /work/shared/vectors), whichever module's
// package the test is in.
func Dir() (string, error) {
	if d := os.Getenv("ZAPBENCH_VECTORS"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if st, err := os.Stat(filepath.Join(d, "shared", "vectors")); err == nil && st.IsDir() {
			return filepath.Join(d, "shared", "vectors"), nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("vectors: no shared/vectors above " + wd + " and ZAPBENCH_VECTORS is unset")
		}
		d = parent
	}
}

// Raw reads a vector file's bytes unchanged (the .json vectors have no
// trailing newline, and their exact bytes are the point).
func Raw(name string) ([]byte, error) {
	d, err := Dir()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(d, name))
}

// Hex reads a .hex vector: hex digits, possibly split by whitespace or over
// lines. The README says one line of lowercase hex; lines starting with '#'
// or "//" are still skipped as comments so an annotated file reads the same.
func Hex(name string) ([]byte, error) {
	text, err := Raw(name)
	if err != nil {
		return nil, err
	}
	var digits strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		for _, f := range strings.Fields(line) {
			digits.WriteString(f)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out, err := hex.DecodeString(digits.String())
	if err != nil {
		return nil, fmt.Errorf("vectors: %s: %w", name, err)
	}
	return out, nil
}
