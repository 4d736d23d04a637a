package ts

import (
	"container/list"
	"context"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/js"
)

// The JS guest converts ES modules (and TypeScript files, and cells that
// import or export) to CommonJS with esbuild as it loads them
// (guest-images/js/esm.go). In wasm a conversion costs ~3 ms whatever the
// size of the code (esbuild's fixed cost per transform), so a two-file
// program run by filePath spent most of its time there. ModuleConverter
// does those conversions on the host instead, in the transpile worker
// processes (native, and contained like every esbuild call on untrusted
// code), caches them by content, and ships them with the control request;
// the guest takes a shipped conversion whose key (wasmexec.ConversionKey: file
// name, tsconfig, source) matches what it is about to convert, and
// converts itself otherwise. The host's esbuild is the guest's version
// with the guest's options; it lacks the guest's patch that keeps a
// top-level await in CommonJS, so a module with one is left to the guest.

// ConvertModule converts an ES module or TypeScript file named file (its
// path in the guest) to CommonJS exactly as the JS guest's loader does,
// returning esbuild's output (code and inline source map). Errors: a
// *SyntaxError when esbuild refuses the code. It runs esbuild in this
// process: untrusted code goes through Workers.ConvertModule.
func ConvertModule(code, file, tsconfig string) (string, error) {
	if err := checkSize(code); err != nil {
		return "", err
	}
	res := api.Transform(code, api.TransformOptions{
		TsconfigRaw:    tsconfig,
		Loader:         moduleLoader(file),
		Format:         api.FormatCommonJS,
		Platform:       api.PlatformNode,
		Target:         api.ESNext,
		Sourcefile:     file,
		Sourcemap:      api.SourceMapInline,
		SourcesContent: api.SourcesContentExclude,
		Supported:      map[string]bool{"dynamic-import": false},
		LogLevel:       api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", errorFromMessage(res.Errors[0], file, code)
	}
	return string(res.Code), nil
}

// moduleLoader is the guest's loaderFor.
func moduleLoader(file string) api.Loader {
	switch {
	case strings.HasSuffix(file, ".ts"), strings.HasSuffix(file, ".mts"), strings.HasSuffix(file, ".cts"):
		return api.LoaderTS
	case strings.HasSuffix(file, ".tsx"):
		return api.LoaderTSX
	case strings.HasSuffix(file, ".jsx"):
		return api.LoaderJSX
	}
	return api.LoaderJS
}

// ConvertModule is the package's ConvertModule in a worker process within
// ctx. Errors: as ConvertModule's, and Transpile's for the worker.
func (w *Workers) ConvertModule(ctx context.Context, code, file, tsconfig string) (string, error) {
	p, err := w.run(ctx, workerRequest{Code: code, Filename: file, Tsconfig: tsconfig, Module: true})
	if err != nil {
		return "", err
	}
	return p.JS, nil
}

// Limits of what one run gets converted on the host.
const (
	maxConvertFiles     = 64
	maxConvertFileBytes = 1 << 20
	maxConvertShipBytes = 8 << 20
	defaultConvertCache = 64 << 20
	defaultCellFilename = "main.js"
)

// moduleSyntax finds code that may be an ES module (a cheap filter: a
// false positive costs a conversion nobody uses).
var moduleSyntax = regexp.MustCompile(`\b(import|export)\b`)

// loadsModules finds a cell that may load a module.
var loadsModules = regexp.MustCompile(`\b(import|export|require)\b`)

// ModuleConverter converts a run's modules on the host (see above). Its
// zero value converts in this process (tests, trusted code); a server
// sets Workers. It is safe for concurrent use.
type ModuleConverter struct {
	// Workers run the conversions; nil runs them in this process.
	Workers *Workers
	// CacheBytes bounds the cached conversions (default 64 MiB).
	CacheBytes int64

	mu    sync.Mutex
	lru   *list.List // of *conversionEntry, most recent first
	byKey map[string]*list.Element
	bytes int64
}

type conversionEntry struct {
	key, code string
}

// ConvertRun converts what a run will likely convert: its files (guest
// paths below /workspace) with an ES module or TypeScript extension, or
// JavaScript that mentions import or export, and the cell code named
// filename when it does (nothing for a cell that mentions none of import,
// export and require: the guest would decode it for nothing); at most 64 files of at most 1 MiB, 8 MiB in all.
// Code esbuild refuses (or with top-level await) is left out: the guest
// converts it and reports what is wrong. A failure of the workers leaves
// the rest to the guest too; only the end of ctx stops it.
func (c *ModuleConverter) ConvertRun(ctx context.Context, files map[string]string, code, filename, tsconfig string) []wasmexec.Conversion {
	if code != "" && !loadsModules.MatchString(code) {
		return nil // a cell that imports nothing converts nothing
	}
	type job struct{ file, src string }
	var jobs []job
	if code != "" && moduleSyntax.MatchString(code) {
		if filename == "" {
			filename = defaultCellFilename
		}
		jobs = append(jobs, job{filename, code})
	}
	for rel, src := range files {
		if len(jobs) >= maxConvertFiles {
			break
		}
		ext := path.Ext(rel)
		switch ext {
		case ".mjs", ".mts", ".ts", ".tsx", ".jsx", ".cts":
		case ".js", ".cjs":
			if !moduleSyntax.MatchString(src) {
				continue
			}
		default:
			continue
		}
		if strings.HasSuffix(rel, ".d.ts") {
			continue
		}
		p, ok := js.GuestPath(rel) // "lib.mjs" and "/workspace/lib.mjs" alike
		if !ok {
			continue
		}
		jobs = append(jobs, job{p, stripShebang(src)})
	}
	var out []wasmexec.Conversion
	total := 0
	for _, j := range jobs {
		if len(j.src) > maxConvertFileBytes || ctx.Err() != nil {
			continue
		}
		key := wasmexec.ConversionKey(j.file, tsconfig, j.src)
		conv, ok := c.cached(key)
		if !ok {
			var err error
			if c.Workers != nil {
				conv, err = c.Workers.ConvertModule(ctx, j.src, j.file, tsconfig)
			} else {
				conv, err = ConvertModule(j.src, j.file, tsconfig)
			}
			if err != nil {
				continue
			}
			c.store(key, conv)
		}
		if total+len(conv) > maxConvertShipBytes {
			continue
		}
		total += len(conv)
		out = append(out, wasmexec.Conversion{Key: key, Code: conv})
	}
	return out
}

// stripShebang is the guest's: a #! line becomes a comment.
func stripShebang(src string) string {
	if strings.HasPrefix(src, "#!") {
		return "//" + src[2:]
	}
	return src
}

func (c *ModuleConverter) cached(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return "", false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*conversionEntry).code, true
}

func (c *ModuleConverter) store(key, code string) {
	max := c.CacheBytes
	if max == 0 {
		max = defaultConvertCache
	}
	size := int64(len(key) + len(code))
	if size > max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		c.lru, c.byKey = list.New(), map[string]*list.Element{}
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.lru.PushFront(&conversionEntry{key: key, code: code})
	c.bytes += size
	for c.bytes > max {
		e := c.lru.Remove(c.lru.Back()).(*conversionEntry)
		delete(c.byKey, e.key)
		c.bytes -= int64(len(e.key) + len(e.code))
	}
}
