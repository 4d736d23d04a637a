// Package tscheck type-checks TypeScript with the official compilers
// (guest-images/typescript) in worker processes.
//
// NativePool runs TypeScript 7 (typescript@7.0.2, the native compiler) in
// its API mode: each worker is a compiler process, contained from outside
// (native_proc.go), fed the check's files through the API's file-system
// callbacks (native_fs.go); a warm check is a snapshot update and a few
// diagnostics requests (native.go), ~2 ms. docs/RATIONALE.md says why API
// mode and how it is contained.
//
// Pool runs TypeScript 5.9.3 in goja. It keeps Size worker processes (`wasmexec tscheck-worker`, whose body
// is WorkerMain). Each worker compiles typescript.js once, pre-warms the
// configured lib sets, and keeps the parsed lib SourceFiles and the previous
// program across checks, so a warm check of a small file costs ~65–85 ms of
// CPU rather than seconds. Workers see no file system: user files and
// /lib/lib.*.d.ts are served from memory, with noEmit, types: [] and
// libReplacement: false.
//
// Outcomes: type errors are Succeeded with HasErrors and Diagnostics.
// TimedOut and Failed mean the checker itself could not finish: a deadline
// (the worker interrupts the VM; the pool kills the process a grace period
// later if that does not work), the worker dying (Failed with
// wasmexec.CodeMemoryLimit when it ran out of its RLIMIT_DATA, else
// wasmexec.CodeInternal), or input nested too deeply (wasmexec.CodeStackOverflow).
// A dead worker costs only its check and is replaced in the background.
//
// Defaults when a request leaves them unset: target es2022, lib ["es2022"],
// strict true, module esnext, moduleResolution bundler. Every other option
// left nil keeps the compiler's own default.
//
// The globals the JavaScript guest gives every run (console, the timers,
// inputs, stdin, process, fs, __dirname) are declared by ambient lib files
// (sandbox.go), on by default (CompilerOptions.SandboxGlobals); one the
// chosen libs (dom, webworker) or the user's code declares is left to them.
//
// Size: the checker's worker pool, its wire protocol and the sandbox's ambient
// declarations belong together; each file is one of them.
package tscheck

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wasmexec/wasmexec"
)

// Request is one type check. Code alone is the single file /main.ts. Files
// maps paths ("main.ts", "src/util.ts", "/a.ts": all rooted at /) to source
// text; relative imports between them resolve. FilePath, when set, names the
// one file whose diagnostics are reported (the program still includes all
// files); by default every file is checked. Timeout bounds the check once a
// worker runs it (default DefaultTimeout); ctx bounds the whole call,
// including the wait for a free worker.
type Request struct {
	Code            string
	Files           map[string]string
	FilePath        string
	CompilerOptions CompilerOptions
	Timeout         time.Duration

	// Options and TsconfigPath are read by the TypeScript 7 checker
	// (NativePool) instead of CompilerOptions: compilerOptions spelled as
	// in a tsconfig.json (the compiler validates them), and one of Files
	// that the check's project extends as its tsconfig.
	Options      map[string]json.RawMessage
	TsconfigPath string
}

// CompilerOptions are the compiler options a request may set. Nil pointers
// and empty strings mean "not set" (see the package doc for defaults), so an
// unset option is not the same as false.
type CompilerOptions struct {
	Strict                     *bool    `json:"strict,omitempty"`
	Target                     string   `json:"target,omitempty"` // es5 … es2024, esnext; default es2022
	Lib                        []string `json:"lib,omitempty"`    // default ["es2022"]; "dom" available
	Module                     string   `json:"module,omitempty"`
	ModuleResolution           string   `json:"moduleResolution,omitempty"`
	JSX                        string   `json:"jsx,omitempty"`
	NoImplicitAny              *bool    `json:"noImplicitAny,omitempty"`
	StrictNullChecks           *bool    `json:"strictNullChecks,omitempty"`
	NoUnusedLocals             *bool    `json:"noUnusedLocals,omitempty"`
	NoUnusedParameters         *bool    `json:"noUnusedParameters,omitempty"`
	ExactOptionalPropertyTypes *bool    `json:"exactOptionalPropertyTypes,omitempty"`
	NoImplicitReturns          *bool    `json:"noImplicitReturns,omitempty"`
	NoUncheckedIndexedAccess   *bool    `json:"noUncheckedIndexedAccess,omitempty"`
	NoImplicitOverride         *bool    `json:"noImplicitOverride,omitempty"`
	// BaseURL and Paths resolve non-relative imports as a tsconfig.json's
	// do; BaseURL is a path rooted at / (see OptionsFromTsconfig for the
	// relative one of a tsconfig).
	BaseURL string              `json:"baseUrl,omitempty"`
	Paths   map[string][]string `json:"paths,omitempty"`
	// SandboxGlobals (a wasmexec option, default true) declares the globals
	// the JavaScript guest provides; false checks against the libs alone.
	SandboxGlobals *bool `json:"sandboxGlobals,omitempty"`
}

