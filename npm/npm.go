// Package npm installs npm packages into a workspace without running any of
// their code: it resolves versions against a registry (the npm registry
// protocol: a packument per package, tarballs with an integrity hash),
// verifies every tarball, unpacks it once into a content-addressed cache
// shared by all workspaces, and copies what a project needs into its
// node_modules. Install scripts are never run; a package that declares one
// is reported.
//
// An install is all or nothing: node_modules, package.json and
// package-lock.json are built beside the workspace's and swapped in only
// when everything was fetched and verified, so a failed install leaves the
// workspace as it was.
//
// Errors: *Error (a failure of the install itself, naming the package and
// the reason: unknown package or version, bad integrity, unreachable
// registry, a tarball that escapes or is too big, a package.json that does
// not parse, a frozen lock that would change) or one wrapping ctx.Err().
//
// Size: an npm installer is registry documents, semver, integrity, tarballs
// and an all-or-nothing commit; each file is one of them.
package npm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/copytree"
	"github.com/wasmexec/wasmexec/internal/safepath"
)

// DefaultRegistry is the public npm registry.
const DefaultRegistry = "https://registry.npmjs.org"

// Client installs packages. Its zero value is not usable: set CacheDir.
type Client struct {
	// Registry is the registry's base URL (DefaultRegistry when empty).
	Registry string
	// HTTP is the client for the registry (http.DefaultClient when nil).
	HTTP *http.Client
	// CacheDir holds unpacked packages by integrity, shared by installs.
	CacheDir string
	// MaxPackageBytes bounds one package, compressed and unpacked
	// (default 256 MiB); MaxPackages bounds one install (default 2000).
	MaxPackageBytes int64
	MaxPackages     int
	// PackumentTTL is how long a registry document is reused between
	// installs (DefaultPackumentTTL when 0; negative: never cached);
	// PackumentCacheBytes bounds those kept (DefaultPackumentCacheBytes
	// when 0). See packuments.go.
	PackumentTTL        time.Duration
	PackumentCacheBytes int64
	// Now is the clock of the packument cache (time.Now when nil).
	Now func() time.Time
	// StageRoom bounds what one one-shot run's packages may hold
	// (StagePackages): they are copied into its workspace, so the
	// workspace's limits. Zero: unbounded.
	StageRoom Room

	packuments packumentCache
}

// Options say what Install does.
type Options struct {
	// Packages to add ("name", "name@1.2.3", "name@^1", "@scope/name@tag").
	// None installs the project from package.json and package-lock.json.
	Packages []string
	// Dev saves added packages in devDependencies.
	Dev bool
	// Frozen fails the install when package-lock.json would change.
	Frozen bool
	// Progress, when set, receives one line per step.
	Progress func(line string)
	// Measure, when set, is the workspace's limits: it says whether the
	// workspace would pass them with its top-level entries names replaced
	// by those in stage (a directory directly inside it), and describes
	// the count. An install that would pass them fails with code
	// quota_exceeded before anything is swapped in.
	Measure func(ctx context.Context, stage string, names []string) (over bool, desc string, details map[string]any, err error)
	// Room, when set, is what the install may write: the room the
	// workspace's limits leave for its top-level entries names (and
	// stage, as for Measure). Every directory and file is counted as it
	// is unpacked into the cache or staged, and the install stops with
	// code quota_exceeded before the first one that does not fit, instead
	// of writing it all and then finding it does not.
	Room func(ctx context.Context, stage string, names []string) (Room, error)
}

// Room is what an install may still write, counted the way a workspace's
// limits count (vfs.Room, of the same shape): Bytes for a non-empty
// file's size and EntryBytes for every directory or empty file, Files for
// every entry; math.MaxInt64 and math.MaxInt are no bound.
type Room struct {
	Bytes      int64
	Files      int
	EntryBytes int64
}

// unbounded is the Room of an install without one.
func unbounded() Room { return Room{Bytes: math.MaxInt64, Files: math.MaxInt} }

