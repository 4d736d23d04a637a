package main

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/evanw/esbuild/pkg/api"
)

// program is user code compiled for one run.
type program struct {
	prg *goja.Program
	// mode says what running prg yields:
	//   - modeScript: the completion value (what eval would return);
	//   - modeAsync: a promise (the code had top-level await) of a one-element
	//     array holding the completion value (see returnLastValue), or of
	//     undefined when there is none;
	//   - modeCommonJS: a function (exports, require, module) to call; the
	//     value is module.exports afterwards.
	mode int
	// module is code that was converted from ES module syntax: it ran
	// with the globals module and exports, and its exports stay visible.
	module bool
	// forAwait: the code has a for await loop, which compile lowered
	// itself (see lowerForAwait).
	forAwait bool
}

const (
	modeScript = iota
	modeAsync
	modeCommonJS
)

// The wrappers open on the user's first line, so line numbers in stacks stay
// the user's own; columns on line 1 shift by the prefix (syntax error
// positions are shifted back). TypeScript relies on asyncPrefix staying on
// line 1 (its line 1 is always empty; see languages/ts).
const (
	asyncPrefix = "(async () => {"
	asyncSuffix = "\n})()"
	cjsPrefix   = "(function (exports, require, module, __filename) { "
	cjsSuffix   = "\n})"
)

// compile parses and compiles user code. Code that contains `await` is first
// parsed as the body of an async arrow function; if that parses and awaits
// at its top level (outside any nested function), it runs that way: this is
// a real parse, so every form of top-level await is found (parenthesized,
// in template literals, in destructuring, `await (f)()`, `for await`).
// Otherwise the code is a plain script. A failure is a syntax_error whose
// details carry the 1-based line and UTF-16 column in the user's code.
//
// Syntax goja lacks (async generators, decorators, using declarations; see
// lowered) fails goja's parse or compile: such code goes through esbuild,
// which rewrites it into code goja runs. So does code with for await,
// which compile's own lowering handles only over sync iterables. Code
// esbuild can't convert either keeps goja's error (or program).
func compile(filename, code, format string) (*program, *errorData) {
	if format != "module" {
		p, serr := compileScript(filename, code, format, "")
		switch {
		case serr == nil && !p.forAwait:
			return p, nil
		case serr == nil || !serr.moduleSyntax:
			if lp := compileLowered(filename, code, format); lp != nil {
				return lp, nil
			}
			return p, serr
		}
	}
	// ES module syntax (or TypeScript): converted to CommonJS, then run as
	// a script like any other code.
	t, msg := transformESM(code, filename)
	if msg != nil {
		return nil, esbuildSyntaxError(filename, msg)
	}
	if format == "module" {
		format = ""
	}
	p, serr := compileScript(filename, t.script(), format, t.sourceMap)
	if p != nil {
		p.module = true
	}
	return p, serr
}

// compileLowered compiles code converted by esbuild, which lowers the
// syntax goja lacks; nil when esbuild or goja refuses it. The code has no
// module syntax: it runs as the script (or CommonJS) it was.
func compileLowered(filename, code, format string) *program {
	t, msg := transformESM(code, filename)
	if msg != nil {
		return nil
	}
	p, serr := compileScript(filename, t.script(), format, t.sourceMap)
	if serr != nil {
		return nil
	}
	return p
}

// esbuildSyntaxError describes an error esbuild found: 1-based line and
// UTF-16 column in the original code.
func esbuildSyntaxError(filename string, msg *api.Message) *errorData {
	ed := &errorData{Code: "syntax_error", Name: "SyntaxError", Message: msg.Text}
	if l := msg.Location; l != nil {
		col := 1
		if l.Column <= len(l.LineText) {
			for _, r := range l.LineText[:l.Column] {
				col += utf16Len(r)
			}
		}
		ed.Details = map[string]any{"line": l.Line, "column": col}
		ed.Stack = fmt.Sprintf("SyntaxError: %s\n\tat %s:%d:%d", ed.Message, filename, l.Line, col)
	}
	return ed
}

