package ts

import (
	"fmt"
	"unicode/utf8"
)

// Why this file exists: esbuild runs in the server process, and on hostile
// input it can take the whole process down or pin a core for good:
//
//   - Its parser, visitor and printer recurse once per nesting level with
//     1.5–6.5 KB of stack each. Go aborts the process (not a recoverable
//     panic) when a goroutine passes 1 GB of stack: ~300 KB of "!!!!…1" or
//     ~160k nested "a=>" kills the server; 30 KB of them grows one goroutine
//     stack to 100 MB.
//   - Some TypeScript ambiguities backtrack: "a ? (b): c => " repeated is
//     exponential (22 repetitions, ~300 bytes: > 30 s), unclosed '<' chains
//     ("a<b, a<b, …", "f<f<f<…") are quadratic to cubic, and deeply nested
//     scopes ("(a) => (a) => …", nested blocks with declarations) are cubic
//     (1000 levels: 3–5 s). esbuild has no cancellation.
//
// checkSource is a single linear pass with a small, conservative lexer. It
// does not parse; it keeps, per open bracket, counters that bound what
// esbuild can do with the text since the last statement/list boundary, and
// rejects the program (as a *SyntaxError at the offending token) past these
// limits. Ordinary code is far below all of them; see guard_test.go for the
// reproducers and their measured costs.
//
// It is a mitigation, not a proof: it models esbuild's behaviour from the
// outside. The complete fix is to run esbuild where a crash or a runaway is
// contained (a worker process with a deadline, like tscheck's pool, or the
// wasm guest); see the package report.
const (
	// guardMaxDepth bounds the nesting esbuild recurses through, counted in
	// tokens since the last boundary along the open chain of brackets.
	// Worst measured cost is ~3.3 KB of stack per token, so ~27 MB.
	guardMaxDepth = 8192
	// guardMaxScopes bounds nested scopes (open '{' plus arrow functions and
	// for-loops without braces). Cubic costs reach ~180 ms at 250.
	guardMaxScopes = 200
	// guardMaxAngleWork bounds the sum, over tokens, of '<' still unclosed
	// in the current expression: each may be retried as type arguments.
	guardMaxAngleWork = 200_000
	// guardMaxArrowTernaries bounds "? (…) : … =>" in one expression, which
	// esbuild explores exponentially.
	guardMaxArrowTernaries = 8
	// guardMaxCommas bounds commas that may be comma operators in one
	// statement (comma chains are super-linear: 8000 take 1.4 s). Array
	// elements and "key: value" properties are not counted.
	guardMaxCommas = 2000
)

// checkSource returns a *SyntaxError if code must not be given to esbuild.
func checkSource(code, filename string) error {
	if len(code) == 0 {
		return nil
	}
	g := guard{src: code, levels: make([]glevel, 1, 32)}
	if msg, at := g.run(); msg != "" {
		line, col := positionOf(code, at)
		return &SyntaxError{Filename: filename, Line: line, Column: col, Message: msg}
	}
	return nil
}

// positionOf converts a byte offset to a 1-based line and UTF-16 column.
func positionOf(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	starts := lineStarts(s[:off])
	last := int(starts[len(starts)-1])
	return len(starts), utf16Len(s[last:off]) + 1
}

// tokClass says what a '/' after the previous token would be.
type tokClass uint8

const (
	ctxRegex     tokClass = iota // an expression starts: '/' begins a regex
	ctxDivision                  // a value ended: '/' divides on the same line
	ctxAmbiguous                 // either, depending on what esbuild parsed
)

type glevel struct {
	kind    byte // 0 (top level), '(', '[', '{', '$' (template ${)
	control bool // '(' of if/while/for/with: a statement follows its ')'
	afterQ  bool // '(' right after '?'
	// depth counts tokens since the last boundary; sticky survives
	// boundaries (else-chains nest across ';'); commas are charged at 1/8.
	depth, sticky, commas int
	arrows                int  // '=>' and 'for' since the last boundary
	angles                int  // '<' not yet closed by '>'
	hazards               int  // "? (…) : … =>" seen
	pending               bool // "? (…) :" seen, waiting for '=>'
	colon, question       bool // ':' / '?' seen since the last comma
	chainCheck            bool // a boundary passed: is the next token 'else'?
}

func (l *glevel) cost() int   { return l.depth + l.sticky + l.commas/8 }
func (l *glevel) scopes() int { return l.arrows + b2i(l.kind == '{') }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