// take charges a directory or a file of size bytes to r, or reports that
// it does not fit (r unchanged).
func (r *Room) take(dir bool, size int64) bool {
	charge := size
	if dir || size <= 0 {
		charge = r.EntryBytes
	}
	if r.Files < 1 || charge > r.Bytes {
		return false
	}
	r.Files--
	r.Bytes -= charge
	return true
}

// describe says what r allows, for messages: "16777216 bytes and 10000
// files" (a bound it lacks is left out).
func (r Room) describe() string {
	var parts []string
	if r.Bytes != math.MaxInt64 {
		parts = append(parts, fmt.Sprintf("%d bytes", r.Bytes))
	}
	if r.Files != math.MaxInt {
		parts = append(parts, fmt.Sprintf("%d files", r.Files))
	}
	return strings.Join(parts, " and ")
}

// errNoRoom is what unpack returns when an entry does not fit its room.
var errNoRoom = errors.New("no room left for the install")

// overRoom is the failure of an install that ran out of room at what (a
// package or a file of the stage).
func (in *installer) overRoom(what string) error {
	details := map[string]any{"package": what, "reason": "over the workspace quota"}
	if in.room.Bytes != math.MaxInt64 {
		details["roomBytes"] = in.room.Bytes
	}
	if in.room.Files != math.MaxInt {
		details["roomFiles"] = in.room.Files
	}
	return &Error{Code: wasmexec.CodeQuotaExceeded, Package: what, Details: details,
		Reason: fmt.Sprintf("the install would take the workspace over its limits: the rest of the workspace leaves it room for %s, and this does not fit in what is left of it", in.room.describe())}
}

// Installed is one package put into node_modules.
type Installed = wasmexec.NPMPackage

// Error is an install that failed for a reason of its input or registry.
type Error struct {
	Package string // the package concerned, if any
	Reason  string
	// Code is the failure's code: npm_install_failed, or quota_exceeded
	// (with the workspace's count in Details).
	Code    string
	Details map[string]any
}

// CodeOf is e's failure code.
func (e *Error) CodeOf() string {
	if e.Code == "" {
		return "npm_install_failed"
	}
	return e.Code
}

func (e *Error) Error() string {
	if e.Package == "" {
		return e.Reason
	}
	return e.Package + ": " + e.Reason
}

func failf(pkg, format string, args ...any) error {
	return &Error{Package: pkg, Reason: fmt.Sprintf(format, args...)}
}

func (c *Client) registry() string {
	if c.Registry == "" {
		return DefaultRegistry
	}
	return strings.TrimRight(c.Registry, "/")
}

func (c *Client) http() *http.Client {
	if c.HTTP == nil {
		return http.DefaultClient
	}
	return c.HTTP
}

func (c *Client) maxBytes() int64 {
	if c.MaxPackageBytes <= 0 {
		return 256 << 20
	}
	return c.MaxPackageBytes
}

// packument is the part of a registry document Install reads.
type packument struct {
	Name     string                    `json:"name"`
	DistTags map[string]string         `json:"dist-tags"`
	Versions map[string]packageVersion `json:"versions"`
}

type packageVersion struct {
	Name                 string   `json:"name"`
	Version              string   `json:"version"`
	Dependencies         looseMap `json:"dependencies"`
	OptionalDependencies looseMap `json:"optionalDependencies"`
	PeerDependencies     looseMap `json:"peerDependencies"`
	Scripts              looseMap `json:"scripts"`
	Dist                 struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
		Shasum    string `json:"shasum"`
	} `json:"dist"`
}

// looseMap is a name-to-string field of a registry document, read as npm
// reads it: old versions of popular packages were published with
// dependencies as an array or a script as an object (joi, underscore),
// and one odd version must not make the whole document unreadable.
// Entries whose value is not a string are dropped; anything but an object
// is no entries.
type looseMap map[string]string

