package main

import (
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// ES modules in a guest without them: goja runs scripts only, so every
// module (and a cell that imports or exports) is converted to CommonJS by
// esbuild's transform, inside the guest, as it is loaded. esbuild is
// patched (patch-esbuild.py) to keep a top-level await in CommonJS output
// instead of refusing it: the driver already runs such code in an async
// wrapper. import() is lowered to a require in a promise, so a module
// written at run time can be imported when the import runs. Positions stay
// the original file's: the output carries an inline source map, which goja
// applies to stack traces.

// cjsAnnotation is esbuild's trailer naming a CommonJS module's exports for
// Node's lexer; as the last statement it would become a cell's completion
// value, so it is cut.
const cjsAnnotation = "// Annotate the CommonJS export names for ESM import in node:\n"

// sourceMapPrefix starts the inline source map comment esbuild appends.
const sourceMapPrefix = "//# sourceMappingURL="

// transformed is a module converted to CommonJS: code without its source
// map comment, and that comment (goja wants it on the last line, after any
// wrapper the driver adds).
type transformed struct {
	code, sourceMap string
}

// tsconfigRaw is the run's tsconfig.json (tsconfigPath), or "": its
// compilerOptions (jsx, decorators, ...) apply to every conversion.
var tsconfigRaw string

// loaderFor chooses esbuild's loader by file extension.
func loaderFor(file string) api.Loader {
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

// transformESM converts src (named file) to CommonJS. A failure is a
// syntax error with esbuild's 1-based line and 0-based byte column.
func transformESM(src, file string) (*transformed, *api.Message) {
	r := api.Transform(src, api.TransformOptions{
		TsconfigRaw: tsconfigRaw,
		Loader:      loaderFor(file),
		Format:      api.FormatCommonJS,
		Platform:    api.PlatformNode,
		Target:      api.ESNext,
		Sourcefile:  file,
		Sourcemap:   api.SourceMapInline,
		Supported:   map[string]bool{"dynamic-import": false},
		LogLevel:    api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return nil, &r.Errors[0]
	}
	code := string(r.Code)
	t := &transformed{}
	if i := strings.LastIndex(code, sourceMapPrefix); i >= 0 {
		t.sourceMap = strings.TrimRight(code[i:], "\n")
		code = code[:i]
	}
	if i := strings.LastIndex(code, cjsAnnotation); i >= 0 {
		code = code[:i]
	}
	// The exports assignment esbuild puts first is an expression statement:
	// in a cell that declares only, it would be the completion value.
	t.code = exportsAssignment.ReplaceAllString(code, "void ($1);")
	return t, nil
}

var exportsAssignment = regexp.MustCompile(`(?m)^(module\.exports = __toCommonJS\([\w$]+\));$`)