type guard struct {
	src    string
	i      int
	levels []glevel

	// Running sums over all open levels.
	depth, scopes, angles, hazards, commas int
	angleWork                              int

	prevClass    tokClass
	prevValueEnd bool   // the previous token can end a statement (for ASI)
	prevWord     string // the previous token if it was a word
	prevWord2    string // the token before that, if both were words
	prevDot      bool   // the previous token was '.' or '?.'
	prevQuestion bool   // the previous token was '?'
	prevEnd      int    // offset just past the previous token
	closedAfterQ bool   // the previous token closed a '(' opened after '?'
	newline      bool   // a line terminator precedes the current token
	altEnd       int    // end of the regex reading of the last ambiguous '/'
}

func (g *guard) top() *glevel { return &g.levels[len(g.levels)-1] }

// adjust applies f to the top level and keeps the running sums in step.
func (g *guard) adjust(f func(l *glevel)) {
	l := g.top()
	c, s, a, h, k := l.cost(), l.scopes(), l.angles, l.hazards, l.commas
	f(l)
	g.depth += l.cost() - c
	g.scopes += l.scopes() - s
	g.angles += l.angles - a
	g.hazards += l.hazards - h
	g.commas += l.commas - k
}

func (g *guard) push(kind byte, control, afterQ bool) {
	g.adjust(func(l *glevel) { l.depth++ })
	g.levels = append(g.levels, glevel{kind: kind, control: control, afterQ: afterQ})
	if kind == '{' {
		g.scopes++
	}
}

func (g *guard) pop() glevel {
	l := g.levels[len(g.levels)-1]
	g.depth -= l.cost()
	g.scopes -= l.scopes()
	g.angles -= l.angles
	g.hazards -= l.hazards
	g.commas -= l.commas
	g.levels = g.levels[:len(g.levels)-1]
	return l
}

// boundary ends a statement (';' or ASI) at the top level.
func (g *guard) boundary() {
	g.adjust(func(l *glevel) {
		l.depth, l.arrows, l.angles, l.hazards, l.pending = 0, 0, 0, 0, false
		l.commas, l.colon, l.question = 0, false, false
		l.chainCheck = l.sticky > 0
	})
}

// check returns the message of the first limit the open chain exceeds.
func (g *guard) check() string {
	switch {
	case g.depth > guardMaxDepth:
		return fmt.Sprintf("program too deeply nested to transpile safely (more than %d nested tokens in one expression or statement)", guardMaxDepth)
	case g.scopes > guardMaxScopes:
		return fmt.Sprintf("too many nested functions or blocks to transpile safely (limit %d)", guardMaxScopes)
	case g.angleWork > guardMaxAngleWork:
		return "too many unclosed '<' (comparisons or type arguments) in one expression to transpile safely; split the expression or add parentheses"
	case g.commas > guardMaxCommas:
		return fmt.Sprintf("too many comma-separated items in one statement to transpile safely (limit %d; array elements and key: value properties are not limited)", guardMaxCommas)
	case g.hazards > guardMaxArrowTernaries:
		return fmt.Sprintf("too many conditional expressions of the form `? (…) : … =>` in one expression to transpile safely (limit %d)", guardMaxArrowTernaries)
	}
	return ""
}

// token records a token at the current level: one unit of depth, and one
// step of angle work per '<' still open.
func (g *guard) token(start, end int, class tokClass, valueEnd bool) {
	g.adjust(func(l *glevel) { l.depth++ })
	g.angleWork += g.angles
	g.prevClass, g.prevValueEnd, g.prevEnd = class, valueEnd, end
	g.prevWord, g.prevWord2, g.prevDot, g.prevQuestion, g.closedAfterQ = "", "", false, false, false
}

// Words after which an expression (so a regex) must follow.
var regexAfterWord = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "new": true,
	"delete": true, "throw": true, "case": true, "do": true, "else": true,
	"extends": true, "default": true,
}

// Words after which '/' may be either (contextual keywords and TS type
// keywords that are also reserved words).
var ambiguousWord = map[string]bool{
	"await": true, "yield": true, "of": true, "void": true, "const": true,
}

