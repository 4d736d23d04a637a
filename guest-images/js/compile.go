package main

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// program is user code compiled for one run.
type program struct {
	prg *goja.Program
	// mode says what running prg yields:
	//   - modeScript: the completion value;
	//   - modeCommonJS: a function (exports, require, module) to call; the
	//     value is module.exports afterwards.
	mode     int
	hasValue bool
}

const (
	modeScript = iota
	modeCommonJS
)

// cjsPrefix opens the CommonJS wrapper on the user's first line, so line
// numbers in stacks stay the user's own.
const (
	cjsPrefix = "(function (exports, require, module, __filename) { "
	cjsSuffix = "\n})"
)

// compile compiles user code as a script. Code that only parses with
// top-level await is run as the body of an async function whose last
// expression statement is returned (see wrapTopLevelAwait).
func compile(filename, code, format string) (*program, *errorData) {
	if format == "commonjs" {
		prg, err := goja.Compile(filename, cjsPrefix+code+cjsSuffix, false)
		if err != nil {
			return nil, syntaxError(err)
		}
		return &program{prg: prg, mode: modeCommonJS, hasValue: true}, nil
	}
	prg, err := goja.Compile(filename, code, false)
	if err != nil && strings.Contains(code, "await") {
		if wrapped, ok := wrapTopLevelAwait(filename, code); ok {
			if p2, err2 := goja.Compile(filename, wrapped, false); err2 == nil {
				prg, err = p2, nil
			}
		}
	}
	if err != nil {
		return nil, syntaxError(err)
	}
	return &program{prg: prg, mode: modeScript, hasValue: true}, nil
}

func syntaxError(err error) *errorData {
	ed := &errorData{Code: "syntax_error", Name: "SyntaxError", Message: err.Error()}
	if syn, ok := err.(*goja.CompilerSyntaxError); ok {
		ed.Message = syn.Message
		if syn.File != nil {
			pos := syn.File.Position(syn.Offset)
			ed.Details = map[string]any{"line": pos.Line, "column": pos.Column}
			ed.Stack = fmt.Sprintf("SyntaxError: %s\n\tat %s:%d:%d", syn.Message, syn.File.Name(), pos.Line, pos.Column)
		}
	}
	return ed
}
