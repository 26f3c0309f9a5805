// Package httpcheck owns the HTTP client side of the Go tests: a net/http
// client whose idle connections close when the test ends, and one request
// read to its end. Every wait is bounded by Deadline, which only a hung
// server reaches.
package httpcheck

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"
)

// Deadline bounds a request: generous, so only a hung server trips it.
const Deadline = 60 * time.Second

// Client is a fresh client (its own transport) for one test.
func Client(t testing.TB) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: Deadline}
}

// Do sends one request (Content-Type ctype unless empty) and returns the
// response with its whole body; any transport error fails the test.
func Do(t testing.TB, c *http.Client, method, url, ctype string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}
