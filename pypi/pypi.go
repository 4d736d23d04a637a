// Package pypi installs Python packages for the CPython guest without
// running any of their code: it resolves requirements (PEP 508, with
// PEP 440 versions and environment markers for CPython 3.11 on
// wasm32-wasi) against package indexes (PEP 691 JSON, else PEP 503 HTML),
// downloads wheels only, verifies each one's sha256, accepts pure wheels
// only (py3-none-any, py2.py3-none-any, cp311-none-any, ...), unpacks each
// once into a content-addressed cache shared by all workspaces (with its
// bytecode compiled there once, by the host's python3.11 when it has one,
// in a process capped by CompileLimits),
// and copies the installed set into a workspace's .python-packages
// directory, which the guest has on sys.path.
//
// An install is all or nothing: the new set is built beside the
// workspace's and swapped in only when every wheel was fetched, verified
// and unpacked.
//
// Errors: *Error (a failure of the install itself, naming the package and
// the reason) or one wrapping ctx.Err().
//
// Size: a Python package installer is a set of standards (PEP 440 versions,
// PEP 508 markers, PEP 503/691 indexes, wheels) that only make sense
// together; each file is one of them.
package pypi

import (
	"archive/zip"
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	wexec "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/copytree"
	"github.com/wasmexec/wasmexec/internal/safepath"
)

// DefaultIndex is the public Python package index.
const DefaultIndex = "https://pypi.org/simple"

// SiteDir is the workspace directory holding installed packages; the
// Python guest has /workspace/SiteDir on sys.path.
const SiteDir = ".python-packages"

// manifestName is the installed set's record inside SiteDir.
const manifestName = ".wasmexec-installed.json"

// Client installs packages. Set CacheDir.
type Client struct {
	// HTTP is the client for indexes and downloads (http.DefaultClient when nil).
	HTTP *http.Client
	// CacheDir holds wheels and their unpacked trees by sha256.
	CacheDir string
	// MaxWheelBytes bounds one wheel, compressed, unpacked and its
	// compiled bytecode (default 256 MiB); MaxPackages bounds one install
	// (default 500).
	MaxWheelBytes int64
	MaxPackages   int
	// Python is the host interpreter that compiles bytecode (a CPython
	// 3.11, whose .pyc format the guest's is); "" looks for python3.11,
	// "-" compiles nothing.
	Python string
	// Compile bounds that interpreter's work on each wheel.
	Compile CompileLimits

	pyOnce sync.Once
	pyPath string

	slotsOnce   sync.Once
	slots       chan struct{} // one per compile running
	slotWaiters atomic.Int32  // compiles waiting for a slot (tests)
	// Set by tests: the compiler started (its pid), and what it did.
	compileStarted func(pid int)
	compileDone    func(compileStats)
}

// Options say what Install does.
type Options struct {
	// Requirements to install (PEP 508).
	Requirements []Requirement
	// Indexes to look in, the primary first.
	Indexes []string
	// Upgrade prefers the newest versions over the installed ones.
	Upgrade bool
	// Progress, when set, receives one line per step.
	Progress func(line string)
	// Commit, when set, runs swap (which puts the new set in place of
	// the site directory); it may refuse (e.g. the workspace's quota).
	Commit func(swap func() error) error
}

// Installed is one package an install resolved.
type Installed = wexec.PipPackage

// Error is an install that failed for a reason of its input or index.
type Error struct {
	Package string
	Reason  string
}

func (e *Error) Error() string {
	if e.Package == "" {
		return e.Reason
	}
	return e.Package + ": " + e.Reason
}

func failf(pkg, format string, args ...any) *Error {
	return &Error{Package: pkg, Reason: fmt.Sprintf(format, args...)}
}

func (c *Client) http() *http.Client {
	if c.HTTP == nil {
		return http.DefaultClient
	}
	return c.HTTP
}

func (c *Client) maxBytes() int64 {
	if c.MaxWheelBytes <= 0 {
		return 256 << 20
	}
	return c.MaxWheelBytes
}

func (c *Client) maxPackages() int {
	if c.MaxPackages <= 0 {
		return 500
	}
	return c.MaxPackages
}

// manifest is the installed set of a site directory.
type manifest struct {
	Packages []Installed `json:"packages"`
}

func readManifest(site string) manifest {
	var m manifest
	if b, err := os.ReadFile(filepath.Join(site, manifestName)); err == nil {
		json.Unmarshal(b, &m)
	}
	return m
}

