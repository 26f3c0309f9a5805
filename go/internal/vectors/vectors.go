// Package vectors (internal) finds and reads the test vectors for the Go
// arm's tests: the shared ones (../shared/vectors: the JSON files as raw
// bytes, the .hex files decoded) and this repository's own
// (docs/spec/vectors: the logs record's), with t.Fatal forms for tests.
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
	"testing"
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
	return above(filepath.Join("shared", "vectors"), "ZAPBENCH_VECTORS is unset")
}

// RepoDir is this repository's own vectors, docs/spec/vectors, the first
// found walking up from the working directory.
func RepoDir() (string, error) { return above(filepath.Join("docs", "spec", "vectors"), "") }

// above finds rel in the working directory or the nearest folder above it.
func above(rel, also string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if st, err := os.Stat(filepath.Join(d, rel)); err == nil && st.IsDir() {
			return filepath.Join(d, rel), nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			msg := "vectors: no " + rel + " above " + wd
			if also != "" {
				msg += " and " + also
			}
			return "", errors.New(msg)
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
	return decode(name, text)
}

// Repo reads one of this repository's .hex vectors, decoded as Hex does.
func Repo(name string) ([]byte, error) {
	d, err := RepoDir()
	if err != nil {
		return nil, err
	}
	text, err := os.ReadFile(filepath.Join(d, name))
	if err != nil {
		return nil, err
	}
	return decode(name, text)
}

// decode is a .hex file's text as bytes.
func decode(name string, text []byte) ([]byte, error) {
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

// MustHex is Hex for a test: a vector that cannot be read fails it.
func MustHex(t testing.TB, name string) []byte {
	t.Helper()
	b, err := Hex(name)
	if err != nil {
		t.Fatalf("vector %s: %v (set ZAPBENCH_VECTORS to the shared/vectors folder)", name, err)
	}
	return b
}

// MustRepo is Repo for a test.
func MustRepo(t testing.TB, name string) []byte {
	t.Helper()
	b, err := Repo(name)
	if err != nil {
		t.Fatalf("vector %s: %v", name, err)
	}
	return b
}