// compileScript compiles code as a script (or a CommonJS wrapper); trailer
// (a source map comment) goes after any wrapper.
func compileScript(filename, code, format, trailer string) (*program, *errorData) {
	c := &compiler{file: filename, code: code, trailer: trailer, targets: map[*ast.ForOfStatement]ast.ForInto{}}
	if format == "commonjs" {
		prg, src, err := c.parse(cjsPrefix + code + cjsSuffix)
		if err == nil {
			err = c.lowerForAwait(prg.Body, false)
		}
		if err != nil {
			return nil, c.syntaxError(src, len(cjsPrefix), err)
		}
		return c.compileAST(prg, src, len(cjsPrefix), modeCommonJS)
	}
	var asyncErr error
	var asyncSrc string
	if strings.Contains(code, "await") {
		prg, src, err := c.parse(asyncPrefix + code + asyncSuffix)
		asyncSrc = src
		if err == nil {
			body := asyncBody(prg)
			if body == nil {
				err = fmt.Errorf("internal: unexpected shape of the async wrapper")
			} else if err = c.lowerForAwait(body.List, true); err == nil && awaitsAtTopLevel(body.List) {
				returnLastValue(body)
				return c.compileAST(prg, src, len(asyncPrefix), modeAsync)
			}
		}
		asyncErr = err
	}
	prg, src, err := c.parse(code)
	if err == nil {
		err = c.lowerForAwait(prg.Body, false)
	}
	if err != nil {
		// Both forms failed: report the error the parser found further into
		// the code, which is where the code really stops making sense.
		se := c.syntaxError(src, 0, err)
		if asyncErr != nil {
			ae := c.syntaxError(asyncSrc, len(asyncPrefix), asyncErr)
			if later(ae, se) {
				return nil, ae
			}
		}
		return nil, se
	}
	return c.compileAST(prg, src, 0, modeScript)
}

// compiler holds what one compile needs across its parses.
type compiler struct {
	file, code string
	// targets holds the original loop target of each for await loop
	// (marked by parse) until lowerForAwait rewrites it.
	targets map[*ast.ForOfStatement]ast.ForInto
	// errAt is where lowerForAwait's error is.
	errAt file.Idx
	// trailer is appended to every source parsed: the source map comment.
	trailer string
	// forAwait: the last parse found a for await loop.
	forAwait bool
}

func (c *compiler) compileAST(prg *ast.Program, src string, prefix int, mode int) (*program, *errorData) {
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		return nil, c.syntaxError(src, prefix, err)
	}
	return &program{prg: p, mode: mode, forAwait: c.forAwait}, nil
}

// asyncBody returns the statements of the async arrow function the code was
// wrapped in.
func asyncBody(prg *ast.Program) *ast.BlockStatement {
	if len(prg.Body) != 1 {
		return nil
	}
	es, ok := prg.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return nil
	}
	call, ok := es.Expression.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 0 {
		return nil // the code closed the wrapper early
	}
	fn, ok := call.Callee.(*ast.ArrowFunctionLiteral)
	if !ok {
		return nil
	}
	body, _ := fn.Body.(*ast.BlockStatement)
	return body
}

// lastStatement returns the index of the last statement that is not empty
// (`x;;` ends with x), or -1.
func lastStatement(list []ast.Statement) int {
	for i := len(list) - 1; i >= 0; i-- {
		if _, empty := list[i].(*ast.EmptyStatement); !empty {
			return i
		}
	}
	return -1
}

// returnLastValue makes the async body return [value] of its completion
// value: that of its last statement when it is an expression statement, or
// an if, try/catch, block or labelled statement ending in one (loops and
// switch give no value here). The array keeps a promise value from being
// adopted (awaited) by the async function: the value is settled like a
// script's.
func returnLastValue(body *ast.BlockStatement) {
	if i := lastStatement(body.List); i >= 0 {
		body.List[i] = returnCompletion(body.List[i])
	}
}

