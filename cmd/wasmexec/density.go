package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmexec/wasmexec/contexts"
)

// The defaults of --contexts-memory-bytes and --contexts-max-disk-bytes
// are shares of what the machine has, found at start and logged.
const (
	// contextsMemoryShare of the machine's memory (or of the cgroup's
	// limit) is the default budget of live contexts: the rest is for
	// TypeScript checker workers, processes, one-shot runs and the page
	// cache that hibernated contexts' records and the images live in.
	contextsMemoryShare = 4
	// contextsDiskShare of the data dir's file system is the default
	// bound of the contexts' records and workspaces.
	contextsDiskShare = 2
)

// machineMemory is the memory this process may use: the cgroup's limit
// when there is one below the machine's, else MemTotal. The string says
// which.
func machineMemory() (int64, string) {
	total := int64(0)
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				if kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
		f.Close()
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			return n, "the cgroup's memory limit"
		}
	}
	return total, "the machine's memory"
}

// fileSystemSize is the size of the file system holding dir (or its
// nearest existing parent).
func fileSystemSize(dir string) int64 {
	for d := dir; ; d = filepath.Dir(d) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil {
			return int64(st.Blocks) * st.Bsize
		}
		if d == filepath.Dir(d) {
			return 0
		}
	}
}

// resolveDensity fills in the defaults of --contexts-memory-bytes and
// --contexts-max-disk-bytes (0) and says where they came from.
func (o *options) resolveDensity() (memWhy, diskWhy string) {
	if o.ctxMemoryBytes == 0 {
		n, what := machineMemory()
		o.ctxMemoryBytes = n / contextsMemoryShare
		memWhy = fmt.Sprintf("default: a quarter of %s (%d MiB)", what, n>>20)
	} else {
		memWhy = "set"
	}
	if o.ctxMaxDiskBytes == 0 {
		n := fileSystemSize(o.dataDir)
		o.ctxMaxDiskBytes = n / contextsDiskShare
		diskWhy = fmt.Sprintf("default: half of the data dir's file system (%d MiB)", n>>20)
	} else {
		diskWhy = "set"
	}
	return memWhy, diskWhy
}

// validateDensity checks the contexts' memory and disk bounds.
func (o *options) validateDensity(bad func(flagName string, value any, format string, args ...any)) {
	if o.ctxMemoryBytes < contexts.MinMemoryBudget {
		bad("contexts-memory-bytes", o.ctxMemoryBytes, "too small for one live context beside the server itself: accepted %d (%d MiB) or more", int64(contexts.MinMemoryBudget), contexts.MinMemoryBudget>>20)
	}
	if o.ctxMaxDiskBytes < minContextsDisk {
		bad("contexts-max-disk-bytes", o.ctxMaxDiskBytes, "accepted %d or more", int64(minContextsDisk))
	}
}

// minContextsDisk is the smallest bound of the contexts' disk use.
const minContextsDisk = 1 << 20
