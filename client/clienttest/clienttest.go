// Package clienttest starts the real wasmexec binary for the tests of the
// clients (the Go client, the Python and TypeScript SDKs, the examples):
// built once per test binary from this module, served on a free loopback
// port with a temporary data directory, stopped by Close.
//
// The guest images come from WASMEXEC_IMAGES_DIR (make test sets it) or
// the repository's build/images; the compiled-module cache from
// WASMEXEC_CACHE_DIR or the user's cache. Images that are not built skip
// the caller (Skip returns the reason), unless WASMEXEC_REQUIRE_IMAGES=1,
// where they are an error: CI must never pass by skipping.
package clienttest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// RepoRoot is the root of the repository this package was built from.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// ImagesDir is where the guest images are.
func ImagesDir() string {
	if d := os.Getenv("WASMEXEC_IMAGES_DIR"); d != "" {
		return d
	}
	return filepath.Join(RepoRoot(), "build", "images")
}

// ErrSkip wraps the reason a server could not start that is not a failure
// (images not built, outside make test).
var ErrSkip = errors.New("skip")

// markers are the files that say an image is built.
var markers = map[string]string{"js": "guest.json", "python": "guest.json", "typescript": "VERSION"}

// Images checks that the named guest images (js, python, typescript) are
// built: nil, an error wrapping ErrSkip, or (with
// WASMEXEC_REQUIRE_IMAGES=1) a plain error.
func Images(names ...string) error {
	for _, n := range names {
		dir := filepath.Join(ImagesDir(), n)
		if _, err := os.Stat(filepath.Join(dir, markers[n])); err != nil {
			msg := "guest image " + n + " is not built (run make guest-images): " + dir
			if os.Getenv("WASMEXEC_REQUIRE_IMAGES") == "1" {
				return errors.New(msg)
			}
			return fmt.Errorf("%w: %s", ErrSkip, msg)
		}
	}
	return nil
}

var (
	buildMu sync.Mutex
	binary  string // "" until built
	running int    // servers started and not yet closed
)

// acquire counts a server starting and returns the binary to run,
// building cmd/wasmexec into a temporary directory when no server runs
// yet (the last Close removes it).
func acquire() (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if binary != "" {
		running++
		return binary, nil
	}
	dir, err := os.MkdirTemp("", "wasmexec-clienttest-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "wasmexec")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wasmexec")
	cmd.Dir = RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("go build ./cmd/wasmexec: %v\n%s", err, out)
	}
	binary = bin
	running++
	return binary, nil
}

// release counts a server stopped; the last one removes the binary.
func release() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if running--; running == 0 && binary != "" {
		os.RemoveAll(filepath.Dir(binary))
		binary = ""
	}
}

// Server is a running wasmexec server.
type Server struct {
	// URL is its base URL, http://127.0.0.1:PORT.
	URL string
	// DataDir is its data directory (removed by Close).
	DataDir string

	cmd  *exec.Cmd
	keys string // the keys file of StartWithKey
	mu   sync.Mutex
	logs strings.Builder
	done chan struct{}
}

// Start starts `wasmexec serve` with the images it needs (js, python,
// typescript) and args, and waits until it is ready (three minutes at
// most: a cold module cache compiles the guests first).
//
// With WASMEXEC_TEST_SERVER set (a base URL), Start starts nothing and
// returns that server: the suites then test a server you run yourself
// (another build, a deployment).
func Start(args ...string) (*Server, error) {
	if u := os.Getenv("WASMEXEC_TEST_SERVER"); u != "" {
		return &Server{URL: strings.TrimRight(u, "/")}, nil
	}
	if err := Images("js", "python", "typescript"); err != nil {
		return nil, err
	}
	bin, err := acquire()
	if err != nil {
		return nil, err
	}
	data, err := os.MkdirTemp("", "wasmexec-clienttest-data-")
	if err != nil {
		release()
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		release()
		os.RemoveAll(data)
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	base := []string{"serve", "--addr", addr, "--data-dir", data, "--images-dir", ImagesDir(),
		"--pool-size", "1", "--tscheck-warm-dom=false"}
	if d := os.Getenv("WASMEXEC_CACHE_DIR"); d != "" {
		base = append(base, "--cache-dir", d)
	}
	cmd := exec.Command(bin, append(base, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		release()
		os.RemoveAll(data)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		release()
		os.RemoveAll(data)
		return nil, err
	}
	s := &Server{URL: "http://" + addr, DataDir: data, cmd: cmd, done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			if s.logs.Len() < 1<<20 {
				s.logs.WriteString(line + "\n")
			}
			s.mu.Unlock()
			if strings.Contains(line, "wasmexec ready") {
				once.Do(func() { close(ready) })
			}
		}
	}()
	select {
	case <-ready:
		return s, nil
	case <-s.done:
		s.Close()
		return nil, fmt.Errorf("wasmexec serve exited before it was ready:\n%s", s.Logs())
	case <-time.After(3 * time.Minute):
		s.Close()
		return nil, fmt.Errorf("wasmexec serve not ready after 3 minutes:\n%s", s.Logs())
	}
}

// TestKey is the API key of the servers StartWithKey starts.
const TestKey = "clienttest-key-0123456789"

// StartWithKey starts a server that requires TestKey (tenant "test"), as
// Start does.
func StartWithKey(args ...string) (*Server, error) {
	if os.Getenv("WASMEXEC_TEST_SERVER") != "" {
		return nil, fmt.Errorf("%w: WASMEXEC_TEST_SERVER is set: no server with keys of ours", ErrSkip)
	}
	f, err := os.CreateTemp("", "wasmexec-clienttest-keys-*.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, `{"tenants": {"test": {}}, "keys": [{"tenant": "test", "key": %q}]}`, TestKey); err != nil {
		return nil, err
	}
	s, err := Start(append([]string{"--auth-keys-file", f.Name()}, args...)...)
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	s.keys = f.Name()
	return s, nil
}

// Logs returns what the server logged (its first MiB).
func (s *Server) Logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// Close stops the server (SIGTERM, then SIGKILL after 10 s) and removes
// its data directory.
func (s *Server) Close() {
	if s.cmd == nil {
		return // not ours (WASMEXEC_TEST_SERVER)
	}
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan struct{})
		go func() { s.cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}
	os.RemoveAll(s.DataDir)
	if s.keys != "" {
		os.Remove(s.keys)
	}
	release()
}