// Words that cannot end a statement, so a line break after them is no
// statement boundary (contextual keywords and TS type operators).
var noValueEndWord = map[string]bool{
	"as": true, "satisfies": true, "keyof": true, "typeof": true, "readonly": true,
	"infer": true, "is": true, "asserts": true, "unique": true, "extends": true,
	"implements": true, "in": true, "of": true, "new": true, "await": true,
	"yield": true, "async": true, "get": true, "set": true, "static": true,
	"declare": true, "abstract": true, "public": true, "private": true,
	"protected": true, "override": true, "accessor": true, "type": true,
	"namespace": true, "module": true, "let": true, "from": true, "return": true,
	"instanceof": true, "delete": true, "void": true, "throw": true, "case": true,
	"do": true, "else": true, "default": true, "export": true, "import": true,
	"const": true, "var": true, "function": true, "class": true, "enum": true,
	"interface": true, "if": true, "for": true, "while": true, "with": true,
	"switch": true, "try": true, "catch": true, "finally": true, "break": true,
	"continue": true, "debugger": true, "out": true, "global": true,
}

// Words that can continue a statement after a line break that follows a
// complete value (binary keyword operators, type-level continuations, and
// the clauses of if/try/do). Before any other word, such a line break is an
// automatic-semicolon boundary, or a syntax error (where esbuild stops).
var continuationWord = map[string]bool{
	"in": true, "instanceof": true, "as": true, "satisfies": true, "of": true,
	"extends": true, "implements": true, "from": true, "is": true, "asserts": true,
	"else": true, "catch": true, "finally": true, "while": true,
}

// run scans the source; it returns a message and offset on rejection.
func (g *guard) run() (string, int) {
	s := g.src
	g.prevClass = ctxRegex
	g.altEnd = -1
	if len(s) >= 2 && s[0] == '#' && s[1] == '!' {
		g.skipLine()
	}
	for {
		if !g.skipSpace() {
			return "", 0
		}
		start := g.i
		if msg := g.next(); msg != "" {
			return msg, start
		}
		if g.i < 0 {
			return "", 0 // an unterminated construct: esbuild stops there
		}
		if msg := g.check(); msg != "" {
			return msg, start
		}
	}
}

// skipSpace skips whitespace and comments, noting line breaks. It returns
// false at the end of the input (or of an unterminated comment).
func (g *guard) skipSpace() bool {
	s := g.src
	g.newline = g.i == 0 // esbuild: the first token follows a "line break"
	for g.i < len(s) {
		c := s[g.i]
		switch {
		case c == '\n' || c == '\r':
			g.newline = true
			g.i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			g.i++
		case c == '/' && g.i+1 < len(s) && s[g.i+1] == '/':
			g.skipLine()
		case c == '/' && g.i+1 < len(s) && s[g.i+1] == '*':
			end := indexFrom(s, "*/", g.i+2)
			if end < 0 {
				return false
			}
			for j := g.i; j < end; j++ {
				if s[j] == '\n' || s[j] == '\r' || isLSPS(s, j) {
					g.newline = true
					break
				}
			}
			g.i = end + 2
		case c == '<' && hasPrefixAt(s, g.i, "<!--"):
			g.skipLine()
		case c == '-' && g.newline && hasPrefixAt(s, g.i, "-->"):
			g.skipLine()
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[g.i:])
			switch {
			case r == '\u2028' || r == '\u2029':
				g.newline = true
			case isJSSpace(r):
			default:
				return true
			}
			g.i += size
		default:
			return true
		}
	}
	return false
}

// skipLine moves to the next line terminator (not past it).
func (g *guard) skipLine() {
	s := g.src
	for g.i < len(s) {
		if s[g.i] == '\n' || s[g.i] == '\r' || isLSPS(s, g.i) {
			return
		}
		g.i++
	}
}

func isLSPS(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xE2 && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
}

func hasPrefixAt(s string, i int, p string) bool {
	return len(s)-i >= len(p) && s[i:i+len(p)] == p
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c == '\\' || c >= utf8.RuneSelf
}