func returnCompletion(s ast.Statement) ast.Statement {
	switch s := s.(type) {
	case *ast.ExpressionStatement:
		idx := s.Expression.Idx0()
		return &ast.ReturnStatement{
			Return:   idx,
			Argument: &ast.ArrayLiteral{LeftBracket: idx, RightBracket: s.Expression.Idx1(), Value: []ast.Expression{s.Expression}},
		}
	case *ast.BlockStatement:
		returnLastValue(s)
	case *ast.IfStatement:
		s.Consequent = returnCompletion(s.Consequent)
		if s.Alternate != nil {
			s.Alternate = returnCompletion(s.Alternate)
		}
	case *ast.TryStatement:
		returnLastValue(s.Body)
		if s.Catch != nil {
			returnLastValue(s.Catch.Body)
		}
	case *ast.LabelledStatement:
		s.Statement = returnCompletion(s.Statement)
	}
	return s
}

// awaitsAtTopLevel reports whether the statements await outside any nested
// function: an await expression or a (lowered) for await loop.
func awaitsAtTopLevel(list []ast.Statement) bool {
	found := false
	walk(reflect.ValueOf(list), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			return false
		case *ast.AwaitExpression:
			found = true
		case *ast.ForOfStatement:
			if isForAwait(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// forAwaitName names the loop variable of a lowered for await. It is not a
// valid identifier, so user code can't name it.
const forAwaitName = "%for-await"

func isForAwait(n *ast.ForOfStatement) bool {
	d, ok := n.Into.(*ast.ForDeclaration)
	if !ok {
		return false
	}
	id, ok := d.Target.(*ast.Identifier)
	return ok && id.Name == forAwaitName
}

// parse parses src. goja has no `for await`: each one the parser
// stops at is blanked to a plain `for` (same length, so every position
// stays) and marked; lowerForAwait then rewrites the marked loops. src is
// returned as parsed.
func (c *compiler) parse(src string) (*ast.Program, string, error) {
	clear(c.targets)
	c.forAwait = false
	var marks []file.Idx
	var first error
	for {
		full := src
		if c.trailer != "" {
			full += "\n" + c.trailer
		}
		prg, err := parser.ParseFile(nil, c.file, full, 0)
		if err == nil {
			if !c.markForAwait(prg, marks) {
				// A blanked await was not a for await loop's after all.
				return nil, src, first
			}
			c.forAwait = len(marks) > 0
			return prg, src, nil
		}
		if first == nil {
			first = err
		}
		off, ok := forAwaitAt(src, err)
		if !ok || len(marks) >= maxForAwait {
			return nil, src, err
		}
		src = src[:off] + "     " + src[off+len("await"):]
		marks = append(marks, file.Idx(forKeywordBefore(src, off)+1))
	}
}

// maxForAwait bounds the re-parses parse does (one per for await).
const maxForAwait = 256

// forAwaitAt returns the offset of the `await` of a `for await` the parser
// stopped at.
func forAwaitAt(src string, err error) (int, bool) {
	el, ok := err.(parser.ErrorList)
	if !ok || len(el) == 0 || el[0].Message != "Unexpected token await" {
		return 0, false
	}
	off, ok := offsetOf(src, el[0].Position.Line, el[0].Position.Column)
	if !ok || !strings.HasPrefix(src[off:], "await") || forKeywordBefore(src, off) < 0 {
		return 0, false
	}
	return off, true
}

// forKeywordBefore returns the offset of the `for` keyword that precedes
// offset off (across whitespace and block comments), or -1.
func forKeywordBefore(src string, off int) int {
	i := off
	for {
		for i > 0 && strings.IndexByte(" \t\r\n\v\f", src[i-1]) >= 0 {
			i--
		}
		if i < 2 || src[i-2:i] != "*/" {
			break
		}
		j := strings.LastIndex(src[:i-2], "/*")
		if j < 0 {
			return -1
		}
		i = j
	}
	if i < 3 || src[i-3:i] != "for" || (i > 3 && (isIdentByte(src[i-4]) || src[i-4] == '.')) {
		return -1
	}
	return i - 3
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// markForAwait renames the loop target of each for-of loop at a marked
// position to forAwaitName, remembering the original in c.targets. It
// reports whether every mark is such a loop.
func (c *compiler) markForAwait(prg *ast.Program, marks []file.Idx) bool {
	if len(marks) == 0 {
		return true
	}
	want := map[file.Idx]bool{}
	for _, m := range marks {
		want[m] = true
	}
	walk(reflect.ValueOf(prg.Body), func(n ast.Node) bool {
		if f, ok := n.(*ast.ForOfStatement); ok && want[f.For] {
			delete(want, f.For)
			c.targets[f] = f.Into
			f.Into = &ast.ForDeclaration{Idx: f.For, IsConst: true, Target: &ast.Identifier{Name: forAwaitName, Idx: f.For}}
		}
		return true
	})
	return len(want) == 0
}

// lowerForAwait rewrites each marked `for await (T of xs) body` into
// `for (const v of xs) { T = await v; body }` (T declared with its own
// let/const/var). goja has neither async iterators nor async generators, so
// this is the whole of for await there is: each value of a (sync) iterable
// is awaited. A for await outside an async function is a syntax error;
// async is whether the statements themselves run in an async function.
func (c *compiler) lowerForAwait(list []ast.Statement, async bool) error {
	if len(c.targets) == 0 {
		return nil
	}
	defer clear(c.targets)
	var err error
	var visit func(v reflect.Value, async bool)
	visit = func(v reflect.Value, async bool) {
		walk(v, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FunctionLiteral:
				visit(reflect.ValueOf(n.ParameterList), n.Async)
				visit(reflect.ValueOf(n.Body), n.Async)
				return false
			case *ast.ArrowFunctionLiteral:
				visit(reflect.ValueOf(n.ParameterList), n.Async)
				visit(reflect.ValueOf(n.Body), n.Async)
				return false
			case *ast.ClassLiteral:
				// Statements in a class are in its methods (which say
				// whether they are async) or in static blocks (never).
				visit(reflect.ValueOf(n.SuperClass), async)
				visit(reflect.ValueOf(n.Body), false)
				return false
			case *ast.ForOfStatement:
				into, ok := c.targets[n]
				if !ok {
					return true
				}
				if !async {
					err = &parser.Error{Message: "for await is only valid in async functions and at the top level"}
					c.errAt = n.For
					return false
				}
				n.Body = lowerBody(n, into)
			}
			return true
		})
	}
	visit(reflect.ValueOf(list), async)
	return err
}

func lowerBody(n *ast.ForOfStatement, into ast.ForInto) ast.Statement {
	at := n.For
	value := &ast.AwaitExpression{Await: at, Argument: &ast.Identifier{Name: forAwaitName, Idx: at}}
	var bind ast.Statement
	switch t := into.(type) {
	case *ast.ForDeclaration:
		tok := token.LET
		if t.IsConst {
			tok = token.CONST
		}
		bind = &ast.LexicalDeclaration{Idx: t.Idx, Token: tok, List: []*ast.Binding{{Target: t.Target, Initializer: value}}}
	case *ast.ForIntoVar:
		bind = &ast.ExpressionStatement{Expression: &ast.AssignExpression{Operator: token.ASSIGN, Left: t.Binding.Target, Right: value}}
	case *ast.ForIntoExpression:
		bind = &ast.ExpressionStatement{Expression: &ast.AssignExpression{Operator: token.ASSIGN, Left: t.Expression, Right: value}}
	}
	return &ast.BlockStatement{LeftBrace: at, List: []ast.Statement{bind, n.Body}, RightBrace: n.Body.Idx1()}
}

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// walk calls fn for every AST node under v (depth first, parents before
// children); fn returns false to skip a node's children.
func walk(v reflect.Value, fn func(ast.Node) bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), fn)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) && v.CanInterface() {
			if !fn(v.Interface().(ast.Node)) {
				return
			}
		}
		walk(v.Elem(), fn)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), fn)
		}
	case reflect.Struct:
		if v.Type().PkgPath() != astPkg {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), fn)
			}
		}
	}
}

