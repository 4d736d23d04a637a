package main

import (
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"syscall"

	"github.com/dop251/goja"
)

// installFS adds a small synchronous `fs` global (a subset of Node's) over
// WASI. The guest sees only what the host preopened: /workspace (its cwd)
// and nothing of the host's file system. It is the only way JavaScript
// changes the file system, so every call that does first drops the
// request's shipped sources (sources.go). node:fs (builtins/fs) is built
// on it.
//
// Errors are Node's: an Error whose message is "ENOENT: no such file or
// directory, open 'a.txt'", with code, errno (negative, Linux's numbers),
// syscall and path, so packages that test err.code === 'ENOENT' work.
func (d *driver) installFS(g *goja.Object) {
	vm := d.vm
	fs := vm.NewObject()
	// fail throws err as Node's error for syscall on p.
	fail := func(err error, syscall, p string) {
		panic(d.fsError(err, syscall, p, ""))
	}
	must(fs.Set("readFileSync", func(p string, enc goja.Value) goja.Value {
		b, err := os.ReadFile(p)
		if err != nil {
			// WASI reads a directory as EBADF; Node (Linux) says EISDIR.
			if st, serr := os.Stat(p); serr == nil && st.IsDir() {
				err = &iofs.PathError{Op: "read", Path: p, Err: syscall.EISDIR}
			}
			fail(err, "open", p)
		}
		if enc == nil || goja.IsUndefined(enc) || goja.IsNull(enc) {
			return vm.ToValue(vm.NewArrayBuffer(b))
		}
		return vm.ToValue(string(b))
	}))
	must(fs.Set("writeFileSync", func(p string, data goja.Value) {
		d.mods.dropSources()
		if err := os.WriteFile(p, dataBytes(data), 0o644); err != nil {
			fail(err, "open", p)
		}
	}))
	must(fs.Set("appendFileSync", func(p string, data goja.Value) {
		d.mods.dropSources()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fail(err, "open", p)
		}
		_, err = f.Write(dataBytes(data))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fail(err, "write", p)
		}
	}))
	must(fs.Set("existsSync", func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}))
	must(fs.Set("readdirSync", func(p string) []string {
		des, err := os.ReadDir(p)
		if err != nil {
			fail(err, "scandir", p)
		}
		names := make([]string, len(des))
		for i, de := range des {
			names[i] = de.Name()
		}
		return names
	}))
	must(fs.Set("mkdirSync", func(p string, opts goja.Value) goja.Value {
		d.mods.dropSources()
		if o, ok := opts.(*goja.Object); ok && o.Get("recursive") != nil && o.Get("recursive").ToBoolean() {
			// Node returns the first directory it made (undefined if none).
			first := ""
			for q := path.Clean(p); q != "/" && q != "."; q = path.Dir(q) {
				if _, err := os.Stat(q); err == nil {
					break
				}
				first = q
			}
			if err := os.MkdirAll(p, 0o755); err != nil {
				fail(err, "mkdir", p)
			}
			if first == "" {
				return goja.Undefined()
			}
			return vm.ToValue(first)
		}
		if err := os.Mkdir(p, 0o755); err != nil {
			fail(err, "mkdir", p)
		}
		return goja.Undefined()
	}))
	must(fs.Set("unlinkSync", func(p string) {
		d.mods.dropSources()
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			fail(syscall.EISDIR, "unlink", p)
		}
		if err := os.Remove(p); err != nil {
			fail(err, "unlink", p)
		}
	}))
	must(fs.Set("rmdirSync", func(p string) {
		d.mods.dropSources()
		if st, err := os.Lstat(p); err == nil && !st.IsDir() {
			fail(syscall.ENOTDIR, "rmdir", p)
		}
		if err := os.Remove(p); err != nil {
			fail(err, "rmdir", p)
		}
	}))
	must(fs.Set("rmSync", func(p string) {
		d.mods.dropSources()
		if err := os.RemoveAll(p); err != nil {
			fail(err, "rm", p)
		}
	}))
	must(fs.Set("renameSync", func(from, to string) {
		d.mods.dropSources()
		if err := os.Rename(from, to); err != nil {
			panic(d.fsError(err, "rename", from, to))
		}
	}))
	must(fs.Set("copyFileSync", func(from, to string, mode goja.Value) {
		d.mods.dropSources()
		const excl = 1 // fs.constants.COPYFILE_EXCL
		src, err := os.Open(from)
		if err != nil {
			panic(d.fsError(err, "copyfile", from, to))
		}
		defer src.Close()
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if mode != nil && !goja.IsUndefined(mode) && mode.ToInteger()&excl != 0 {
			flags |= os.O_EXCL
		}
		dst, err := os.OpenFile(to, flags, 0o644)
		if err != nil {
			panic(d.fsError(err, "copyfile", from, to))
		}
		_, err = io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			panic(d.fsError(err, "copyfile", from, to))
		}
	}))
	// stat and lstat are plain objects of Node's Stats fields; node:fs
	// makes them Stats.
	stat := func(syscall string, f func(string) (iofs.FileInfo, error)) func(string) goja.Value {
		return func(p string) goja.Value {
			st, err := f(p)
			if err != nil {
				fail(err, syscall, p)
			}
			return d.statObject(st)
		}
	}
	must(fs.Set("statSync", stat("stat", os.Stat)))
	must(fs.Set("lstatSync", stat("lstat", os.Lstat)))
	// statTry is stat that gives undefined for a missing file
	// (throwIfNoEntry: false) and throws the rest.
	must(fs.Set("statTry", func(p string, lstat bool) goja.Value {
		f, sc := os.Stat, "stat"
		if lstat {
			f, sc = os.Lstat, "lstat"
		}
		st, err := f(p)
		if errors.Is(err, iofs.ErrNotExist) {
			return goja.Undefined()
		}
		if err != nil {
			fail(err, sc, p)
		}
		return d.statObject(st)
	}))
	must(fs.Set("readlinkSync", func(p string) string {
		s, err := os.Readlink(p)
		if err != nil {
			fail(err, "readlink", p)
		}
		return s
	}))
	must(fs.Set("symlinkSync", func(target, p string) {
		d.mods.dropSources()
		if err := os.Symlink(target, p); err != nil {
			panic(d.fsError(err, "symlink", target, p))
		}
	}))
	// readdirTypes is readdir with each entry's kind ("file", "dir",
	// "symlink", "other"), for withFileTypes.
	must(fs.Set("readdirTypes", func(p string) goja.Value {
		des, err := os.ReadDir(p)
		if err != nil {
			fail(err, "scandir", p)
		}
		out := make([]any, len(des))
		for i, de := range des {
			kind := "other"
			switch t := de.Type(); {
			case t.IsRegular():
				kind = "file"
			case t.IsDir():
				kind = "dir"
			case t&iofs.ModeSymlink != 0:
				kind = "symlink"
			}
			out[i] = vm.NewArray(de.Name(), kind)
		}
		return vm.NewArray(out...)
	}))
	// fs.promises (and node:fs/promises): the same calls, settled at once.
	promises := vm.NewObject()
	for _, name := range []string{"readFile", "writeFile", "appendFile", "readdir", "mkdir", "unlink", "rm", "rmdir", "rename", "copyFile", "stat", "lstat", "readlink", "symlink"} {
		syncFn, _ := goja.AssertFunction(fs.Get(name + "Sync"))
		must(promises.Set(name, func(call goja.FunctionCall) goja.Value {
			p, resolve, reject := vm.NewPromise()
			v, err := syncFn(fs, call.Arguments...)
			if err != nil {
				if ex, ok := err.(*goja.Exception); ok {
					_ = reject(ex.Value())
				} else {
					_ = reject(vm.NewGoError(err))
				}
			} else {
				_ = resolve(v)
			}
			return vm.ToValue(p)
		}))
	}
	must(promises.Set("access", func(p string) goja.Value {
		pr, resolve, reject := vm.NewPromise()
		if _, err := os.Stat(p); err != nil {
			_ = reject(d.fsError(err, "access", p, ""))
		} else {
			_ = resolve(goja.Undefined())
		}
		return vm.ToValue(pr)
	}))
	must(fs.Set("accessSync", func(p string) {
		if _, err := os.Stat(p); err != nil {
			fail(err, "access", p)
		}
	}))
	must(fs.Set("promises", promises))
	d.fs = fs
	must(g.Set("fs", fs))
	must(g.DefineAccessorProperty("__dirname", vm.ToValue(func() string { return path.Clean(getwd()) }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
}

// dataBytes is what fs writes for data: a string as UTF-8, the bytes of
// an ArrayBuffer or a view (a Buffer), anything else as its string.
func dataBytes(data goja.Value) []byte {
	if b, ok := viewBytes(data); ok {
		return b
	}
	return []byte(data.String())
}

// statObject is a plain object of Node's Stats fields.
func (d *driver) statObject(st iofs.FileInfo) goja.Value {
	vm := d.vm
	o := vm.NewObject()
	mode := uint32(st.Mode().Perm())
	switch m := st.Mode(); {
	case m.IsDir():
		mode |= syscall.S_IFDIR
	case m&iofs.ModeSymlink != 0:
		mode |= syscall.S_IFLNK
	case m.IsRegular():
		mode |= syscall.S_IFREG
	case m&iofs.ModeNamedPipe != 0:
		mode |= syscall.S_IFIFO
	case m&iofs.ModeCharDevice != 0:
		mode |= syscall.S_IFCHR
	case m&iofs.ModeSocket != 0:
		mode |= syscall.S_IFSOCK
	}
	ms := float64(st.ModTime().UnixNano()) / 1e6
	fields := map[string]any{"size": st.Size(), "mode": mode, "mtimeMs": ms, "atimeMs": ms, "ctimeMs": ms, "birthtimeMs": ms,
		"dev": 0, "ino": 0, "nlink": 1, "uid": 0, "gid": 0, "rdev": 0, "blksize": 4096, "blocks": (st.Size() + 511) / 512}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		fields["dev"], fields["ino"], fields["nlink"] = sys.Dev, sys.Ino, sys.Nlink
		fields["atimeMs"] = float64(sys.Atime) / 1e6
		fields["ctimeMs"] = float64(sys.Ctime) / 1e6
	}
	for k, v := range fields {
		_ = o.Set(k, v)
	}
	return o
}

// errnoInfo is a WASI errno as Node reports it: code, Linux's errno and
// libuv's description.
type errnoInfo struct {
	code  string
	errno int
	desc  string
}

var errnos = map[syscall.Errno]errnoInfo{
	syscall.EPERM:        {"EPERM", 1, "operation not permitted"},
	syscall.ENOENT:       {"ENOENT", 2, "no such file or directory"},
	syscall.EIO:          {"EIO", 5, "i/o error"},
	syscall.EBADF:        {"EBADF", 9, "bad file descriptor"},
	syscall.EAGAIN:       {"EAGAIN", 11, "resource temporarily unavailable"},
	syscall.ENOMEM:       {"ENOMEM", 12, "not enough memory"},
	syscall.EACCES:       {"EACCES", 13, "permission denied"},
	syscall.EBUSY:        {"EBUSY", 16, "resource busy or locked"},
	syscall.EEXIST:       {"EEXIST", 17, "file already exists"},
	syscall.EXDEV:        {"EXDEV", 18, "cross-device link not permitted"},
	syscall.ENOTDIR:      {"ENOTDIR", 20, "not a directory"},
	syscall.EISDIR:       {"EISDIR", 21, "illegal operation on a directory"},
	syscall.EINVAL:       {"EINVAL", 22, "invalid argument"},
	syscall.EMFILE:       {"EMFILE", 24, "too many open files"},
	syscall.EFBIG:        {"EFBIG", 27, "file too large"},
	syscall.ENOSPC:       {"ENOSPC", 28, "no space left on device"},
	syscall.EROFS:        {"EROFS", 30, "read-only file system"},
	syscall.EMLINK:       {"EMLINK", 31, "too many links"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", 36, "name too long"},
	syscall.ENOTEMPTY:    {"ENOTEMPTY", 39, "directory not empty"},
	syscall.ELOOP:        {"ELOOP", 40, "too many symbolic links encountered"},
	syscall.ENOTCAPABLE:  {"EACCES", 13, "permission denied"},
	syscall.ENOSYS:       {"ENOSYS", 38, "function not implemented"},
}

// fsError is err (of a call Node names syscall, on p, to dest for a
// rename or a copy) as Node's error. A read or write that failed after
// its open (a directory read as a file) is Node's read or write error,
// which names no path.
func (d *driver) fsError(err error, sc, p, dest string) *goja.Object {
	info := errnoInfo{"EIO", 5, "i/o error"}
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		if i, ok := errnos[errno]; ok {
			info = i
		}
	case errors.Is(err, iofs.ErrNotExist):
		info = errnos[syscall.ENOENT]
	case errors.Is(err, iofs.ErrExist):
		info = errnos[syscall.EEXIST]
	case errors.Is(err, iofs.ErrPermission):
		info = errnos[syscall.EACCES]
	}
	var pe *iofs.PathError
	if errors.As(err, &pe) && (pe.Op == "read" || pe.Op == "write") {
		sc, p, dest = pe.Op, "", ""
	}
	msg := info.code + ": " + info.desc + ", " + sc
	if p != "" {
		msg += " '" + p + "'"
	}
	if dest != "" {
		msg += " -> '" + dest + "'"
	}
	e, cerr := d.mods.errCtor(nil, d.vm.ToValue(msg))
	if cerr != nil {
		panic(cerr)
	}
	_ = e.Set("errno", -info.errno)
	_ = e.Set("code", info.code)
	_ = e.Set("syscall", sc)
	if p != "" {
		_ = e.Set("path", p)
	}
	if dest != "" {
		_ = e.Set("dest", dest)
	}
	return e
}