// OptionsFromTsconfig reads the compilerOptions of a tsconfig.json (text,
// strict JSON) found at tsconfigPath among a check's files: the options
// CompilerOptions has are taken, others ignored; baseUrl is resolved
// against the tsconfig's directory, which is also the base of paths when
// there is no baseUrl (as tsc does). Errors: wasmexec.EInvalid.
func OptionsFromTsconfig(text, tsconfigPath string) (CompilerOptions, error) {
	var tc struct {
		CompilerOptions CompilerOptions `json:"compilerOptions"`
	}
	if err := json.Unmarshal([]byte(text), &tc); err != nil {
		return CompilerOptions{}, wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath: %s does not parse as JSON: %v", tsconfigPath, err)
	}
	o := tc.CompilerOptions
	o.SandboxGlobals = nil
	dir := path.Dir(path.Clean("/" + tsconfigPath))
	switch {
	case o.BaseURL != "":
		o.BaseURL = path.Join(dir, o.BaseURL)
	case len(o.Paths) > 0:
		o.BaseURL = dir
	}
	return o, nil
}

// Diagnostic is one compiler diagnostic as tsc prints it: Message has
// chained messages flattened with a newline and two spaces per level; Line
// and Column are 1-based, Column counting UTF-16 code units. Diagnostics
// without a file (option errors, missing globals) have FilePath "" and
// Line/Column 0. FilePath is the path as the request spelled it; lib files
// appear as /lib/lib.*.d.ts.
type Diagnostic struct {
	Code     int    `json:"code"`
	Category string `json:"category"` // error | warning | suggestion | message
	Message  string `json:"message"`
	FilePath string `json:"filePath"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// Result is the outcome of one check. Error is set when Outcome is not
// Succeeded.
type Result struct {
	Outcome           wasmexec.Outcome    `json:"outcome"`
	HasErrors         bool                `json:"hasErrors"`
	Diagnostics       []Diagnostic        `json:"diagnostics"`
	Error             *wasmexec.ErrorData `json:"error,omitempty"`
	TypeScriptVersion string              `json:"typeScriptVersion"`
	DurationMs        float64             `json:"durationMs"`

	workerCPUMs float64 // the worker's CPU time for the check (benchmarks)
}

// Limits on requests.
const (
	DefaultTimeout = 30 * time.Second
	MaxTimeout     = 10 * time.Minute
	maxSourceBytes = 16 << 20 // sum of all sources; larger → payload_too_large
	maxFiles       = 1000
	defaultMain    = "/main.ts"
)

var defaultLibs = []string{"es2022"}

// tsOptions turns the request's options into tsconfig-style compilerOptions
// for ts.convertCompilerOptionsFromJson, with the package defaults applied.
// The bool says whether a chosen lib declares the DOM's globals (console,
// the timers).
func (o CompilerOptions) tsOptions() (map[string]any, bool) {
	m := map[string]any{
		"target":           "es2022",
		"strict":           true,
		"module":           "esnext",
		"moduleResolution": "bundler",
	}
	setStr := func(name, v string) {
		if v != "" {
			m[name] = strings.ToLower(v)
		}
	}
	setStr("target", o.Target)
	setStr("module", o.Module)
	setStr("moduleResolution", o.ModuleResolution)
	setStr("jsx", o.JSX)
	if o.BaseURL != "" {
		m["baseUrl"] = path.Clean("/" + o.BaseURL)
	}
	if len(o.Paths) > 0 {
		m["paths"] = o.Paths
	}
	for name, v := range map[string]*bool{
		"strict":                     o.Strict,
		"noImplicitAny":              o.NoImplicitAny,
		"strictNullChecks":           o.StrictNullChecks,
		"noUnusedLocals":             o.NoUnusedLocals,
		"noUnusedParameters":         o.NoUnusedParameters,
		"exactOptionalPropertyTypes": o.ExactOptionalPropertyTypes,
		"noImplicitReturns":          o.NoImplicitReturns,
		"noUncheckedIndexedAccess":   o.NoUncheckedIndexedAccess,
		"noImplicitOverride":         o.NoImplicitOverride,
	} {
		if v != nil {
			m[name] = *v
		}
	}
	libs := o.Lib
	if len(libs) == 0 {
		libs = defaultLibs
	}
	lower := make([]string, len(libs))
	domLibs := false
	for i, l := range libs {
		lower[i] = strings.ToLower(l)
		if lower[i] == "dom" || lower[i] == "webworker" {
			domLibs = true
		}
	}
	m["lib"] = lower
	return m, domLibs
}

// sandboxOn says whether the sandbox's globals are declared (default on).
func (o CompilerOptions) sandboxOn() bool { return o.SandboxGlobals == nil || *o.SandboxGlobals }

// enumOptions are the string-valued options validated against the values
// the compiler itself accepts (reported by the worker at start).
var enumOptions = map[string]func(CompilerOptions) string{
	"target":           func(o CompilerOptions) string { return o.Target },
	"module":           func(o CompilerOptions) string { return o.Module },
	"moduleResolution": func(o CompilerOptions) string { return o.ModuleResolution },
	"jsx":              func(o CompilerOptions) string { return o.JSX },
}

// validateOptions checks target/module/… and lib names against what the
// compiler accepts. libs and enums come from the worker's ready message.
func validateOptions(o CompilerOptions, libs map[string]bool, enums map[string][]string) error {
	for name, get := range enumOptions {
		v := strings.ToLower(get(o))
		if v == "" {
			continue
		}
		allowed := enums[name]
		if name == "target" {
			allowed = without(allowed, "es3") // removed in TypeScript 5.5
		}
		if !contains(allowed, v) {
			return wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.%s: unknown value %q (allowed: %s)", name, get(o), strings.Join(allowed, ", "))
		}
	}
	if len(o.Paths) > 1000 {
		return wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.paths: too many entries (%d)", len(o.Paths))
	}
	if len(o.Lib) > 64 {
		return wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.lib: too many entries (%d)", len(o.Lib))
	}
	for _, l := range o.Lib {
		if !libs[strings.ToLower(l)] {
			return wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.lib: unknown lib %q (e.g. es2022, esnext, dom, dom.iterable, webworker)", l)
		}
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

func without(list []string, v string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s != v {
			out = append(out, s)
		}
	}
	return out
}

// isTSFile reports whether a path is a program root (TypeScript source or
// declaration file). Other files (package.json, .js) are only readable.
func isTSFile(p string) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// prepared is a validated request ready for a worker.
type prepared struct {
	payload *checkPayload
	// toUser maps the compiler's path back to the path the request used.
	toUser  map[string]string
	timeout time.Duration
}

// normalizePath roots a request path at "/". The second result is false for
// paths that cannot name a user file.
func normalizePath(p string) (string, bool) {
	if p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, `\`) {
		return "", false
	}
	n := path.Clean("/" + p)
	if n == "/" || strings.HasSuffix(p, "/") {
		return "", false
	}
	// /lib/lib.*.d.ts are the compiler's own lib files.
	if dir, file := path.Split(n); dir == "/lib/" && strings.HasPrefix(file, "lib.") && strings.HasSuffix(file, ".d.ts") {
		return "", false
	}
	return n, true
}

// prepare validates a request (wasmexec.EInvalid, wasmexec.ETooLarge) and builds the
// worker payload.
func prepare(req Request, libs map[string]bool, enums map[string][]string) (*prepared, error) {
	if err := validateOptions(req.CompilerOptions, libs, enums); err != nil {
		return nil, err
	}
	pf, err := prepareFiles(req, maxFiles)
	if err != nil {
		return nil, err
	}
	opts, domLibs := req.CompilerOptions.tsOptions()
	return &prepared{
		payload: &checkPayload{
			Files:      pf.files,
			Roots:      pf.roots,
			CheckFiles: pf.checkFiles,
			Options:    opts,
			Ambient:    sandboxFiles(req.CompilerOptions.sandboxOn(), domLibs, pf.files),
		},
		toUser:  pf.toUser,
		timeout: pf.timeout,
	}, nil
}

// preparedFiles are a request's validated files, common to both checkers.
type preparedFiles struct {
	files      map[string]string // normalized path → text
	toUser     map[string]string // normalized path → the request's spelling
	roots      []string          // the TypeScript files, sorted
	checkFiles []string          // the files whose diagnostics are reported (nil: all)
	timeout    time.Duration
}

// prepareFiles validates a request's timeout, files and filePath.
func prepareFiles(req Request, maxFiles int) (*preparedFiles, error) {
	if req.Timeout < 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "timeout must not be negative")
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout > MaxTimeout {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "timeout %v exceeds the maximum %v", req.Timeout, MaxTimeout)
	}

	files := make(map[string]string, len(req.Files)+1)
	toUser := make(map[string]string, len(req.Files)+1)
	total := 0
	add := func(userPath, text string) error {
		n, ok := normalizePath(userPath)
		if !ok {
			return wasmexec.Errorf(wasmexec.EInvalid, "files: invalid path %q", userPath)
		}
		if _, dup := files[n]; dup {
			return wasmexec.Errorf(wasmexec.EInvalid, "files: %q names the same file as %q", userPath, toUser[n])
		}
		if !utf8.ValidString(text) {
			return wasmexec.Errorf(wasmexec.EInvalid, "files: %q is not valid UTF-8", userPath)
		}
		total += len(text)
		if total > maxSourceBytes {
			return wasmexec.Errorf(wasmexec.ETooLarge, "sources exceed %d bytes", maxSourceBytes)
		}
		files[n] = text
		toUser[n] = userPath
		return nil
	}
	if len(req.Files) > maxFiles {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "files: at most %d files", maxFiles)
	}
	// Sorted, so the error for a bad request does not depend on map order.
	keys := make([]string, 0, len(req.Files))
	for k := range req.Files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := add(k, req.Files[k]); err != nil {
			return nil, err
		}
	}
	if req.Code != "" || len(req.Files) == 0 {
		if req.Code == "" {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "code or files is required")
		}
		// Code is the file filePath names when files do not have it,
		// else /main.ts.
		name := defaultMain
		if n, ok := normalizePath(req.FilePath); ok {
			if _, inFiles := files[n]; !inFiles {
				name = req.FilePath
			}
		}
		if _, dup := files[defaultMain]; dup && name == defaultMain {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "code and files[%q] both given", toUser[defaultMain])
		}
		if err := add(name, req.Code); err != nil {
			return nil, err
		}
	}

	var roots []string
	for n := range files {
		if isTSFile(n) {
			roots = append(roots, n)
		}
	}
	if len(roots) == 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "files: no TypeScript file (.ts, .tsx, .mts, .cts)")
	}
	sort.Strings(roots)

	var checkFiles []string
	if req.FilePath != "" {
		n, ok := normalizePath(req.FilePath)
		if _, exists := files[n]; !ok || !exists {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "filePath %q is not one of the files", req.FilePath)
		}
		if !isTSFile(n) {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "filePath %q is not a TypeScript file", req.FilePath)
		}
		checkFiles = []string{n}
	}

	return &preparedFiles{files: files, toUser: toUser, roots: roots, checkFiles: checkFiles, timeout: timeout}, nil
}
