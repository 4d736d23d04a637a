package pypi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CompileLimits bound the host-side bytecode compile of one wheel. The
// compiler parses attacker-written sources, and CPython's parser and
// compiler need several hundred bytes per token: a 2 MiB module of
// `X=[0,0,…]` takes ~850 MB, one of `a\n` lines ~1.4 GB, and constant
// folding turns 2 MiB of `a="1"*4096` lines into a 600 MB .pyc. None of
// this runs package code, but all of it is the host's memory, CPU and
// disk. Zero fields take the defaults.
type CompileLimits struct {
	// MemoryBytes is the compiler's address-space cap (RLIMIT_AS; default
	// DefaultCompileMemory). A module that needs more gets no .pyc.
	MemoryBytes int64
	// CPU is the compiler's CPU-time cap (RLIMIT_CPU, whole seconds;
	// default DefaultCompileCPU): the kernel kills it there. Some inputs
	// take quadratic time (1 MiB of f-string fields: ~2 min).
	CPU time.Duration
	// Timeout is the compiler's wall-clock cap (default
	// DefaultCompileTimeout); then its process group is killed.
	Timeout time.Duration
	// MaxSourceBytes: a larger module is not handed to the compiler
	// (default DefaultCompileMaxSource), so even without the rlimit one
	// module costs at most a few hundred times this.
	MaxSourceBytes int64
	// Parallel is how many compiles a Client runs at once (default
	// DefaultCompileParallel): the per-process cap bounds the host only
	// if the number of processes is bounded too.
	Parallel int
}

// The defaults of CompileLimits. 512 MiB compiles every ordinary module
// we measured (a 6 MB generated API module took 280 MB); a hostile one
// of the same size would need gigabytes. 2 MiB of source keeps ordinary
// large modules (1.4 MB generated clients) and skips only outliers,
// which the guest then compiles itself, within its own fuel and memory.
const (
	DefaultCompileMemory    = 512 << 20
	DefaultCompileCPU       = 2 * time.Minute
	DefaultCompileTimeout   = 5 * time.Minute
	DefaultCompileMaxSource = 2 << 20
	DefaultCompileParallel  = 2
)

// compileNice is the compiler's niceness: installs must not slow runs.
const compileNice = 10

func (l CompileLimits) withDefaults() CompileLimits {
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = DefaultCompileMemory
	}
	if l.CPU <= 0 {
		l.CPU = DefaultCompileCPU
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultCompileTimeout
	}
	if l.MaxSourceBytes <= 0 {
		l.MaxSourceBytes = DefaultCompileMaxSource
	}
	if l.Parallel <= 0 {
		l.Parallel = DefaultCompileParallel
	}
	return l
}

// compileScript is what the host's python3.11 runs (-I -S: no
// environment, user or site directory reaches it). It caps itself before
// it reads a byte of the wheel, as internal/workerpool's workers do
// (ApplyLimits): Go's SysProcAttr has no rlimits, prlimit(2) from the
// parent after the start would race the child's first allocations, and
// neither prlimit(1) nor a re-exec of the server's binary is something a
// library can count on. It then compiles the modules whose paths
// (relative to argv[1], NUL-separated) it reads on stdin, one at a time,
// as `compileall -d /` did (the .pyc names /<path>), and stops before
// its .pyc files would pass argv[5] bytes in all. A module that fails
// (a syntax error, MemoryError at the address-space cap) gets no .pyc
// and the rest go on. The last line it prints is a JSON summary.
const compileScript = `
import compileall, importlib.util, json, os, py_compile, resource, sys

# soft = hard: at the CPU limit the kernel sends SIGKILL, not a SIGXCPU
# that could dump core.
def cap(res, n):
    hard = resource.getrlimit(res)[1]
    if hard != resource.RLIM_INFINITY:
        n = min(n, hard)
    resource.setrlimit(res, (n, n))

root = sys.argv[1]
mem, cpu, nice, budget = (int(a) for a in sys.argv[2:6])
cap(resource.RLIMIT_AS, mem)
cap(resource.RLIMIT_CPU, cpu)
cap(resource.RLIMIT_CORE, 0)
os.nice(nice)
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
compiled = failed = written = 0
stopped = ""
for rel in sys.stdin.buffer.read().split(b"\0"):
    if not rel:
        continue
    rel = os.fsdecode(rel)
    src = os.path.join(root, rel)
    try:
        ok = compileall.compile_file(src, ddir=os.path.join("/", os.path.dirname(rel)), quiet=2, invalidation_mode=mode)
        pyc = importlib.util.cache_from_source(src)
        size = os.stat(pyc).st_size if ok else 0
    except Exception:
        ok = False
    if not ok:
        failed += 1
        continue
    if written + size > budget:
        os.remove(pyc)
        stopped = "budget"
        break
    written += size
    compiled += 1
print(json.dumps({"compiled": compiled, "failed": failed, "bytes": written, "stopped": stopped}))
`