// next lexes one token at g.i. It sets g.i = -1 when esbuild would stop with
// an error at this point (unterminated string, template or regex).
func (g *guard) next() string {
	s := g.src
	start := g.i
	c := s[start]

	// The word starting here, if any.
	word := ""
	if isIdentByte(c) && c != '\\' && !(c >= '0' && c <= '9') {
		word = s[start:g.identEnd(start)]
		// A line break after a token that ends a value, before a word that
		// cannot continue the statement, is a statement boundary (ASI).
		if g.newline && g.prevValueEnd && !continuationWord[word] {
			g.boundary()
		}
	}
	// After a boundary, anything but 'else' closes an if/else chain.
	if l := g.top(); l.chainCheck {
		l.chainCheck = false
		if word != "else" {
			g.adjust(func(l *glevel) { l.sticky = 0 })
		}
	}

	switch {
	case c >= '0' && c <= '9' || c == '.' && start+1 < len(s) && s[start+1] >= '0' && s[start+1] <= '9':
		j := start + 1
		for j < len(s) && (isIdentByte(s[j]) && s[j] < utf8.RuneSelf || s[j] == '.') {
			j++
		}
		g.i = j
		g.token(start, j, ctxDivision, true)
		return ""

	case isIdentByte(c) || c == '#':
		j := g.identEnd(start + 1)
		g.i = j
		g.word(start, j)
		return ""

	case c == '"' || c == '\'':
		j := start + 1
		for {
			if j >= len(s) || s[j] == '\n' || s[j] == '\r' {
				g.i = -1
				return ""
			}
			if s[j] == '\\' {
				j += 2
				if j-1 < len(s) && s[j-1] == '\r' && j < len(s) && s[j] == '\n' {
					j++
				}
				continue
			}
			if s[j] == c {
				break
			}
			j++
		}
		g.i = j + 1
		g.token(start, g.i, ctxDivision, true)
		return ""

	case c == '`':
		g.token(start, start+1, ctxDivision, true)
		g.i = start + 1
		return g.templateText()

	case c == '/':
		return g.slash(start)

	case c == '(' || c == '[' || c == '{':
		control := c == '(' && (g.prevWord == "if" || g.prevWord == "while" || g.prevWord == "for" ||
			g.prevWord == "with" || g.prevWord == "await" && g.prevWord2 == "for")
		afterQ := c == '(' && g.prevQuestion
		g.i = start + 1
		g.angleWork += g.angles
		g.push(c, control, afterQ)
		g.prevClass, g.prevValueEnd, g.prevEnd = ctxRegex, false, g.i
		g.prevWord, g.prevDot, g.prevQuestion, g.closedAfterQ = "", false, false, false
		return ""

	case c == ')' || c == ']' || c == '}':
		g.i = start + 1
		return g.closer(c, start)

	case c == ';':
		g.i = start + 1
		g.boundary()
		g.token(start, g.i, ctxRegex, false)
		g.boundary()
		return ""

	case c == ',':
		g.i = start + 1
		g.adjust(func(l *glevel) {
			// A comma may be a comma operator unless it separates array
			// elements or object properties written "key: value".
			if l.kind != '[' && !(l.kind == '{' && l.colon && !l.question) {
				l.commas++
			}
			// Inside an unclosed '<' the comma may separate type arguments,
			// which nest: then it ends nothing.
			if l.angles == 0 {
				l.depth, l.arrows, l.hazards, l.pending = 0, 0, 0, false
				l.colon, l.question = false, false
			}
		})
		g.token(start, g.i, ctxRegex, false)
		return ""

	case c == '=' && start+1 < len(s) && s[start+1] == '>':
		g.i = start + 2
		g.adjust(func(l *glevel) {
			l.arrows++
			if l.pending {
				l.hazards++
				l.pending = false
			}
		})
		g.token(start, g.i, ctxRegex, false)
		return ""

	case c == '<':
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		g.adjust(func(l *glevel) { l.angles++ })
		return ""

	case c == '>':
		g.i = start + 1
		g.adjust(func(l *glevel) {
			if l.angles > 0 {
				l.angles--
			}
		})
		// '>' ends type arguments or is an operator awaiting an operand:
		// no statement boundary after it.
		g.token(start, g.i, ctxAmbiguous, false)
		return ""

	case c == '?':
		if start+1 < len(s) && s[start+1] == '.' && !(start+2 < len(s) && s[start+2] >= '0' && s[start+2] <= '9') {
			g.i = start + 2
			g.token(start, g.i, ctxRegex, false)
			g.prevDot = true
			return ""
		}
		if start+1 < len(s) && s[start+1] == '?' {
			g.i = start + 2
			g.token(start, g.i, ctxRegex, false)
			return ""
		}
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		g.adjust(func(l *glevel) { l.question = true })
		g.prevQuestion = true
		return ""

	case c == ':':
		pending := g.closedAfterQ
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		g.adjust(func(l *glevel) {
			l.colon = true
			if pending {
				l.pending = true
			}
		})
		return ""

	case c == '.':
		if hasPrefixAt(s, start, "...") {
			g.i = start + 3
			g.token(start, g.i, ctxRegex, false)
			return ""
		}
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		g.prevDot = true
		return ""

	case c == '+' || c == '-':
		if start+1 < len(s) && s[start+1] == c {
			// '++'/'--' after a value on the same line is postfix.
			postfix := g.prevValueEnd && !g.newline
			g.i = start + 2
			if postfix {
				g.token(start, g.i, ctxDivision, true)
			} else {
				g.token(start, g.i, ctxRegex, false)
			}
			return ""
		}
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		return ""

	case c == '!':
		// TypeScript's non-null assertion: '!' right after a value.
		if g.prevValueEnd && !g.newline && !(start+1 < len(s) && s[start+1] == '=') {
			g.i = start + 1
			g.token(start, g.i, ctxDivision, true)
			return ""
		}
		g.i = start + 1
		g.token(start, g.i, ctxRegex, false)
		return ""
	}

	// Any other character is a one-byte (or one-rune) punctuator.
	_, size := utf8.DecodeRuneInString(s[start:])
	g.i = start + size
	g.token(start, g.i, ctxRegex, false)
	return ""
}

