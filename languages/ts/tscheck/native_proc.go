package tscheck

import (
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// How TypeScript 7 workers are contained. The compiler is a native Go
// executable that cannot apply limits to itself as our own workers do
// (workerpool.ApplyLimits), so the pool applies them from outside:
//
//   - memory: RLIMIT_DATA, set by the launcher (LaunchMain) before it
//     becomes the compiler, GOMEMLIMIT at 70 %
//     so its GC works hard first, and a watchdog that kills it past 90 %
//     of the cap while a check runs;
//   - CPU: a check's deadline kills the process (API mode has no cancel);
//   - priority: every worker is forked from an OS thread of ours running
//     at nice WarmNice, so it inherits that priority for its warm-up, and is
//     raised back to 0 once warm (when we may: root, or CAP_SYS_NICE);
//   - privileges: where the server runs as root, as the user nobody (the
//     launcher drops to it), from a
//     copy of the compiler's directory that nobody can read and no one but
//     root can write;
//   - environment: none of the server's (it may hold keys and URLs with
//     passwords); the working directory is /.

// spawner forks processes from one OS thread held at a lower priority for
// the pool's life: a child inherits the nice value of the thread that forked
// it. The thread must live as long as its children, since they have
// Pdeathsig, which fires when the forking thread exits.
type spawner struct {
	reqs chan func()
	done chan struct{}
}

func newSpawner(nice int) (*spawner, error) {
	s := &spawner{reqs: make(chan func()), done: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		// The thread is never unlocked: when this goroutine returns, it
		// exits with it, and its nice value goes away with it.
		runtime.LockOSThread()
		if nice != 0 {
			if err := unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), nice); err != nil {
				errc <- fmt.Errorf("setpriority %d: %w", nice, err)
				return
			}
		}
		errc <- nil
		for {
			select {
			case f := <-s.reqs:
				f()
			case <-s.done:
				return
			}
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return s, nil
}

// start runs cmd.Start on the spawner's thread.
func (s *spawner) start(cmd *osexec.Cmd) error {
	errc := make(chan error, 1)
	select {
	case s.reqs <- func() { errc <- cmd.Start() }:
	case <-s.done:
		return errors.New("spawner stopped")
	}
	return <-errc
}

func (s *spawner) stop() { close(s.done) }

// procRSS is a process's resident memory in bytes (0 if unknown).
func procRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// procCPU is a process's CPU time so far (user + system), in clock ticks
// converted to milliseconds; 0 if unknown.
func procCPUMs(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	// Fields after the command name, which may hold spaces: "pid (comm) state ...".
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) * 1000 / 100 // USER_HZ is 100 on Linux
}

// unprivileged is the credential workers run as: nobody where we are root,
// none (ourselves) otherwise.
func unprivileged() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no user nobody to run the TypeScript checker as: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("user nobody: bad uid %q or gid %q", u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// copyForUnprivileged copies the compiler's directory (the executable and
// its lib files) to a new directory under os.TempDir() that everyone may
// read and only we may write, for workers that run as another user and may
// not reach the image (e.g. under /root). The caller removes it.
func copyForUnprivileged(src string) (string, error) {
	dst, err := os.MkdirTemp("", "wasmexec-tsc7-")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		os.RemoveAll(dst)
		return "", err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return fail(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		mode := os.FileMode(0o644)
		if e.Name() == "tsc" {
			mode = 0o755
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), mode); err != nil {
			return fail(err)
		}
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		return fail(err)
	}
	return dst, nil
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}

// tailBuffer keeps the first and last few KB written to it: a Go fatal error
// states its cause first, goroutine traces follow.
type tailBuffer struct {
	mu         sync.Mutex
	head, tail []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := 4<<10 - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.tail = append(t.tail, b...)
	if len(t.tail) > 8<<10 {
		t.tail = append(t.tail[:0:0], t.tail[len(t.tail)-8<<10:]...)
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.tail)
}

// Summary is the first few lines.
func (t *tailBuffer) Summary() string {
	lines := strings.Split(strings.TrimSpace(t.String()), "\n")
	if len(lines) > 4 {
		lines = lines[:4]
	}
	return strings.Join(lines, " | ")
}

// The launcher: `wasmexec tscheck7-launch TSC ARGS...` (NativeConfig.
// LaunchCommand) applies the limits to itself and then becomes the
// compiler (execve keeps them). It runs as the server's user, so it may set
// its own RLIMIT_DATA — prlimit(2) on a process of another user would need
// CAP_SYS_RESOURCE, which containers often lack — and drop to the worker's
// user itself.
const (
	envLaunchDataLimit = "WASMEXEC_TSC7_DATA_LIMIT" // bytes; absent: none
	envLaunchCred      = "WASMEXEC_TSC7_CREDENTIAL" // "uid:gid"; absent: keep ours
)

// LaunchMain is the launcher's body: args are the compiler's path and
// arguments. It returns only on failure.
func LaunchMain(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: tscheck7-launch TSC [ARGS...]")
	}
	ppid := os.Getppid()
	if s := os.Getenv(envLaunchDataLimit); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("bad %s=%q", envLaunchDataLimit, s)
		}
		rl := unix.Rlimit{Cur: uint64(n), Max: uint64(n)}
		if err := unix.Setrlimit(unix.RLIMIT_DATA, &rl); err != nil {
			return fmt.Errorf("setrlimit RLIMIT_DATA: %w", err)
		}
	}
	if s := os.Getenv(envLaunchCred); s != "" {
		var uid, gid int
		if _, err := fmt.Sscanf(s, "%d:%d", &uid, &gid); err != nil {
			return fmt.Errorf("bad %s=%q", envLaunchCred, s)
		}
		if err := unix.Setgroups(nil); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
		if err := unix.Setresgid(gid, gid, gid); err != nil {
			return fmt.Errorf("setgid %d: %w", gid, err)
		}
		if err := unix.Setresuid(uid, uid, uid); err != nil {
			return fmt.Errorf("setuid %d: %w", uid, err)
		}
		// A change of credentials clears the parent-death signal: set it
		// again, and give up if the parent is already gone.
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
			return fmt.Errorf("prctl PR_SET_PDEATHSIG: %w", err)
		}
		if os.Getppid() != ppid {
			return errors.New("parent exited")
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envLaunchDataLimit+"=") && !strings.HasPrefix(kv, envLaunchCred+"=") {
			env = append(env, kv)
		}
	}
	return unix.Exec(args[0], args, env)
}