// compileStats is what one compile did: for the progress line, and for
// tests (the compiler's pid and peak memory).
type compileStats struct {
	Modules  int   // .py files in the tree
	TooLarge int   // of them, over MaxSourceBytes: not compiled
	Compiled int   // got a .pyc
	PycBytes int64 // the .pyc files' bytes
	// Stopped says why the compiler stopped before the last module: ""
	// (it did not), "budget" (the .pyc files reached MaxWheelBytes),
	// "cpu" (RLIMIT_CPU), "timeout", "cancelled", "crashed".
	Stopped string
	PID     int // the compiler's pid, also its process group's id
	// MaxRSS is the compiler's peak resident set in bytes, as the kernel
	// counts it: that includes the server's own when it started the
	// compiler (they share memory until the exec).
	MaxRSS int64
}

// summary is the progress line's note on the bytecode.
func (s compileStats) summary() string {
	if s.Compiled == s.Modules {
		return "bytecode compiled"
	}
	var why []string
	if s.TooLarge > 0 {
		why = append(why, fmt.Sprintf("%d over the source size limit", s.TooLarge))
	}
	switch s.Stopped {
	case "budget":
		why = append(why, "the bytecode reached the wheel size limit")
	case "cpu":
		why = append(why, "the compiler reached its CPU time limit")
	case "timeout":
		why = append(why, "the compiler reached its time limit")
	case "crashed":
		why = append(why, "the compiler failed")
	}
	if len(why) == 0 {
		why = append(why, "the others do not compile")
	}
	return fmt.Sprintf("bytecode for %d of %d modules: %s", s.Compiled, s.Modules, strings.Join(why, ", "))
}

