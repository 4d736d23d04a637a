// Package pgtest starts a throwaway PostgreSQL server for tests and
// benchmarks: Debian's postgresql package (scripts/install-postgres.sh
// installs it; make test runs that first), initdb in a temp dir, the server
// listening on 127.0.0.1 at a free port and on a unix socket in that dir.
// When the process runs as root the cluster belongs to, and the server runs
// as, the unprivileged user nobody (PostgreSQL refuses to run as root).
//
// One cluster per test process: Shared starts it on first use, Main stops
// it after the tests; each test takes a fresh database with NewDatabase.
// Nothing is mocked: the store under test talks to a real server.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running (or stopped) throwaway PostgreSQL server.
type Cluster struct {
	Dir  string // data directory and socket directory
	Port int
	bin  string
	cred *syscall.Credential // nil: run as ourselves

	mu   sync.Mutex
	cmd  *exec.Cmd
	exit chan struct{}
	n    atomic.Int64 // databases created
	// Fsync is the fsync setting (off for tests, on for benchmarks).
	fsync bool
}

// BinDir finds the server's binaries: $WASMEXEC_PG_BINDIR, else the newest
// /usr/lib/postgresql/N/bin holding initdb.
func BinDir() (string, error) {
	if d := os.Getenv("WASMEXEC_PG_BINDIR"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err != nil {
			return "", fmt.Errorf("WASMEXEC_PG_BINDIR=%s has no initdb: %w", d, err)
		}
		return d, nil
	}
	ms, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(ms) == 0 {
		return "", errors.New("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/install-postgres.sh as root (make test does), or apt-get install postgresql")
	}
	sort.Slice(ms, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(ms[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(ms[j]))))
		return vi < vj
	})
	return filepath.Dir(ms[len(ms)-1]), nil
}

// Start creates a cluster in a new temp dir and starts its server. fsync
// off suits tests (a kill of the server process still loses nothing
// committed; only a crash of the machine would), on suits benchmarks.
func Start(fsync bool) (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tempBase(), "wasmexec-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin, fsync: fsync}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and there is no user nobody to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	init := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	init.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	init.Dir = dir
	if out, err := init.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		hint := ""
		if c.cred != nil {
			hint = fmt.Sprintf(" (it runs as the user nobody: every directory above %s must be searchable by it; set TMPDIR to one that is, e.g. /tmp)", dir)
		}
		return nil, fmt.Errorf("initdb%s: %w\n%s", hint, err, out)
	}
	if c.Port, err = freePort(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.StartServer(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// tempBase is os.TempDir(), or /tmp when running as root and some
// directory on the way to os.TempDir() is not searchable by others (the
// server runs as nobody and must reach its data directory).
func tempBase() string {
	base := os.TempDir()
	if os.Geteuid() != 0 {
		return base
	}
	for d := base; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return base
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// StartServer starts the server of a stopped cluster (Start starts it the
// first time) and waits until it accepts connections. The server is a
// child of this process and gets SIGQUIT (immediate shutdown) if this
// process dies, so no server outlives a killed test.
func (c *Cluster) StartServer() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		return errors.New("pgtest: server already running")
	}
	fsync := "off"
	if c.fsync {
		fsync = "on"
	}
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), "-D", filepath.Join(c.Dir, "data"),
		"-p", strconv.Itoa(c.Port), "-k", c.Dir, "-c", "listen_addresses=127.0.0.1",
		"-c", "fsync="+fsync, "-c", "full_page_writes="+fsync, "-c", "max_connections=200",
		"-c", "shared_buffers=32MB", "-c", "log_min_messages=fatal", "-c", "logging_collector=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	logf, err := os.OpenFile(filepath.Join(c.Dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start postgres: %w", err)
	}
	logf.Close()
	exit := make(chan struct{})
	go func() { cmd.Wait(); close(exit) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			break
		}
		select {
		case <-exit:
			log, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
			return fmt.Errorf("postgres exited at start:\n%s", tail(log))
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exit
			return fmt.Errorf("postgres did not accept connections within 60s: %w", err)
		}
		time.Sleep(20 * time.Millisecond) // polls the server, another process
	}
	c.cmd, c.exit = cmd, exit
	return nil
}

// StopServer stops the server (fast shutdown: open sessions are ended) and
// waits for it; the cluster's data stay for StartServer.
func (c *Cluster) StopServer() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exit:
	case <-time.After(60 * time.Second):
		c.cmd.Process.Signal(syscall.SIGQUIT)
		<-c.exit
	}
	c.cmd = nil
	return nil
}

// Close stops the server and removes the cluster.
func (c *Cluster) Close() {
	c.StopServer()
	os.RemoveAll(c.Dir)
}

// URL is the TCP URL of database db (user postgres, trust authentication).
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// CreateDatabase creates a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.n.Add(1))
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	// FILE_COPY: for a small template, faster than the default WAL_LOG.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" STRATEGY FILE_COPY"); err != nil {
		return "", err
	}
	return c.URL(name), nil
}

// DropDatabase drops the database of url, ending its sessions.
func (c *Cluster) DropDatabase(ctx context.Context, url string) error {
	name := url[strings.LastIndex(url, "/")+1:]
	name, _, _ = strings.Cut(name, "?")
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return err
}

func tail(b []byte) string {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

var (
	sharedOnce sync.Once
	shared     *Cluster
	sharedErr  error
)

// Shared returns the process's cluster, starting it on first use. Where
// PostgreSQL is not installed (and scripts/install-postgres.sh could not
// install it: no root, no apt) the test is skipped, saying so; a cluster
// that is installed but fails to start fails the test.
func Shared(tb testing.TB) *Cluster {
	tb.Helper()
	if _, err := BinDir(); err != nil {
		tb.Skipf("skipping the PostgreSQL backend: %v", err)
	}
	sharedOnce.Do(func() { shared, sharedErr = Start(false) })
	if sharedErr != nil {
		tb.Fatalf("PostgreSQL test cluster: %v", sharedErr)
	}
	return shared
}

// NewDatabase returns the URL of a fresh database on the shared cluster,
// dropped when the test ends (after the cleanups registered later, such as
// closing a store opened on it).
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	c := Shared(tb)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := c.CreateDatabase(ctx)
	if err != nil {
		tb.Fatalf("create a test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.DropDatabase(ctx, url); err != nil {
			tb.Logf("drop test database: %v", err)
		}
	})
	return url
}

// Own starts a cluster of the test's own (one it may stop and start
// again: StopServer, StartServer), closed when the test ends, and returns
// it with the URL of a database on it. It skips where PostgreSQL cannot
// run, as Shared does.
func Own(tb testing.TB) (*Cluster, string) {
	tb.Helper()
	Shared(tb) // skips, saying why, where PostgreSQL cannot run
	c, err := Start(false)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := c.CreateDatabase(ctx)
	if err != nil {
		tb.Fatalf("create a test database: %v", err)
	}
	return c, url
}

// Main runs the tests and then stops the shared cluster, if one started.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	return code
}