func (m *looseMap) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if json.Unmarshal(b, &raw) != nil || raw == nil {
		*m = nil
		return nil
	}
	out := make(looseMap, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		}
	}
	*m = out
	return nil
}

// installer is one Install's state.
type installer struct {
	c          *Client
	opts       Options
	packuments map[string]*packument
	// placed maps an install path (node_modules/a/node_modules/b) to the
	// version put there.
	placed map[string]*packageVersion
	lock   map[string]lockEntry // the existing lock, by install path
	log    func(string)
	room   Room // what the install could write when it began staging
}

// lockEntry is a package-lock.json (v3) "packages" entry.
type lockEntry struct {
	Version      string            `json:"version,omitempty"`
	Resolved     string            `json:"resolved,omitempty"`
	Integrity    string            `json:"integrity,omitempty"`
	Dev          bool              `json:"dev,omitempty"`
	Dependencies map[string]string `json:"dependencies,omitempty"`
	Name         string            `json:"name,omitempty"`
	DevDeps      map[string]string `json:"devDependencies,omitempty"`
}

type lockFile struct {
	Name            string               `json:"name,omitempty"`
	Version         string               `json:"version,omitempty"`
	LockfileVersion int                  `json:"lockfileVersion"`
	Requires        bool                 `json:"requires"`
	Packages        map[string]lockEntry `json:"packages"`
}