// compileSlot waits for one of the Client's compile slots; release gives
// it back.
func (c *Client) compileSlot(ctx context.Context) (release func(), err error) {
	c.slotsOnce.Do(func() { c.slots = make(chan struct{}, c.Compile.withDefaults().Parallel) })
	c.slotWaiters.Add(1)
	defer c.slotWaiters.Add(-1)
	select {
	case c.slots <- struct{}{}:
		return func() { <-c.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// compile writes unchecked-hash .pyc files for dir's sources (the guest
// never writes bytecode, and an unchecked pyc is used whatever the
// source's timestamp), in a contained process (CompileLimits,
// compileScript): its own process group, killed whole on timeout or
// cancel, with a parent-death signal, at lower priority. A compile that
// reaches a limit is not an install failure: the modules it did not get
// to simply have no .pyc, and the guest compiles them itself, bounded by
// its own fuel and memory; failing the install instead would refuse
// packages that work. It returns an error only when ctx ended: then the
// tree must not be cached as it is.
func (c *Client) compile(ctx context.Context, dir string) (compileStats, error) {
	var st compileStats
	py := c.python()
	if py == "" {
		return st, nil
	}
	release, err := c.compileSlot(ctx)
	if err != nil {
		return st, err
	}
	defer release()
	lim := c.Compile.withDefaults()
	cctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	cpu := int64((lim.CPU + time.Second - 1) / time.Second)
	cmd := exec.CommandContext(cctx, py, "-I", "-S", "-c", compileScript, dir,
		strconv.FormatInt(lim.MemoryBytes, 10), strconv.FormatInt(cpu, 10), strconv.Itoa(compileNice), strconv.FormatInt(c.maxBytes(), 10))
	cmd.Env = []string{"PATH=/usr/bin:/bin", "SOURCE_DATE_EPOCH=1700000000", "PYTHONHASHSEED=0"}
	cmd.Dir = "/"
	// Its own process group, so one kill ends everything it started; and
	// it must not outlive the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out := &headBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return st, err
	}
	if err := cmd.Start(); err != nil {
		stdin.Close()
		return st, nil // no interpreter after all: no bytecode
	}
	st.PID = cmd.Process.Pid
	if c.compileStarted != nil {
		c.compileStarted(st.PID)
	}
	// The list is streamed: a wheel's names are bounded by its size only,
	// and the server need not hold them.
	listed := make(chan struct{})
	go func() {
		defer close(listed)
		defer stdin.Close()
		st.Modules, st.TooLarge = listModules(dir, lim.MaxSourceBytes, stdin)
	}()
	werr := cmd.Wait()
	<-listed
	// Whatever the leader did, nothing of its group stays.
	_ = syscall.Kill(-st.PID, syscall.SIGKILL)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		st.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	var sum struct {
		Compiled int    `json:"compiled"`
		Bytes    int64  `json:"bytes"`
		Stopped  string `json:"stopped"`
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); werr == nil {
		_ = json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
	}
	st.Compiled, st.PycBytes, st.Stopped = sum.Compiled, sum.Bytes, sum.Stopped
	switch {
	case ctx.Err() != nil:
		st.Stopped = "cancelled"
	case cctx.Err() != nil:
		st.Stopped = "timeout"
	case werr != nil && killedBy(cmd.ProcessState, syscall.SIGKILL) && cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime() >= lim.CPU-time.Second:
		st.Stopped = "cpu" // RLIMIT_CPU's hard limit is a SIGKILL
	case werr != nil:
		st.Stopped = "crashed"
	}
	if st.Stopped != "" && st.Stopped != "budget" {
		st.Compiled, st.PycBytes = countPyc(dir)
	}
	if c.compileDone != nil {
		c.compileDone(st)
	}
	return st, ctx.Err()
}

// listModules writes the paths (relative to dir, NUL-terminated) of dir's
// modules of at most max bytes to w, as compileall would find them
// (every regular *.py, __pycache__ directories left out); it returns how
// many modules there are and how many are too large.
func listModules(dir string, max int64, w io.Writer) (modules, tooLarge int) {
	bw := bufio.NewWriter(w)
	failed := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".py") {
			return nil
		}
		modules++
		if info, err := d.Info(); err != nil || info.Size() > max {
			tooLarge++
			return nil
		}
		if !failed {
			rel := strings.TrimPrefix(p, dir+string(filepath.Separator))
			if _, err := bw.WriteString(rel + "\x00"); err != nil {
				failed = true // the compiler is gone; go on counting
			}
		}
		return nil
	})
	bw.Flush()
	return modules, tooLarge
}

// countPyc counts the .pyc files under dir (after a compiler that did not
// get to report).
func countPyc(dir string) (n int, bytes int64) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".pyc") && filepath.Base(filepath.Dir(p)) == "__pycache__" {
			if info, err := d.Info(); err == nil {
				n++
				bytes += info.Size()
			}
		}
		return nil
	})
	return n, bytes
}

func killedBy(ps *os.ProcessState, sig syscall.Signal) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string { return string(h.b) }
