package main

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// asyncPrefix opens the wrapper on the user's first line, so line numbers in
// stack traces stay the user's own (columns on line 1 shift by its length).
const asyncPrefix = "(async () => {"

// wrapTopLevelAwait rewrites code that uses top-level await into an async
// arrow function whose last expression statement is returned, so awaiting the
// call yields the completion value. Top-level declarations become local to
// that function (documented: assign to globalThis to keep them in a context).
func wrapTopLevelAwait(filename, code string) (string, bool) {
	src := asyncPrefix + code + "\n})()"
	prg, err := parser.ParseFile(nil, filename, src, 0)
	if err != nil || len(prg.Body) != 1 {
		return "", false
	}
	es, ok := prg.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return "", false
	}
	call, ok := es.Expression.(*ast.CallExpression)
	if !ok {
		return "", false
	}
	fn, ok := call.Callee.(*ast.ArrowFunctionLiteral)
	if !ok {
		return "", false
	}
	body, ok := fn.Body.(*ast.BlockStatement)
	if !ok || len(body.List) == 0 {
		return src, true
	}
	last, ok := body.List[len(body.List)-1].(*ast.ExpressionStatement)
	if !ok {
		return src, true
	}
	start := int(last.Expression.Idx0()) - 1 // file.Idx is 1-based
	end := int(last.Expression.Idx1()) - 1
	if start < 0 || end > len(src) || start >= end {
		return src, true
	}
	return src[:start] + "return (" + src[start:end] + ");" + src[end:], true
}