// identEnd returns the end of the identifier characters starting at i
// (non-ASCII counts as identifier text unless esbuild takes it for
// whitespace or a line break).
func (g *guard) identEnd(i int) int {
	s := g.src
	for i < len(s) && isIdentByte(s[i]) {
		if s[i] >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == '\u2028' || r == '\u2029' || isJSSpace(r) {
				break
			}
			i += size
			continue
		}
		i++
	}
	return i
}

// word handles an identifier or keyword spanning s[start:end].
func (g *guard) word(start, end int) {
	w := g.src[start:end]
	if g.prevDot {
		g.token(start, end, ctxDivision, true) // a property name
		return
	}
	class, valueEnd := ctxDivision, !noValueEndWord[w]
	switch {
	case regexAfterWord[w]:
		class = ctxRegex
	case ambiguousWord[w]:
		class = ctxAmbiguous
	}
	before := g.prevWord
	g.token(start, end, class, valueEnd)
	g.prevWord, g.prevWord2 = w, before
	switch w {
	case "else":
		// if (…) x; else if (…) x; else … nests across ';'.
		g.adjust(func(l *glevel) { l.sticky += 2 })
	case "for", "function", "class":
		// Scopes that can nest without an open '{': for (let …) heads,
		// parameter lists (function f(a = function (b = …))) and class
		// heritage (class extends (class extends …)).
		g.adjust(func(l *glevel) { l.arrows++ })
	}
}

// closer handles ')', ']' and '}'.
func (g *guard) closer(c byte, start int) string {
	open := byte('(')
	if c == ']' {
		open = '['
	} else if c == '}' {
		open = '{'
	}
	// Find the innermost matching opener ('}' also closes a template '${').
	k := len(g.levels) - 1
	for ; k > 0; k-- {
		kind := g.levels[k].kind
		if kind == open || c == '}' && kind == '$' {
			break
		}
	}
	if k == 0 {
		// No opener: esbuild reports a syntax error here. Ignoring the
		// closer (rather than stopping) stays safe if we are wrong.
		g.token(start, g.i, ctxDivision, true)
		return ""
	}
	var closed glevel
	for len(g.levels) > k {
		closed = g.pop()
	}
	g.angleWork += g.angles
	g.prevEnd = g.i
	g.prevWord, g.prevDot, g.prevQuestion = "", false, false
	g.closedAfterQ = closed.afterQ
	switch {
	case closed.kind == '$':
		return g.templateText()
	case closed.control:
		g.prevClass, g.prevValueEnd = ctxRegex, false
	case c == '}':
		g.prevClass, g.prevValueEnd = ctxAmbiguous, true
	default:
		g.prevClass, g.prevValueEnd = ctxDivision, true
	}
	return ""
}