var astPkg = reflect.TypeOf(ast.Program{}).PkgPath()

// syntaxError describes a parse or compile error of src, the code wrapped
// after a prefix of the given length on its first line. Positions are
// reported in the user's code: 1-based line, UTF-16 column.
func (c *compiler) syntaxError(src string, prefix int, err error) *errorData {
	code := c.code
	msg := err.Error()
	off := -1
	switch e := err.(type) {
	case parser.ErrorList:
		if len(e) > 0 {
			msg = e[0].Message
			if o, ok := offsetOf(src, e[0].Position.Line, e[0].Position.Column); ok {
				off = o
			}
		}
	case *parser.Error:
		msg = e.Message
		off = int(c.errAt) - 1
	case *goja.CompilerSyntaxError:
		msg = e.Message
		if e.File != nil {
			off = e.Offset
		}
	}
	ed := &errorData{Code: "syntax_error", Name: "SyntaxError", Message: msg}
	if off < 0 || off > len(src) {
		return ed
	}
	if isModuleSyntax(src[off:], msg) {
		ed.moduleSyntax = true
	}
	// Back to the user's code: drop the prefix, clamp into the code (an
	// error in the wrapper's suffix is at the code's end).
	off -= prefix
	if off < 0 {
		off = 0
	}
	if off > len(code) {
		off = len(code)
	}
	line, col := position(code, off)
	ed.Details = map[string]any{"line": line, "column": col}
	ed.Stack = fmt.Sprintf("SyntaxError: %s\n\tat %s:%d:%d", ed.Message, c.file, line, col)
	return ed
}

