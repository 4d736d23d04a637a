package ts

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// MapStack rewrites the positions in a goja stack trace (or any text holding
// goja positions, such as an exception's Error() string) from Program.JS to
// the TypeScript source.
//
// goja writes a position as "<file>:<line>:<col>" optionally followed by the
// bytecode offset "(<pc>)", e.g.
//
//	Error: boom
//		at f (main.ts:2:9(3))
//		at map (native)
//		at main.ts:5:2(4)
//
// Every such position whose file is Program.Filename and that maps is
// replaced by "<file>:<tsLine>:<tsCol>" (the "(pc)" suffix, meaningless for
// TypeScript, is dropped). Positions in other files, native frames and
// positions without a mapping are left exactly as they were.
func (p *Program) MapStack(stack string) string {
	if p == nil || p.Filename == "" || !strings.Contains(stack, p.Filename) {
		return stack
	}
	name := p.Filename
	var b strings.Builder
	copied := 0 // stack[:copied] has been written to b (or needs no change)
	for i := 0; i < len(stack); {
		j := strings.Index(stack[i:], name)
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if j > 0 && isPathByte(stack[j-1]) {
			continue // "lib/main.ts:1:2" is another file
		}
		k := j + len(name)
		line, k, ok := colonNumber(stack, k)
		if !ok {
			continue
		}
		col, k, ok := colonNumber(stack, k)
		if !ok {
			continue
		}
		end := k
		if k < len(stack) && stack[k] == '(' {
			if _, e, ok := number(stack, k+1); ok && e < len(stack) && stack[e] == ')' {
				end = e + 1
			}
		}
		sl, sc, ok := p.MapPosition(line, col)
		if !ok {
			i = end
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(stack) + 16)
		}
		b.WriteString(stack[copied:j])
		b.WriteString(name)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(sl))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(sc))
		copied = end
		i = end
	}
	if copied == 0 {
		return stack
	}
	b.WriteString(stack[copied:])
	return b.String()
}

// MapErrorPosition rewrites the positions in goja parser error messages,
// which have the form "<file>: Line <line>:<col> <message>", e.g.
//
//	SyntaxError: main.ts: Line 8:3 Unexpected token ILLEGAL (and 6 more errors)
//
// to TypeScript positions ("main.ts: Line 5:1 ..."). Such errors mean goja
// rejected esbuild's output (syntax goja does not support); esbuild already
// rejected every real TypeScript syntax error. Other text is left alone.
func (p *Program) MapErrorPosition(msg string) string {
	if p == nil || p.Filename == "" {
		return msg
	}
	needle := p.Filename + ": Line "
	if !strings.Contains(msg, needle) {
		return msg
	}
	var b strings.Builder
	copied := 0
	for i := 0; i < len(msg); {
		j := strings.Index(msg[i:], needle)
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if j > 0 && isPathByte(msg[j-1]) {
			continue
		}
		start := j + len(needle)
		line, k, ok := number(msg, start)
		if !ok {
			continue
		}
		col, k, ok := colonNumber(msg, k)
		if !ok {
			continue
		}
		sl, sc, ok := p.MapPosition(line, col)
		if !ok {
			i = k
			continue
		}
		b.WriteString(msg[copied:start])
		b.WriteString(strconv.Itoa(sl))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(sc))
		copied = k
		i = k
	}
	if copied == 0 {
		return msg
	}
	b.WriteString(msg[copied:])
	return b.String()
}

// MapErrorData returns a copy of d with every goja position mapped to the
// TypeScript source: positions in Message and Stack (both forms, see
// MapStack and MapErrorPosition), and Details "line"/"column" when both are
// present as numbers (a guest that reports a syntax error's position there).
// d itself is not modified; nil gives nil.
func (p *Program) MapErrorData(d *wasmexec.ErrorData) *wasmexec.ErrorData {
	if d == nil {
		return nil
	}
	out := *d
	out.Message = p.MapStack(p.MapErrorPosition(d.Message))
	out.Stack = p.MapStack(p.MapErrorPosition(d.Stack))
	if d.Details != nil {
		out.Details = make(map[string]any, len(d.Details))
		for k, v := range d.Details {
			out.Details[k] = v
		}
		line, lok := asInt(d.Details["line"])
		col, cok := asInt(d.Details["column"])
		if lok && cok {
			if sl, sc, ok := p.MapPosition(line, col); ok {
				out.Details["line"] = sl
				out.Details["column"] = sc
			}
		}
	}
	return &out
}

func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int32:
		return int(n), true
	case int64:
		return int(n), true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return int(i), true
		}
	}
	return 0, false
}

// isPathByte reports whether c can be part of a file path, i.e. whether a
// filename match preceded by c is really the tail of a longer name.
func isPathByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '.', '/', '\\', '-', '_', '~', ':', '$', '@', '+':
		return true
	}
	return false
}

// colonNumber parses ":<digits>" at s[i:].
func colonNumber(s string, i int) (n, next int, ok bool) {
	if i >= len(s) || s[i] != ':' {
		return 0, i, false
	}
	return number(s, i+1)
}

// number parses a positive decimal number (at most 9 digits) at s[i:].
func number(s string, i int) (n, next int, ok bool) {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i < 10 {
		n = n*10 + int(s[j]-'0')
		j++
	}
	if j == i || j-i > 9 || (j < len(s) && s[j] >= '0' && s[j] <= '9') {
		return 0, i, false
	}
	return n, j, true
}