// templateText scans template characters from g.i up to the closing '`'
// (a value) or a '${' (which opens a level).
func (g *guard) templateText() string {
	s := g.src
	for j := g.i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '`':
			g.i = j + 1
			g.prevClass, g.prevValueEnd, g.prevEnd = ctxDivision, true, g.i
			g.prevWord, g.prevDot, g.prevQuestion, g.closedAfterQ = "", false, false, false
			return ""
		case '$':
			if j+1 < len(s) && s[j+1] == '{' {
				g.i = j + 2
				g.angleWork += g.angles
				g.push('$', false, false)
				g.prevClass, g.prevValueEnd, g.prevEnd = ctxRegex, false, g.i
				g.prevWord, g.prevDot, g.prevQuestion, g.closedAfterQ = "", false, false, false
				return ""
			}
		}
	}
	g.i = -1 // unterminated template
	return ""
}

// regexEnd scans a regular expression literal whose opening '/' is at
// start; it returns the offset just past its flags, and the body's end (the
// closing '/'), or ok=false if the line ends first.
func (g *guard) regexEnd(start int) (end, closing int, ok bool) {
	s := g.src
	inClass := false
	for j := start + 1; j < len(s); j++ {
		c := s[j]
		if c == '\n' || c == '\r' || isLSPS(s, j) {
			return 0, 0, false
		}
		switch c {
		case '\\':
			j++
			if j < len(s) && (s[j] == '\n' || s[j] == '\r' || isLSPS(s, j)) {
				return 0, 0, false
			}
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				k := j + 1
				for k < len(s) && isIdentByte(s[k]) && s[k] < utf8.RuneSelf && s[k] != '\\' {
					k++
				}
				return k, j, true
			}
		}
	}
	return 0, 0, false
}

// slash handles a '/' that does not start a comment.
func (g *guard) slash(start int) string {
	s := g.src
	class := g.prevClass
	if g.newline && g.prevValueEnd {
		// TypeScript: after a type annotation, ASI can make '/' a regex.
		class = ctxAmbiguous
	}
	if g.prevEnd == g.altEnd {
		// Right after an ambiguous '/' read as a division, whose other
		// reading (a regex) ended here: this '/' is ambiguous too.
		class = ctxAmbiguous
	}
	switch class {
	case ctxRegex:
		end, _, ok := g.regexEnd(start)
		if !ok {
			g.i = -1 // unterminated regex: esbuild stops here
			return ""
		}
		g.i = end
		g.token(start, end, ctxDivision, true)
		return ""
	case ctxAmbiguous:
		end, closing, ok := g.regexEnd(start)
		if ok {
			// Read as a division (below). That reading sees at least as much
			// as the regex reading unless the regex body hides something the
			// division reading would skip or open, or the regex's closing
			// '/' starts a comment in the division reading.
			body := s[start+1 : closing]
			for k := 0; k < len(body); k++ {
				switch body[k] {
				case '\'', '"', '`', '(', ')', '[', ']', '{', '}':
					return "cannot tell safely whether '/' starts a regular expression or divides; add a semicolon before it or parentheses around it"
				case '<':
					if hasPrefixAt(body, k, "<!--") {
						return "cannot tell safely whether '/' starts a regular expression or divides; add a semicolon before it or parentheses around it"
					}
				}
			}
			// In the division reading the closing '/' must be a division too:
			// the body has to end with a value (an identifier or number).
			if last := lastNonSpace(body); last < 0 || !(isIdentByte(body[last]) && body[last] != '\\' && body[last] < utf8.RuneSelf) {
				return "cannot tell safely whether '/' starts a regular expression or divides; add a semicolon before it or parentheses around it"
			}
			if closing+1 < len(s) && (s[closing+1] == '/' || s[closing+1] == '*') {
				return "cannot tell safely whether '/' starts a regular expression or divides; add a semicolon before it or parentheses around it"
			}
			g.altEnd = end
		}
	}
	// Division (or '/=').
	g.i = start + 1
	if g.i < len(s) && s[g.i] == '=' {
		g.i++
	}
	g.token(start, g.i, ctxRegex, false)
	return ""
}

// lastNonSpace returns the index of the last non-blank byte of s, or -1.
func lastNonSpace(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != ' ' && s[i] != '\t' {
			return i
		}
	}
	return -1
}

// isJSSpace reports whether r is whitespace to esbuild (and ECMAScript):
// js_ast.IsWhitespace's list, beyond ASCII.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', ' ', '\u00A0', '\u1680', '\u2000', '\u2001', '\u2002',
		'\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009',
		'\u200A', '\u202F', '\u205F', '\u3000', '\uFEFF':
		return true
	}
	return false
}
