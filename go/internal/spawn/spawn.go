// Package spawn (internal) starts a server process for tests — zapbench-go or
// the C++ zapbench ($ZAPBENCH_EXE, CppExe) — with a ready pipe on fd 3, reads
// its "KIND HOST:PORT" lines, and guarantees the process is stopped when the
// test ends.
package spawn

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Deadline bounds every wait: generous, so only a hung process trips it.
const Deadline = 60 * time.Second

// Server is a running child process.
type Server struct {
	Cmd    *exec.Cmd
	HTTP   string            // "HOST:PORT" of the ready line "http HOST:PORT"
	Ready  map[string]string // every ready line: kind ("http", "zap", …) -> "HOST:PORT"
	output *lockedBuffer
	done   chan struct{}
	err    error // Wait's result, after done
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// CppExe is the C++ zapbench the cross-arm tests drive ($ZAPBENCH_EXE); the
// test is skipped, with how to run it, when it is unset.
func CppExe(t testing.TB) string {
	t.Helper()
	exe := os.Getenv("ZAPBENCH_EXE")
	if exe == "" {
		t.Skip("ZAPBENCH_EXE is unset: set it to the C++ zapbench binary to run the cross-arm tests")
	}
	return exe
}

// Output is what the process wrote to stdout and stderr so far.
func (s *Server) Output() string { return s.output.String() }

// Start runs exe with args plus "--ready-fd 3" (the pipe's write end is
// ExtraFiles[0], which is fd 3 in the child), waits for the ready lines until
// EOF, and registers a cleanup that stops the process (SIGTERM, then SIGKILL
// after Deadline) even when the test fails.
func Start(t testing.TB, exe string, args ...string) *Server {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := &lockedBuffer{}
	cmd := exec.Command(exe, append(args, "--ready-fd", "3")...)
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatal(err)
	}
	w.Close() // only the child holds the write end now: its close is our EOF
	s := &Server{Cmd: cmd, output: out, done: make(chan struct{})}
	go func() { s.err = cmd.Wait(); close(s.done) }()
	t.Cleanup(func() { s.stop(t) })

	r.SetReadDeadline(time.Now().Add(Deadline))
	lines, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: reading the ready pipe: %v\n%s", exe, err, s.Output())
	}
	s.Ready = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			s.Ready[f[0]] = f[1]
		}
	}
	s.HTTP = s.Ready["http"]
	if len(s.Ready) == 0 {
		t.Fatalf("%s: no 'KIND HOST:PORT' ready line in %q\n%s", exe, lines, s.Output())
	}
	return s
}

// Terminate sends SIGTERM and waits (up to Deadline) for the exit; it
// returns Wait's error (nil for exit 0).
func (s *Server) Terminate() error {
	select {
	case <-s.done:
		return s.err
	default:
	}
	if err := s.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-s.done:
		return s.err
	case <-time.After(Deadline):
		s.Cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("no exit within %v of SIGTERM (killed)", Deadline)
	}
}

func (s *Server) stop(t testing.TB) {
	select {
	case <-s.done:
		return
	default:
	}
	if err := s.Terminate(); err != nil {
		t.Errorf("stopping %s: %v\n%s", s.Cmd.Path, err, s.Output())
	}
}
