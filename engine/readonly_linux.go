package engine

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// mountReadOnly bind-mounts src on dst and makes the mount read-only (and
// nosuid, nodev, noexec). It checks the result: the kernel must refuse
// writes below dst with EROFS, else dst is unmounted again.
func mountReadOnly(src, dst string) error {
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind mount: %w", err)
	}
	flags := uintptr(syscall.MS_BIND | syscall.MS_REMOUNT | syscall.MS_RDONLY | syscall.MS_NOSUID | syscall.MS_NODEV | syscall.MS_NOEXEC)
	if err := syscall.Mount("", dst, "", flags, ""); err != nil {
		unmount(dst)
		return fmt.Errorf("remount read-only: %w", err)
	}
	const wOK = 2
	if err := syscall.Access(dst, wOK); !errors.Is(err, syscall.EROFS) {
		unmount(dst)
		return fmt.Errorf("the mount is not read-only (access for writing: %v)", err)
	}
	return nil
}

// unmount detaches the mount on dir, if there is one.
func unmount(dir string) {
	syscall.Unmount(dir, syscall.MNT_DETACH)
}

// isMounted reports whether dir (symlinks resolved) is a mount point.
func isMounted(dir string) bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 && unescapeMountPath(fields[4]) == dir {
			return true
		}
	}
	return false
}

// unescapeMountPath undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