// Install installs into the workspace at dir. See Options and the package
// documentation.
func (c *Client) Install(ctx context.Context, dir string, opts Options) ([]Installed, error) {
	in := &installer{c: c, opts: opts, packuments: map[string]*packument{}, placed: map[string]*packageVersion{}, lock: map[string]lockEntry{}, log: opts.Progress}
	if in.log == nil {
		in.log = func(string) {}
	}
	// The project's package.json, kept as a generic object so fields this
	// package does not know survive.
	project := map[string]any{}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		if err := json.Unmarshal(b, &project); err != nil {
			return nil, failf("package.json", "does not parse: %v", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var oldLock []byte
	if b, err := os.ReadFile(filepath.Join(dir, "package-lock.json")); err == nil {
		oldLock = b
		var lf lockFile
		if err := json.Unmarshal(b, &lf); err != nil {
			return nil, failf("package-lock.json", "does not parse: %v", err)
		}
		for k, v := range lf.Packages {
			in.lock[k] = v
		}
	}
	deps := stringMap(project["dependencies"])
	devDeps := stringMap(project["devDependencies"])
	for i, m := range []map[string]string{deps, devDeps} {
		for _, n := range sortedKeys(m) {
			if problem := nameProblem(n); problem != "" {
				return nil, failf("package.json", "%s: %q is not a package name: it %s", [...]string{"dependencies", "devDependencies"}[i], n, problem)
			}
		}
	}
	for _, spec := range opts.Packages {
		name, rng := splitSpec(spec)
		if name == "" || !validName(name) {
			return nil, failf(spec, "not a package name")
		}
		v, err := in.resolve(ctx, name, rng)
		if err != nil {
			return nil, err
		}
		target := deps
		if opts.Dev {
			target = devDeps
			delete(deps, name)
		} else {
			delete(devDeps, name)
		}
		if rng == "" || rng == "latest" {
			target[name] = "^" + v.Version
		} else {
			target[name] = rng
		}
	}
	if len(deps) > 0 {
		project["dependencies"] = deps
	}
	if len(devDeps) > 0 {
		project["devDependencies"] = devDeps
	}

	// Resolve the tree: top-level first (breadth first), each dependency
	// placed as high as it can go without clashing.
	type job struct {
		parent string // install path of the dependent ("" for the project)
		name   string
		rng    string
		dev    bool
	}
	var queue []job
	for _, n := range sortedKeys(deps) {
		queue = append(queue, job{"", n, deps[n], false})
	}
	for _, n := range sortedKeys(devDeps) {
		queue = append(queue, job{"", n, devDeps[n], true})
	}
	devOnly := map[string]bool{}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Already satisfied where Node's lookup from the parent would find it?
		if at, ok := in.findFrom(j.parent, j.name); ok && satisfies(in.placed[at].Version, j.rng) {
			if !j.dev {
				devOnly[at] = false
			}
			continue
		}
		at := in.placeFor(j.parent, j.name)
		var v *packageVersion
		if e, ok := in.lock[at]; ok && e.Version != "" && satisfies(e.Version, j.rng) && e.Integrity != "" {
			lv, err := in.version(ctx, j.name, e.Version)
			if err != nil {
				return nil, err
			}
			v = lv
		} else {
			rv, err := in.resolve(ctx, j.name, j.rng)
			if err != nil {
				return nil, err
			}
			v = rv
		}
		if len(in.placed) >= c.maxPackages() {
			return nil, failf(j.name, "the install needs more than %d packages", c.maxPackages())
		}
		in.placed[at] = v
		if d, seen := devOnly[at]; !seen || d {
			devOnly[at] = j.dev
		}
		for _, n := range sortedKeys(v.Dependencies) {
			queue = append(queue, job{at, n, v.Dependencies[n], j.dev})
		}
	}

	var installed []Installed
	for _, at := range sortedKeys(in.placed) {
		v := in.placed[at]
		it := Installed{Name: v.Name, Version: v.Version, Integrity: integrityOf(v), Path: at}
		for _, s := range []string{"preinstall", "install", "postinstall"} {
			if v.Scripts[s] != "" {
				it.Scripts = append(it.Scripts, s)
			}
		}
		if len(it.Scripts) > 0 {
			in.log(fmt.Sprintf("%s@%s declares %s scripts: not run (wasmexec never runs install scripts); the package may not work without them", v.Name, v.Version, strings.Join(it.Scripts, ", ")))
		}
		installed = append(installed, it)
	}

	// The new lock.
	lf := lockFile{LockfileVersion: 3, Requires: true, Packages: map[string]lockEntry{}}
	if n, ok := project["name"].(string); ok {
		lf.Name = n
	}
	if v, ok := project["version"].(string); ok {
		lf.Version = v
	}
	lf.Packages[""] = lockEntry{Name: lf.Name, Dependencies: nilIfEmpty(deps), DevDeps: nilIfEmpty(devDeps)}
	for at, v := range in.placed {
		lf.Packages[at] = lockEntry{Version: v.Version, Resolved: v.Dist.Tarball, Integrity: integrityOf(v), Dev: devOnly[at], Dependencies: nilIfEmpty(v.Dependencies)}
	}
	newLock, err := json.MarshalIndent(lf, "", "  ")
	if err != nil {
		return nil, err
	}
	newLock = append(newLock, '\n')
	if opts.Frozen && !sameLock(oldLock, newLock) {
		return nil, failf("package-lock.json", "frozen: the lock would change (it is missing or does not match package.json)")
	}
	pj, err := json.MarshalIndent(project, "", "  ")
	if err != nil {
		return nil, err
	}
	pj = append(pj, '\n')
	if err := in.commit(ctx, dir, pj, newLock); err != nil {
		return nil, err
	}
	for _, it := range installed {
		in.log(fmt.Sprintf("added %s@%s", it.Name, it.Version))
	}
	return installed, nil
}

func (c *Client) maxPackages() int {
	if c.MaxPackages <= 0 {
		return 2000
	}
	return c.MaxPackages
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// sameLock compares two locks as JSON values.
func sameLock(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xa, yb)
}

// findFrom finds name the way Node's lookup does from the package at
// parent: parent's own node_modules, then each ancestor's.
func (in *installer) findFrom(parent, name string) (string, bool) {
	p := parent
	for {
		at := path.Join(p, "node_modules", name)
		if p == "" {
			at = "node_modules/" + name
		}
		if _, ok := in.placed[at]; ok {
			return at, true
		}
		if p == "" {
			return "", false
		}
		i := strings.LastIndex(p, "/node_modules/")
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
	}
}

// placeFor chooses where a new name goes: the top level when free, else
// under its parent.
func (in *installer) placeFor(parent, name string) string {
	top := "node_modules/" + name
	if _, taken := in.placed[top]; !taken {
		return top
	}
	return parent + "/node_modules/" + name
}

func satisfies(version, rng string) bool {
	if rng == "" || rng == "*" || rng == "latest" {
		return true
	}
	c, err := semver.NewConstraint(rng)
	if err != nil {
		return false
	}
	v, err := semver.NewVersion(version)
	return err == nil && c.Check(v)
}

func stringMap(v any) map[string]string {
	out := map[string]string{}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			if s, ok := x.(string); ok {
				out[k] = s
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// splitSpec splits "name@range" (the name may be scoped).
func splitSpec(spec string) (name, rng string) {
	i := strings.LastIndex(spec, "@")
	if i <= 0 {
		return spec, ""
	}
	return spec[:i], spec[i+1:]
}

// validName reports whether name is a package name (see nameProblem).
func validName(name string) bool { return nameProblem(name) == "" }

// nameProblem says what is wrong with name as a package name, "" when
// nothing: every name an install uses becomes a directory under
// node_modules, including those a registry or a package.json gives, so
// each must be a name npm itself accepts: at most 214 bytes, "name" or
// "@scope/name", each part made of the characters encodeURIComponent
// leaves alone (letters, digits and -._~!'()*: no "/", "\", "%", NUL or
// space) and not starting with "."; the whole not starting with "_" nor
// being node_modules or favicon.ico. Capitals are accepted, as npm does
// for the packages published before it refused them (JSONStream, which
// many packages still depend on): a capital can't move a path.
func nameProblem(name string) string {
	if name == "" {
		return "is empty"
	}
	if len(name) > 214 {
		return "is longer than 214 bytes"
	}
	if strings.HasPrefix(name, "_") {
		return "starts with _"
	}
	switch strings.ToLower(name) {
	case "node_modules", "favicon.ico":
		return "is a name npm reserves"
	}
	parts := []string{name}
	if strings.HasPrefix(name, "@") {
		scope, pkg, ok := strings.Cut(name[1:], "/")
		if !ok {
			return "is a scope without a name (@scope/name)"
		}
		parts = []string{scope, pkg}
	}
	for _, part := range parts {
		if part == "" {
			return "has an empty part"
		}
		if part[0] == '.' {
			return "has a part starting with ."
		}
		for i := 0; i < len(part); i++ {
			if !urlSafe(part[i]) {
				return fmt.Sprintf("holds %q, which a package name can't", part[i:i+1])
			}
		}
	}
	return ""
}

// urlSafe is what encodeURIComponent leaves as it is.
func urlSafe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!'()*", c) >= 0
}

// packument fetches (once per install) a package's registry document.
func (in *installer) packument(ctx context.Context, name string) (*packument, error) {
	if p, ok := in.packuments[name]; ok {
		return p, nil
	}
	if p, ok := in.c.cachedPackument(name); ok {
		in.packuments[name] = p
		in.log(fmt.Sprintf("resolved %s (%d versions, cached)", name, len(p.Versions)))
		return p, nil
	}
	u := in.c.registry() + "/" + strings.Replace(url.PathEscape(name), "%40", "@", 1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8")
	resp, err := in.c.http().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, failf(name, "registry %s is unreachable: %v", in.c.registry(), err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, failf(name, "no such package in the registry")
	case resp.StatusCode != http.StatusOK:
		return nil, failf(name, "registry answered %s", resp.Status)
	}
	var p packument
	body := &countingReader{r: io.LimitReader(resp.Body, 64<<20)}
	if err := json.NewDecoder(body).Decode(&p); err != nil {
		return nil, failf(name, "bad registry document: %v", err)
	}
	if p.Name != "" && p.Name != name {
		return nil, failf(name, "the registry's document is for %q", p.Name)
	}
	in.packuments[name] = &p
	in.c.storePackument(name, &p, body.n)
	in.log(fmt.Sprintf("resolved %s (%d versions)", name, len(p.Versions)))
	return &p, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (in *installer) version(ctx context.Context, name, version string) (*packageVersion, error) {
	p, err := in.packument(ctx, name)
	if err != nil {
		return nil, err
	}
	v, ok := p.Versions[version]
	if !ok {
		return nil, failf(name, "version %s is not in the registry", version)
	}
	if v.Name == "" {
		v.Name = name
	}
	if v.Version == "" {
		v.Version = version
	}
	if err := checkVersion(name, version, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// checkVersion refuses a registry's version document whose names would
// become paths it must not: its own name and version must be those it was
// asked for, and the names of the dependencies it brings in must be
// package names (see nameProblem), so that a registry can't place a
// package outside node_modules (a dependency named "../../../x").
func checkVersion(name, version string, v *packageVersion) error {
	id := name + "@" + version
	if v.Name != name {
		return failf(id, "the registry's version document names the package %q", v.Name)
	}
	if v.Version != version {
		return failf(id, "the registry's version document is version %q", v.Version)
	}
	if _, err := semver.NewVersion(version); err != nil {
		return failf(id, "the registry's version %q is not a semver version", version)
	}
	for _, dep := range sortedKeys(v.Dependencies) {
		if problem := nameProblem(dep); problem != "" {
			return failf(id, "dependencies: %q is not a package name: it %s", dep, problem)
		}
	}
	return nil
}

// resolve picks the version of name rng means: a dist-tag, an exact
// version, or the highest version in a semver range (not a prerelease
// unless the range names one).
func (in *installer) resolve(ctx context.Context, name, rng string) (*packageVersion, error) {
	p, err := in.packument(ctx, name)
	if err != nil {
		return nil, err
	}
	if rng == "" {
		rng = "latest"
	}
	if tag, ok := p.DistTags[rng]; ok {
		return in.version(ctx, name, tag)
	}
	if _, ok := p.Versions[rng]; ok {
		return in.version(ctx, name, rng)
	}
	cons, err := semver.NewConstraint(rng)
	if err != nil {
		return nil, failf(name, "%q is neither a version, a range nor a dist-tag", rng)
	}
	var best *semver.Version
	for s := range p.Versions {
		v, err := semver.NewVersion(s)
		if err != nil || !cons.Check(v) {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best = v
		}
	}
	if best == nil {
		return nil, failf(name, "no version matches %q", rng)
	}
	return in.version(ctx, name, best.Original())
}

func integrityOf(v *packageVersion) string {
	if v.Dist.Integrity != "" {
		return v.Dist.Integrity
	}
	if v.Dist.Shasum != "" {
		b, err := hex.DecodeString(v.Dist.Shasum)
		if err == nil {
			return "sha1-" + base64.StdEncoding.EncodeToString(b)
		}
	}
	return ""
}

// cacheDir is where a package with this integrity is unpacked.
func (c *Client) cacheDir(integrity string) string {
	sum := sha256.Sum256([]byte(integrity))
	return filepath.Join(c.CacheDir, "packages", hex.EncodeToString(sum[:]))
}

// fetch makes sure v is unpacked in the cache and returns its directory.
// A package unpacked now must fit room (not taken from: the copy into the
// stage takes it), so an install unpacks no more than its workspace could
// hold.
func (in *installer) fetch(ctx context.Context, v *packageVersion, room Room) (string, error) {
	integ := integrityOf(v)
	if integ == "" {
		return "", failf(v.Name+"@"+v.Version, "the registry gives no integrity hash")
	}
	dst := in.c.cacheDir(integ)
	if _, err := os.Stat(filepath.Join(dst, ".complete")); err == nil {
		in.log(fmt.Sprintf("cached %s@%s", v.Name, v.Version))
		return dst, nil
	}
	id := v.Name + "@" + v.Version
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.Dist.Tarball, nil)
	if err != nil {
		return "", failf(id, "bad tarball URL: %v", err)
	}
	resp, err := in.c.http().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", failf(id, "tarball download failed: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", failf(id, "tarball download answered %s", resp.Status)
	}
	max := in.c.maxBytes()
	if resp.ContentLength > max {
		return "", failf(id, "tarball is %d bytes, over the %d-byte limit", resp.ContentLength, max)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", failf(id, "tarball download failed: %v", err)
	}
	if int64(len(body)) > max {
		return "", failf(id, "tarball is over the %d-byte limit", max)
	}
	if err := verify(integ, body); err != nil {
		return "", failf(id, "%v", err)
	}
	in.log(fmt.Sprintf("fetched %s@%s (%d bytes, %s)", v.Name, v.Version, len(body), strings.SplitN(integ, "-", 2)[0]))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".unpack-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := unpack(body, tmp, max, &room); err != nil {
		if errors.Is(err, errNoRoom) {
			return "", in.overRoom(id)
		}
		return "", failf(id, "%v", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dst); err != nil {
		// Another install unpacked it meanwhile.
		if _, serr := os.Stat(filepath.Join(dst, ".complete")); serr == nil {
			return dst, nil
		}
		return "", err
	}
	return dst, nil
}

// verify checks body against a Subresource Integrity string (one or more
// "alg-base64" hashes; the strongest known one must match).
func verify(integrity string, body []byte) error {
	var h hash.Hash
	var want string
	rank := 0
	for _, f := range strings.Fields(integrity) {
		alg, b64, ok := strings.Cut(f, "-")
		if !ok {
			continue
		}
		var hh hash.Hash
		r := 0
		switch alg {
		case "sha512":
			hh, r = sha512.New(), 3
		case "sha256":
			hh, r = sha256.New(), 2
		case "sha1":
			hh, r = sha1.New(), 1
		}
		if r > rank {
			h, want, rank = hh, b64, r
		}
	}
	if h == nil {
		return fmt.Errorf("integrity %q names no known hash", integrity)
	}
	h.Write(body)
	if got := base64.StdEncoding.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("integrity mismatch: the tarball does not match %s", integrity)
	}
	return nil
}

// unpack extracts a package tarball into dir, dropping the first path
// component ("package/"). Entries that escape (.., absolute paths), links
// and devices are refused; the unpacked size is bounded by max, and every
// directory and file is charged to room before it is written (errNoRoom
// when it does not fit), so a package too big for the workspace costs
// the disk no more than the room it had.
func unpack(tgz []byte, dir string, max int64, room *Room) error {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return fmt.Errorf("tarball is not gzip: %v", err)
	}
	tr := tar.NewReader(zr)
	var total int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tarball is corrupt: %v", err)
		}
		name := hdr.Name
		if strings.HasPrefix(name, "/") || strings.Contains(name, "\\") {
			return fmt.Errorf("tarball entry %q is an absolute path", name)
		}
		for _, part := range strings.Split(name, "/") {
			if part == ".." {
				return fmt.Errorf("tarball entry %q escapes the package", name)
			}
		}
		switch hdr.Typeflag {
		case tar.TypeDir, tar.TypeReg, tar.TypeRegA:
		case tar.TypeSymlink, tar.TypeLink:
			return fmt.Errorf("tarball entry %q is a link (links are refused)", name)
		case tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			return fmt.Errorf("tarball entry %q has unsupported type %q", name, hdr.Typeflag)
		}
		_, rel, _ := strings.Cut(path.Clean(name), "/")
		if rel == "" {
			continue
		}
		target, err := safepath.JoinUnder(dir, rel)
		if err != nil {
			return fmt.Errorf("tarball entry %q: %v", name, err)
		}
		if hdr.Typeflag == tar.TypeDir {
			if err := mkdirs(dir, rel, room); err != nil {
				return err
			}
			continue
		}
		total += hdr.Size
		if total > max {
			return fmt.Errorf("package unpacks to more than %d bytes", max)
		}
		if err := mkdirs(dir, path.Dir(rel), room); err != nil {
			return err
		}
		if !room.take(false, hdr.Size) {
			return errNoRoom
		}
		f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, io.LimitReader(tr, hdr.Size))
		f.Close()
		if err != nil {
			return err
		}
	}
}