// Resolve resolves opts.Requirements (preferring the versions in keep,
// by normalized name) and makes sure every chosen wheel is in the cache.
func (c *Client) Resolve(ctx context.Context, opts Options, keep map[string]string) ([]Installed, error) {
	log := opts.Progress
	if log == nil {
		log = func(string) {}
	}
	if len(opts.Indexes) == 0 {
		opts.Indexes = []string{DefaultIndex}
	}
	r := &resolver{c: c, ctx: ctx, indexes: opts.Indexes, projects: map[string]*projectInfo{}, meta: map[string]*metadata{},
		chosen: map[string]*choice{}, prefer: map[string]string{}, log: log, env: GuestEnvironment}
	if !opts.Upgrade {
		for k, v := range keep {
			r.prefer[k] = v
		}
	}
	var queue []pending
	for _, req := range opts.Requirements {
		queue = append(queue, pending{req: req, by: "the request"})
	}
	if err := r.solve(queue); err != nil {
		var soft *softError
		if errors.As(err, &soft) {
			return nil, soft.err
		}
		return nil, err
	}
	if len(r.chosen) > c.maxPackages() {
		return nil, failf("", "the install needs %d packages, over the limit of %d", len(r.chosen), c.maxPackages())
	}
	var out []Installed
	for _, key := range sortedKeys(r.chosen) {
		ch := r.chosen[key]
		if _, err := c.unpacked(ctx, ch.rel, log); err != nil {
			return nil, err
		}
		out = append(out, Installed{Name: ch.rel.name, Version: ch.rel.version.String(), SHA256: ch.rel.wheel.SHA256})
	}
	return out, nil
}

// Install installs into the site directory site (created when missing):
// the packages already there stay unless the resolution replaced them.
func (c *Client) Install(ctx context.Context, site string, opts Options) ([]Installed, error) {
	log := opts.Progress
	if log == nil {
		log = func(string) {}
	}
	old := readManifest(site)
	keep := map[string]string{}
	for _, p := range old.Packages {
		keep[Normalize(p.Name)] = p.Version
	}
	got, err := c.Resolve(ctx, opts, keep)
	if err != nil {
		return nil, err
	}
	set := map[string]Installed{}
	for _, p := range old.Packages {
		set[Normalize(p.Name)] = p
	}
	for _, p := range got {
		k := Normalize(p.Name)
		if prev, ok := set[k]; ok && prev.SHA256 == p.SHA256 {
			log(fmt.Sprintf("kept %s %s", p.Name, p.Version))
		} else if ok {
			log(fmt.Sprintf("replaced %s %s with %s", p.Name, prev.Version, p.Version))
		} else {
			log(fmt.Sprintf("added %s %s", p.Name, p.Version))
		}
		set[k] = p
	}
	var all []Installed
	for _, k := range sortedKeys(set) {
		all = append(all, set[k])
	}
	if len(all) > c.maxPackages() {
		return nil, failf("", "the context would hold %d packages, over the limit of %d", len(all), c.maxPackages())
	}
	if err := c.commit(ctx, site, all, opts.Commit); err != nil {
		return nil, err
	}
	return got, nil
}

