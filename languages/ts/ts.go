// Package ts runs TypeScript by transpiling it to JavaScript for the goja
// guest, and maps positions in that JavaScript back to the TypeScript source.
//
// Transpile strips types with esbuild (github.com/evanw/esbuild, Go API, no
// bundling, no type checking — see languages/ts/tscheck for that) and keeps
// what the JS guest relies on: top-level await, ES module syntax as written,
// and the last expression statement (whose completion value is the result of
// an evaluate). A TypeScript syntax error comes back as a *SyntaxError with a
// 1-based line and a 1-based UTF-16 column in the original source, the
// convention TypeScript users and editors expect.
//
// esbuild is not safe to run on untrusted code in the server process: it
// parses recursively and cannot be cancelled, so deeply nested input ends
// the whole process (a Go stack overflow is fatal, not a panic) and a few
// shapes take exponential time. So esbuild is contained, not predicted: the
// server transpiles in worker processes (Workers, `wasmexec
// ts-transpile-worker`) with a memory cap, a goroutine stack limit and a
// deadline. A worker that crashes, runs out of memory or stack, or overruns
// costs only its request, which fails with code transpile_failed
// (*TranspileError); the next request gets a fresh worker. Transpile itself
// runs esbuild in the calling process: it is for workers, tests and trusted
// code. A TranspileCache in front of either keeps transpiles by content, so
// code run again skips the transpiler (Driver.Cache).
//
// A *Program carries the generated JavaScript and its source map. Run
// Program.JS in goja under the name Program.Filename, then pass anything goja
// reports (stacks, error messages, positions) through MapStack,
// MapErrorPosition, MapPosition or MapErrorData to talk about the TypeScript
// source instead.
//
// Everything here is safe for concurrent use: Transpile keeps no shared state,
// Workers serves concurrent requests, TranspileCache locks, and a Program is
// immutable once returned (its source map index is built lazily, once, under
// a sync.Once).
//
// Size: transpiling, its cache, module conversion, source maps and their
// worker processes belong together; each file is one of them.
package ts

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/wasmexec/wasmexec"
)

// DefaultFilename is the name used when Transpile is given an empty one.
const DefaultFilename = "main.ts"

// Program is TypeScript transpiled to JavaScript, ready for the JS guest.
type Program struct {
	// JS is the generated JavaScript. It is script-or-module code exactly as
	// written (imports/exports and top-level await are kept as is); the
	// last expression statement of the source is still the last expression
	// statement here. Its first line is always empty (see
	// keepFirstLineEmpty) and it never ends with a sourceMappingURL comment.
	JS string

	// Filename is the name the program must be run under (the filename
	// argument to goja's RunScript/Compile), so that positions in goja's
	// stacks and errors can be recognised and mapped back.
	Filename string

	// SourceMap is esbuild's source map (JSON, version 3, one source named
	// Filename, no sourcesContent).
	SourceMap []byte

	once   sync.Once
	idx    *lineMap
	idxErr error
}

// transformOptions are the esbuild options for every transpile. They are a
// value, copied per call, so nothing is shared between goroutines.
func transformOptions(filename string) api.TransformOptions {
	loader := api.LoaderTS
	if strings.HasSuffix(filename, ".tsx") {
		loader = api.LoaderTSX
	}
	return api.TransformOptions{
		Loader:     loader,
		Sourcefile: filename,
		// External: the map comes back in TransformResult.Map and the code
		// gets no sourceMappingURL comment (goja would otherwise try to
		// load and apply it itself).
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		// Format is deliberately left unset: esbuild then neither wraps the
		// code (an IIFE/CJS wrapper would hide the completion value) nor
		// rejects top-level await, and import/export stay as written.
		Target: api.ESNext,
		// goja (v0.0.0-20260917113740-793a2a65c13b) cannot parse these
		// ES2022+ features, and esbuild can lower them, so lower them rather
		// than hand goja code it will reject. Everything else stays esnext.
		// (Checked in TestGojaUnsupportedSyntaxIsLowered.)
		Supported: map[string]bool{
			"decorators":      false, // @dec on classes / members
			"using":           false, // using / await using declarations
			"async-generator": false, // async function* (goja: "not supported yet")
			"for-await":       false, // for await (...) loops
		},
		// No minification: names and statements stay readable and the
		// final expression statement is never dropped as "unused".
		// Legal comments are dropped so no user comment (e.g. a
		// "//# sourceMappingURL=" line tagged @license) reaches goja.
		LegalComments: api.LegalCommentsNone,
		// Charset stays at esbuild's default (ASCII): non-ASCII characters in
		// strings and identifiers are escaped, so goja's byte columns equal
		// the source map's UTF-16 columns on almost every line (regular
		// expression literals keep raw non-ASCII; MapPosition converts).
	}
}

// MaxSourceBytes is the largest source Transpile takes: a cheap pre-filter
// (everything else about a hostile input is left to the worker's limits),
// which also keeps a worker's answer (the JavaScript and its source map)
// well inside one protocol frame.
const MaxSourceBytes = 16 << 20

// checkSize refuses a source over MaxSourceBytes (wasmexec.ETooLarge).
func checkSize(code string) error {
	if len(code) > MaxSourceBytes {
		return wasmexec.Errorf(wasmexec.ETooLarge, "the TypeScript source is %d bytes; the transpiler takes at most %d", len(code), MaxSourceBytes)
	}
	return nil
}

// Transpile converts TypeScript to JavaScript for the goja guest, running
// esbuild in this process: hostile input can crash the process or never
// return, so untrusted code goes through Workers.
//
// filename names the source in positions and stacks (DefaultFilename if
// empty); run the result under Program.Filename.
//
// Errors: a *SyntaxError when the code does not parse (esbuild reports only
// the first one; its ErrorData has code "syntax_error"), a *TranspileError
// when esbuild reports an internal error (a recovered panic), and
// wasmexec.ETooLarge past MaxSourceBytes. It is safe for concurrent use.
func Transpile(code, filename string) (*Program, error) {
	return TranspileWith(code, filename, "")
}