// mkdirs creates the directories of the slash path rel below root that
// are missing, each charged to room first (errNoRoom when it does not
// fit). rel has been through safepath.JoinUnder: no link on its way.
func mkdirs(root, rel string, room *Room) error {
	if rel == "." {
		return nil
	}
	p := root
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("tarball entry %s is both a file and a directory", rel)
			}
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if !room.take(true, 0) {
			return errNoRoom
		}
		if err := os.Mkdir(p, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// staged are the workspace's top-level entries an install replaces.
var staged = []string{"node_modules", "package.json", "package-lock.json"}

// commit builds node_modules, package.json and package-lock.json beside
// the workspace's, fetching (and verifying) each package as it goes and
// counting what it writes against the workspace's room (Options.Room),
// checks the workspace's limits as they would be, and swaps them in.
// Nothing the workspace's guests see changes before the swap: the stage
// is a hidden directory of the workspace, removed whatever happens, and
// the install holds the context's runs off meanwhile.
func (in *installer) commit(ctx context.Context, dir string, pj, lock []byte) error {
	stage, err := os.MkdirTemp(dir, ".npm-install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	room := unbounded()
	if in.opts.Room != nil {
		if room, err = in.opts.Room(ctx, filepath.Base(stage), staged); err != nil {
			return err
		}
	}
	in.room = room
	var biggest string
	var biggestBytes int64
	// Sorted, so that a parent's directory is staged (and counted) before
	// the packages nested in it.
	for _, at := range sortedKeys(in.placed) {
		if err := ctx.Err(); err != nil {
			return err
		}
		v := in.placed[at]
		id := v.Name + "@" + v.Version
		src, err := in.fetch(ctx, v, room)
		if err != nil {
			return err
		}
		dst, err := safepath.JoinUnder(stage, at)
		if err != nil {
			return failf(id, "install path %s: %v", at, err)
		}
		n, err := copytree.CopyCharged(src, dst, func(dir bool, size int64) error {
			if !room.take(dir, size) {
				return in.overRoom(id)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if n > biggestBytes || n == biggestBytes && id < biggest {
			biggest, biggestBytes = id, n
		}
	}
	if err := os.MkdirAll(filepath.Join(stage, "node_modules"), 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"package.json", pj}, {"package-lock.json", lock}} {
		if !room.take(false, int64(len(f.data))) {
			return in.overRoom(f.name)
		}
		if err := os.WriteFile(filepath.Join(stage, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	if in.opts.Measure != nil {
		over, desc, details, err := in.opts.Measure(ctx, filepath.Base(stage), staged)
		if err != nil {
			return err
		}
		if over {
			if details == nil {
				details = map[string]any{}
			}
			details["package"], details["reason"] = biggest, "over the workspace quota"
			return &Error{Code: wasmexec.CodeQuotaExceeded, Package: biggest, Details: details,
				Reason: fmt.Sprintf("the install would take the workspace over its limits (%s); the largest package is %s (%d bytes)", desc, biggest, biggestBytes)}
		}
	}
	// The swap: the old node_modules moves aside first, so a failure in
	// between can put it back.
	old := filepath.Join(stage, "old")
	nm := filepath.Join(dir, "node_modules")
	hadOld := false
	if _, err := os.Stat(nm); err == nil {
		if err := os.Rename(nm, old); err != nil {
			return err
		}
		hadOld = true
	}
	if err := os.Rename(filepath.Join(stage, "node_modules"), nm); err != nil {
		if hadOld {
			_ = os.Rename(old, nm)
		}
		return err
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		if err := os.Rename(filepath.Join(stage, f), filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	return nil
}
