package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
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
	// body is the code without the binding of the shared helpers its
	// first line had (script puts it back), and helpers the names that
	// binds (shareHelpers).
	body      string
	helpers   []string
	sourceMap string
}

// script is the converted code to run as a script: body with its helpers
// bound on its first line.
func (t *transformed) script() string { return helperBinding(t.helpers) + t.body }

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
	key := conversionKey(src, file)
	if t, ok := conversions.get(key); ok {
		return t, nil
	}
	if code, ok := shippedByKey[key]; ok {
		t := fromEsbuild(code)
		conversions.put(key, t)
		return t, nil
	}
	r := api.Transform(src, api.TransformOptions{
		TsconfigRaw: tsconfigRaw,
		Loader:      loaderFor(file),
		Format:      api.FormatCommonJS,
		Platform:    api.PlatformNode,
		Target:      api.ESNext,
		Sourcefile:  file,
		Sourcemap:   api.SourceMapInline,
		// The map serves positions only: without the sources goja parses
		// a fraction of it.
		SourcesContent: api.SourcesContentExclude,
		Supported:      lowered,
		LogLevel:       api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return nil, &r.Errors[0]
	}
	t := fromEsbuild(string(r.Code))
	conversions.put(key, t)
	return t, nil
}

// lowered is what esbuild must rewrite for goja: import() (a require in a
// promise, so a module written at run time loads), and the syntax goja
// can't parse or compile: async generators and for await (goja has
// neither async iteration nor Symbol.asyncIterator; esbuild's helpers fall
// back to Symbol.for("Symbol.asyncIterator"), which the guest makes the
// global), decorators and auto-accessors, using declarations, and regular
// expressions with the d or v flag (they become RegExp calls, which fail
// when they run, not when the module loads). Class static blocks,
// private methods and #x in obj goja has.
var lowered = map[string]bool{
	"dynamic-import":       false,
	"async-generator":      false,
	"for-await":            false,
	"decorators":           false,
	"using":                false,
	"regexp-match-indices": false,
	"regexp-set-notation":  false,
}

// fromEsbuild splits esbuild's CommonJS output into code and source map
// comment, and makes it fit for a cell (see transformed).
func fromEsbuild(code string) *transformed {
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
	t.helpers, t.body = shareHelpers(voidExportsAssignment(code))
	return t
}

// shipped is a conversion the host made ahead (wasmexec.Conversion): its
// code follows the request's JSON (request.decode).
type shipped struct {
	Key  string `json:"key"`
	Len  int    `json:"len"`
	Code string `json:"-"`
}

// addShipped keeps the host's conversions of this request: each is used
// (and then cached like the guest's own) when the guest is about to
// convert a source with its key.
func addShipped(list []shipped) {
	clear(shippedByKey)
	for _, c := range list {
		b, err := hex.DecodeString(c.Key)
		if err != nil || len(b) != 32 {
			continue
		}
		shippedByKey[[32]byte(b)] = c.Code
	}
}

// shippedByKey holds the request's shipped conversions, unprocessed.
var shippedByKey = map[[32]byte]string{}

// Conversions are cached by what they depend on (wasmexec.ConversionKey on the
// host computes the same key) (the source, its file name
// and the run's tsconfig), so a context that runs the same cell again, or
// reloads a module whose file was rewritten as it was, converts nothing:
// an esbuild transform costs a guest ~3 ms whatever the size of the code.
// The cache holds at most maxConversionBytes of converted code, the oldest
// going first.
const maxConversionBytes = 16 << 20

type conversionCache struct {
	byKey map[[32]byte]*transformed
	order [][32]byte
	bytes int
}

var conversions = conversionCache{byKey: map[[32]byte]*transformed{}}

func conversionKey(src, file string) [32]byte {
	h := sha256.New()
	for _, s := range []string{file, tsconfigRaw, src} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *conversionCache) get(k [32]byte) (*transformed, bool) {
	t, ok := c.byKey[k]
	return t, ok
}

func (c *conversionCache) put(k [32]byte, t *transformed) {
	size := len(t.body) + len(t.sourceMap)
	if size > maxConversionBytes {
		return
	}
	if _, ok := c.byKey[k]; ok {
		return
	}
	c.byKey[k] = t
	c.order = append(c.order, k)
	c.bytes += size
	for c.bytes > maxConversionBytes {
		old := c.order[0]
		c.order = c.order[1:]
		if o := c.byKey[old]; o != nil {
			c.bytes -= len(o.body) + len(o.sourceMap)
			delete(c.byKey, old)
		}
	}
}

// exportsAssignment starts the statement voidExportsAssignment wraps.
const exportsAssignment = "module.exports = __toCommonJS("

// voidExportsAssignment wraps each line of code that is exactly
// "module.exports = __toCommonJS(name);" (name an identifier) in void (...).
// A string scan: a multi-line regexp cost ~40 µs per module in wasm.
func voidExportsAssignment(code string) string {
	var b strings.Builder
	done := 0
	for from := 0; ; {
		i := strings.Index(code[from:], exportsAssignment)
		if i < 0 {
			break
		}
		i += from
		from = i + len(exportsAssignment)
		if i > 0 && code[i-1] != '\n' {
			continue
		}
		end := strings.IndexByte(code[from:], '\n')
		if end < 0 {
			end = len(code)
		} else {
			end += from
		}
		line := code[i:end]
		name, ok := strings.CutSuffix(line[len(exportsAssignment):], ");")
		if !ok || !isIdentifier(name) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(code) + 16)
		}
		b.WriteString(code[done:i])
		b.WriteString("void (")
		b.WriteString(line[:len(line)-1])
		b.WriteString(");")
		done = end
	}
	if done == 0 {
		return code
	}
	b.WriteString(code[done:])
	return b.String()
}

// isIdentifier reports whether s is a non-empty run of [A-Za-z0-9_$].
func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$') {
			return false
		}
	}
	return s != ""
}