// Build writes the set pkgs (all in the cache) into the new directory dst.
// A package whose sha256 is not one is refused before anything is copied:
// the set kept from an earlier install comes from the manifest in the
// workspace, which its guests can rewrite, and a "sha256" of
// "xx/../../../../etc" would copy that host directory into the workspace.
func (c *Client) Build(dst string, pkgs []Installed) error {
	for _, p := range pkgs {
		if !hexRE(p.SHA256) {
			return failf(p.Name, "the installed set's record %s/%s gives it the sha256 %q, which is not one: the record was altered (remove %s to start afresh)", SiteDir, manifestName, p.SHA256, SiteDir)
		}
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, p := range pkgs {
		if _, err := copytree.Copy(c.treeDir(p.SHA256), dst); err != nil {
			return err
		}
	}
	b, _ := json.MarshalIndent(manifest{Packages: pkgs}, "", "  ")
	return os.WriteFile(filepath.Join(dst, manifestName), append(b, '\n'), 0o644)
}

// commit builds the new site directory beside site and swaps it in.
func (c *Client) commit(ctx context.Context, site string, pkgs []Installed, wrap func(func() error) error) error {
	parent := filepath.Dir(site)
	stage, err := os.MkdirTemp(parent, ".pip-install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	next := filepath.Join(stage, "site")
	if err := c.Build(next, pkgs); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	swap := func() error {
		if _, err := os.Lstat(site); err == nil {
			// One atomic exchange where the kernel has it: the path never
			// disappears, so a guest importing meanwhile sees one set or
			// the other.
			if err := unix.Renameat2(unix.AT_FDCWD, next, unix.AT_FDCWD, site, unix.RENAME_EXCHANGE); err == nil {
				return nil
			}
			if err := os.Rename(site, filepath.Join(stage, "old")); err != nil {
				return err
			}
		}
		return os.Rename(next, site)
	}
	if wrap == nil {
		return swap()
	}
	return wrap(swap)
}

func (c *Client) wheelPath(sha string) string {
	return filepath.Join(c.CacheDir, "wheels", sha[:2], sha+".whl")
}

func (c *Client) treeDir(sha string) string {
	return filepath.Join(c.CacheDir, "trees", sha[:2], sha)
}

var hexRE = func(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// wheel returns the path of rel's wheel in the cache, downloading and
// verifying it first when missing.
func (c *Client) wheel(ctx context.Context, rel *release, log func(string)) (string, error) {
	f := rel.wheel
	if !hexRE(f.SHA256) {
		return "", failf(rel.name, "the index gives no sha256 for %s; wasmexec installs verified wheels only", f.Filename)
	}
	dst := c.wheelPath(f.SHA256)
	if _, err := os.Stat(dst); err == nil {
		return dst, nil
	}
	u, err := url.Parse(f.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return "", failf(rel.name, "wheel URL %q is not http(s)", f.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return "", failf(rel.name, "bad wheel URL: %v", err)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", failf(rel.name, "downloading %s failed: %v", f.Filename, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", failf(rel.name, "downloading %s: the server answered %s", f.Filename, resp.Status)
	}
	max := c.maxBytes()
	if resp.ContentLength > max {
		return "", failf(rel.name, "wheel %s is %d bytes, over the %d-byte limit", f.Filename, resp.ContentLength, max)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".download-")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(resp.Body, max+1))
	tmp.Close()
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", failf(rel.name, "downloading %s failed: %v", f.Filename, err)
	}
	if n > max {
		return "", failf(rel.name, "wheel %s is over the %d-byte limit", f.Filename, max)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != f.SHA256 {
		return "", failf(rel.name, "hash mismatch: %s has sha256 %s, the index says %s", f.Filename, got, f.SHA256)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", err
	}
	log(fmt.Sprintf("downloaded %s (%d bytes, sha256 verified)", f.Filename, n))
	return dst, nil
}

// metadata is what the resolver reads of a wheel's METADATA.
type metadata struct {
	requires []string
}

func (c *Client) metadataOf(ctx context.Context, r *resolver, rel *release) (*metadata, error) {
	if md, ok := r.meta[rel.wheel.SHA256]; ok {
		return md, nil
	}
	p, err := c.wheel(ctx, rel, r.log)
	if err != nil {
		return nil, err
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, failf(rel.name, "%s is not a zip file: %v", rel.wheel.Filename, err)
	}
	defer zr.Close()
	var meta *zip.File
	for _, f := range zr.File {
		dir, base := path.Split(f.Name)
		if base == "METADATA" && strings.HasSuffix(dir, ".dist-info/") && strings.Count(dir, "/") == 1 {
			meta = f
			break
		}
	}
	if meta == nil {
		return nil, failf(rel.name, "%s has no .dist-info/METADATA", rel.wheel.Filename)
	}
	rc, err := meta.Open()
	if err != nil {
		return nil, failf(rel.name, "%s: METADATA: %v", rel.wheel.Filename, err)
	}
	defer rc.Close()
	tp := textproto.NewReader(bufio.NewReader(io.LimitReader(rc, 16<<20)))
	hdr, err := tp.ReadMIMEHeader()
	if err != nil && len(hdr) == 0 {
		return nil, failf(rel.name, "%s: METADATA does not parse: %v", rel.wheel.Filename, err)
	}
	md := &metadata{requires: hdr.Values("Requires-Dist")}
	if n := strings.TrimSpace(hdr.Get("Name")); n != "" && Normalize(n) == rel.key {
		rel.name = n
	}
	if rp := hdr.Get("Requires-Python"); rp != "" {
		if set, err := ParseSpecifiers(rp); err == nil && !set.Contains(mustVersion(r.env["python_full_version"]), true) {
			return nil, &softError{failf(rel.name, "%s %s requires Python %s; the guest is CPython 3.11", rel.name, rel.version, rp)}
		}
	}
	r.meta[rel.wheel.SHA256] = md
	return md, nil
}

// unpacked makes sure rel's wheel is unpacked (and compiled) in the cache.
func (c *Client) unpacked(ctx context.Context, rel *release, log func(string)) (string, error) {
	dst := c.treeDir(rel.wheel.SHA256)
	if _, err := os.Stat(filepath.Join(dst, ".complete")); err == nil {
		return dst, nil
	}
	p, err := c.wheel(ctx, rel, log)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".unpack-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	n, err := unpackWheel(p, tmp, c.maxBytes())
	if err != nil {
		return "", failf(rel.name, "%s: %v", rel.wheel.Filename, err)
	}
	// A cancelled compile leaves the tree without all its bytecode: it is
	// not cached like that (a compile that hit a limit is: it would again).
	if st, err := c.compile(ctx, tmp); err != nil {
		return "", err
	} else if c.python() != "" {
		log(fmt.Sprintf("unpacked %s (%d files, %s)", rel.wheel.Filename, n, st.summary()))
	} else {
		log(fmt.Sprintf("unpacked %s (%d files)", rel.wheel.Filename, n))
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, serr := os.Stat(filepath.Join(dst, ".complete")); serr == nil {
			return dst, nil
		}
		return "", err
	}
	return dst, nil
}

// maxWheelEntries bounds the files of one wheel.
const maxWheelEntries = 100000

// unpackWheel extracts a wheel into dir: purelib/platlib data go to the
// top, scripts, headers and data are left out. Entries that escape, links
// and the reserved manifest name are refused; the bytes written are
// bounded by max whatever the headers claim.
func unpackWheel(file, dir string, max int64) (int, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return 0, fmt.Errorf("not a zip file: %v", err)
	}
	defer zr.Close()
	if len(zr.File) > maxWheelEntries {
		return 0, fmt.Errorf("more than %d entries", maxWheelEntries)
	}
	var total int64
	n := 0
	for _, f := range zr.File {
		name := f.Name
		if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") || strings.ContainsRune(name, 0) || (len(name) > 1 && name[1] == ':') {
			return 0, fmt.Errorf("entry %q is an absolute or non-portable path", name)
		}
		for _, part := range strings.Split(name, "/") {
			if part == ".." {
				return 0, fmt.Errorf("entry %q escapes the wheel's root", name)
			}
		}
		mode := f.Mode()
		if mode&os.ModeSymlink != 0 || (mode&os.ModeType != 0 && !mode.IsDir()) {
			return 0, fmt.Errorf("entry %q is a link or special file (refused)", name)
		}
		rel := path.Clean(name)
		if first, rest, ok := strings.Cut(rel, "/"); ok && strings.HasSuffix(first, ".data") {
			kind, inner, _ := strings.Cut(rest, "/")
			if (kind != "purelib" && kind != "platlib") || inner == "" {
				continue
			}
			rel = path.Clean(inner)
		}
		if rel == "." || rel == manifestName || rel == ".complete" {
			if rel == "." {
				continue
			}
			return 0, fmt.Errorf("entry %q uses a name wasmexec reserves", name)
		}
		target, err := safepath.JoinUnder(dir, rel)
		if err != nil {
			return 0, fmt.Errorf("entry %q escapes the wheel's root: %v", name, err)
		}
		if strings.HasSuffix(name, "/") || mode.IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return 0, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return 0, fmt.Errorf("entry %q: %v", name, err)
		}
		rc, err := f.Open()
		if err != nil {
			return 0, fmt.Errorf("entry %q: %v", name, err)
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			rc.Close()
			return 0, fmt.Errorf("entry %q: %v", name, err)
		}
		w, err := io.Copy(out, io.LimitReader(rc, max-total+1))
		rc.Close()
		out.Close()
		total += w
		if total > max {
			return 0, fmt.Errorf("unpacks to more than %d bytes", max)
		}
		if err != nil {
			return 0, fmt.Errorf("entry %q: %v", name, err)
		}
		n++
	}
	return n, nil
}

// python finds the host interpreter that compiles bytecode.
func (c *Client) python() string {
	c.pyOnce.Do(func() {
		switch c.Python {
		case "-":
		case "":
			for _, p := range []string{"/usr/bin/python3.11", "python3.11"} {
				if lp, err := exec.LookPath(p); err == nil {
					c.pyPath = lp
					break
				}
			}
		default:
			c.pyPath = c.Python
		}
	})
	return c.pyPath
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