// TranspileWith is Transpile under tsconfig, the text of a tsconfig.json
// ("" for none; strict JSON, see ParseTsconfig): its compilerOptions that
// change what the code means apply (jsx, jsxFactory, jsxFragmentFactory,
// jsxImportSource, experimentalDecorators, useDefineForClassFields,
// verbatimModuleSyntax, preserveValueImports, importsNotUsedAsValues) and
// its target lowers the output (es5 and below count as es2015, the oldest
// esbuild emits). With jsx set, a file named .ts is parsed as TSX. paths
// and baseUrl are for resolution: the guest applies them. Errors: as
// Transpile's, and wasmexec.EInvalid for a tsconfig that does not parse.
func TranspileWith(code, filename, tsconfig string) (*Program, error) {
	if filename == "" {
		filename = DefaultFilename
	}
	if err := checkSize(code); err != nil {
		return nil, err
	}
	opts := transformOptions(filename)
	if tsconfig != "" {
		tc, err := ParseTsconfig(tsconfig)
		if err != nil {
			return nil, err
		}
		opts.TsconfigRaw = tsconfig
		if tc.CompilerOptions.JSX != "" {
			opts.Loader = api.LoaderTSX
		}
		if t, ok := esbuildTarget(tc.CompilerOptions.Target); ok {
			opts.Target = t
		}
	}
	res := api.Transform(code, opts)
	if len(res.Errors) > 0 {
		return nil, errorFromMessage(res.Errors[0], filename, code)
	}
	js, sm := keepFirstLineEmpty(string(res.Code), res.Map)
	return &Program{
		JS:        js,
		Filename:  filename,
		SourceMap: sm,
	}, nil
}

// keepFirstLineEmpty makes line 1 of the generated JavaScript empty, so that
// nothing of the program shares a line with code the JS guest puts in front
// of it: for top-level await the guest runs "(async () => {" + code + …,
// which would otherwise shift every column of line 1. A hashbang line
// (meaningless in the guest) is emptied in place; otherwise a line break is
// prepended and the source map shifted by one generated line (a leading ';'
// in its mappings).
func keepFirstLineEmpty(js string, sm []byte) (string, []byte) {
	if strings.HasPrefix(js, "#!") {
		if nl := strings.IndexByte(js, '\n'); nl >= 0 {
			return js[nl:], sm
		}
		return "", sm
	}
	const field = `"mappings": "`
	i := bytes.Index(sm, []byte(field))
	if i < 0 {
		return js, sm // unexpected map layout: leave both alone
	}
	i += len(field)
	shifted := make([]byte, 0, len(sm)+1)
	shifted = append(append(append(shifted, sm[:i]...), ';'), sm[i:]...)
	return "\n" + js, shifted
}

// index returns the decoded source map, building it on first use.
func (p *Program) index() (*lineMap, bool) {
	p.once.Do(func() {
		p.idx, p.idxErr = decodeSourceMap(p.SourceMap, p.JS)
	})
	return p.idx, p.idxErr == nil
}

// MapPosition maps a position in Program.JS, as goja reports it (1-based
// line, 1-based column counted in bytes of the line), to the TypeScript
// source: a 1-based line and a 1-based UTF-16 column. The column is that of
// the start of the mapped source construct (the same answer a browser's
// source-map support gives), not an offset into it.
//
// ok is false when the line has no mapping: a position outside the program
// or inside code esbuild generated with no TypeScript counterpart (helpers
// it injects to lower decorators, `using` and async generators).
func (p *Program) MapPosition(line, col int) (srcLine, srcCol int, ok bool) {
	if p == nil || line < 1 || col < 1 {
		return 0, 0, false
	}
	m, ok := p.index()
	if !ok {
		return 0, 0, false
	}
	text, ok := m.jsLine(p.JS, line-1)
	if !ok {
		return 0, 0, false
	}
	l, c, ok := m.lookup(line-1, byteToUTF16Col(text, col-1))
	if !ok {
		return 0, 0, false
	}
	return l + 1, c + 1, true
}

// Tsconfig is the part of a tsconfig.json wasmexec reads itself.
type Tsconfig struct {
	CompilerOptions struct {
		Target  string              `json:"target"`
		JSX     string              `json:"jsx"`
		BaseURL string              `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// ParseTsconfig parses a tsconfig.json as strict JSON (no comments, no
// trailing commas: what the JavaScript guest reads too). Errors:
// wasmexec.EInvalid naming what does not parse.
func ParseTsconfig(text string) (*Tsconfig, error) {
	var tc Tsconfig
	if err := json.Unmarshal([]byte(text), &tc); err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "tsconfig does not parse as JSON: %v", err)
	}
	return &tc, nil
}

// esbuildTarget maps a tsconfig target to esbuild's.
func esbuildTarget(t string) (api.Target, bool) {
	switch strings.ToLower(t) {
	case "es3", "es5", "es6", "es2015":
		return api.ES2015, true
	case "es2016":
		return api.ES2016, true
	case "es2017":
		return api.ES2017, true
	case "es2018":
		return api.ES2018, true
	case "es2019":
		return api.ES2019, true
	case "es2020":
		return api.ES2020, true
	case "es2021":
		return api.ES2021, true
	case "es2022":
		return api.ES2022, true
	case "es2023":
		return api.ES2023, true
	case "es2024":
		return api.ES2024, true
	case "esnext":
		return api.ESNext, true
	}
	return 0, false
}