// isModuleSyntax says whether the parser stopped at import or export:
// code for the module path.
func isModuleSyntax(at, msg string) bool {
	if msg != "Unexpected reserved word" {
		return false
	}
	word := func(w string) bool {
		return strings.HasPrefix(at, w) && (len(at) == len(w) || !isIdentByte(at[len(w)]))
	}
	return word("import") || word("export")
}

// later reports whether a's position is after b's.
func later(a, b *errorData) bool {
	la, ca, oka := detailPos(a)
	lb, cb, okb := detailPos(b)
	if !oka || !okb {
		return oka
	}
	return la > lb || la == lb && ca > cb
}

func detailPos(e *errorData) (line, col int, ok bool) {
	if e.Details == nil {
		return 0, 0, false
	}
	line, ok1 := e.Details["line"].(int)
	col, ok2 := e.Details["column"].(int)
	return line, col, ok1 && ok2
}

// nextLineStart returns the offset just past the first line terminator in
// s, or -1: the same terminators goja counts (\n, \r\n, \r, U+2028, U+2029).
func nextLineStart(s string) int {
	for i, c := range s {
		switch c {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		case '\n':
			return i + 1
		case '\u2028', '\u2029':
			return i + 3
		}
	}
	return -1
}

// offsetOf turns goja's 1-based line and byte column into an offset in src.
func offsetOf(src string, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	start := 0
	for l := 1; l < line; l++ {
		n := nextLineStart(src[start:])
		if n < 0 {
			return 0, false
		}
		start += n
	}
	off := start + col - 1
	if off > len(src) {
		return 0, false
	}
	return off, true
}

// position returns the 1-based line and UTF-16 column of byte offset off in
// src.
func position(src string, off int) (line, col int) {
	line, start := 1, 0
	for {
		n := nextLineStart(src[start:])
		if n < 0 || start+n > off {
			break
		}
		start += n
		line++
	}
	col = 1
	for _, r := range src[start:off] {
		if r == utf8.RuneError {
			col++
		} else {
			col += utf16Len(r)
		}
	}
	return line, col
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
