package pypi

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Requirement is a parsed PEP 508 requirement ("attrs[tests]>=23; python_version>'3.8'").
type Requirement struct {
	Name      string // as written
	Extras    []string
	Specifier SpecifierSet
	Marker    *Marker // nil: always
	Text      string  // the requirement as written
}

// Key is the normalized project name (PEP 503).
func (r Requirement) Key() string { return Normalize(r.Name) }

var nameRE = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]|[A-Za-z0-9])`)
var normRE = regexp.MustCompile(`[-_.]+`)

// Normalize is the PEP 503 normalized form of a project name.
func Normalize(name string) string { return strings.ToLower(normRE.ReplaceAllString(name, "-")) }

// ValidName reports whether name is a valid project name.
func ValidName(name string) bool {
	return len(name) <= 200 && nameRE.FindString(name) == name && name != ""
}

// ParseRequirement parses one PEP 508 requirement. Direct references
// (name @ URL) are refused: installs come from the configured indexes.
func ParseRequirement(s string) (Requirement, error) {
	r := Requirement{Text: strings.TrimSpace(s)}
	if len(s) > 2000 {
		return r, fmt.Errorf("requirement is longer than 2000 characters")
	}
	rest := strings.TrimSpace(s)
	if rest == "" {
		return r, fmt.Errorf("empty requirement")
	}
	if strings.ContainsAny(rest, "\x00\n\r") {
		return r, fmt.Errorf("requirement %q contains a control character", rest)
	}
	name := nameRE.FindString(rest)
	if name == "" {
		return r, fmt.Errorf("%q does not start with a project name", rest)
	}
	r.Name = name
	rest = strings.TrimSpace(rest[len(name):])
	if strings.HasPrefix(rest, "[") {
		end := strings.Index(rest, "]")
		if end < 0 {
			return r, fmt.Errorf("%q: unclosed [ of extras", s)
		}
		for _, e := range strings.Split(rest[1:end], ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			if !ValidName(e) {
				return r, fmt.Errorf("%q: %q is not an extra name", s, e)
			}
			r.Extras = append(r.Extras, Normalize(e))
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	if strings.HasPrefix(rest, "@") {
		return r, fmt.Errorf("%q: direct references (name @ URL) are not supported; name a version from the index", s)
	}
	spec := rest
	markerText := ""
	if i := strings.Index(rest, ";"); i >= 0 {
		spec, markerText = rest[:i], rest[i+1:]
	}
	spec = strings.TrimSpace(spec)
	if strings.HasPrefix(spec, "(") && strings.HasSuffix(spec, ")") {
		spec = spec[1 : len(spec)-1]
	}
	set, err := ParseSpecifiers(spec)
	if err != nil {
		return r, fmt.Errorf("%q: %v", s, err)
	}
	r.Specifier = set
	if strings.TrimSpace(markerText) != "" || strings.Contains(rest, ";") {
		m, err := ParseMarker(markerText)
		if err != nil {
			return r, fmt.Errorf("%q: %v", s, err)
		}
		r.Marker = m
	}
	return r, nil
}

// ParseRequirementsFile parses a requirements.txt: one requirement a line,
// comments (#), blank lines and backslash continuations. Options (-r,
// --index-url, -e, ...) are refused: the request says where to install
// from. Errors name the line.
func ParseRequirementsFile(text string) ([]Requirement, error) {
	var out []Requirement
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		no := i + 1
		line := lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + lines[i]
		}
		if j := strings.Index(line, " #"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "-") {
			return nil, fmt.Errorf("line %d: option %q is not supported in a requirements file (give indexUrl in the request)", no, strings.Fields(line)[0])
		}
		r, err := ParseRequirement(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", no, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Environment is the set of marker variables of the target interpreter.
type Environment map[string]string

// GuestEnvironment is the guest's: CPython 3.11 on wasm32-wasi.
var GuestEnvironment = Environment{
	"python_version":                 "3.11",
	"python_full_version":            "3.11.2",
	"os_name":                        "posix",
	"sys_platform":                   "wasi",
	"platform_system":                "",
	"platform_machine":               "wasm32",
	"platform_release":               "",
	"platform_version":               "",
	"platform_python_implementation": "CPython",
	"implementation_name":            "cpython",
	"implementation_version":         "3.11.2",
}

// Marker is a parsed PEP 508 environment marker.
type Marker struct {
	op          string // "and", "or", or "" for a comparison
	left, right *Marker
	lhs, cmp    string
	rhs         string
	lVar, rVar  bool
}

// ParseMarker parses a marker expression.
func ParseMarker(s string) (*Marker, error) {
	toks, err := lexMarker(s)
	if err != nil {
		return nil, err
	}
	p := &markerParser{toks: toks}
	m, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("marker %q: unexpected %q", s, p.toks[p.i].text)
	}
	return m, nil
}

type markerTok struct {
	kind string // "var", "str", "op", "(", ")", "and", "or"
	text string
}

var markerVars = map[string]bool{
	"python_version": true, "python_full_version": true, "os_name": true, "sys_platform": true,
	"platform_system": true, "platform_machine": true, "platform_release": true, "platform_version": true,
	"platform_python_implementation": true, "implementation_name": true, "implementation_version": true,
	"extra": true, "os.name": true, "sys.platform": true, "platform.version": true, "platform.machine": true,
	"platform.python_implementation": true, "python_implementation": true,
}

func lexMarker(s string) ([]markerTok, error) {
	var toks []markerTok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, markerTok{string(c), string(c)})
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("marker %q: unterminated string", s)
			}
			toks = append(toks, markerTok{"str", s[i+1 : i+1+j]})
			i += j + 2
		case strings.ContainsRune("<>=!~", rune(c)):
			j := i
			for j < len(s) && strings.ContainsRune("<>=!~", rune(s[j])) {
				j++
			}
			op := s[i:j]
			switch op {
			case "<", "<=", "==", "!=", ">=", ">", "~=", "===":
			default:
				return nil, fmt.Errorf("marker %q: unknown operator %q", s, op)
			}
			toks = append(toks, markerTok{"op", op})
			i = j
		default:
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_' || s[j] == '.') {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("marker %q: unexpected %q", s, string(c))
			}
			w := s[i:j]
			i = j
			switch {
			case w == "and" || w == "or":
				toks = append(toks, markerTok{w, w})
			case w == "in":
				toks = append(toks, markerTok{"op", "in"})
			case w == "not":
				k := i
				for k < len(s) && s[k] == ' ' {
					k++
				}
				if !strings.HasPrefix(s[k:], "in") {
					return nil, fmt.Errorf("marker %q: 'not' must be followed by 'in'", s)
				}
				i = k + 2
				toks = append(toks, markerTok{"op", "not in"})
			case markerVars[w]:
				toks = append(toks, markerTok{"var", w})
			default:
				return nil, fmt.Errorf("marker %q: unknown variable %q", s, w)
			}
		}
	}
	return toks, nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type markerParser struct {
	toks []markerTok
	i    int
}

func (p *markerParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].kind
	}
	return ""
}

func (p *markerParser) or(depth int) (*Marker, error) {
	if depth > 50 {
		return nil, fmt.Errorf("marker nests too deep")
	}
	l, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.peek() == "or" {
		p.i++
		r, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		l = &Marker{op: "or", left: l, right: r}
	}
	return l, nil
}

func (p *markerParser) and(depth int) (*Marker, error) {
	l, err := p.atom(depth)
	if err != nil {
		return nil, err
	}
	for p.peek() == "and" {
		p.i++
		r, err := p.atom(depth)
		if err != nil {
			return nil, err
		}
		l = &Marker{op: "and", left: l, right: r}
	}
	return l, nil
}

func (p *markerParser) atom(depth int) (*Marker, error) {
	if p.peek() == "(" {
		p.i++
		m, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("marker: missing )")
		}
		p.i++
		return m, nil
	}
	if p.i+3 > len(p.toks) {
		return nil, fmt.Errorf("marker: incomplete comparison")
	}
	a, op, b := p.toks[p.i], p.toks[p.i+1], p.toks[p.i+2]
	if (a.kind != "var" && a.kind != "str") || op.kind != "op" || (b.kind != "var" && b.kind != "str") {
		return nil, fmt.Errorf("marker: expected VARIABLE OP 'value', got %q %q %q", a.text, op.text, b.text)
	}
	p.i += 3
	return &Marker{lhs: a.text, lVar: a.kind == "var", cmp: op.text, rhs: b.text, rVar: b.kind == "var"}, nil
}

// Evaluate evaluates m in env with the given extras ("" for none: an
// `extra == "x"` clause is then false).
func (m *Marker) Evaluate(env Environment, extras []string) bool {
	if m == nil {
		return true
	}
	switch m.op {
	case "and":
		return m.left.Evaluate(env, extras) && m.right.Evaluate(env, extras)
	case "or":
		return m.left.Evaluate(env, extras) || m.right.Evaluate(env, extras)
	}
	if (m.lVar && m.lhs == "extra") || (m.rVar && m.rhs == "extra") {
		other := m.rhs
		if m.rVar {
			other = m.lhs
		}
		for _, e := range extras {
			if m.compare(Normalize(e), Normalize(other)) {
				return true
			}
		}
		if len(extras) == 0 {
			return m.compare("", Normalize(other))
		}
		return false
	}
	l, r := m.lhs, m.rhs
	if m.lVar {
		l = env[markerAlias(m.lhs)]
	}
	if m.rVar {
		r = env[markerAlias(m.rhs)]
	}
	return m.compare(l, r)
}

func markerAlias(v string) string {
	switch v {
	case "os.name":
		return "os_name"
	case "sys.platform":
		return "sys_platform"
	case "platform.version":
		return "platform_version"
	case "platform.machine":
		return "platform_machine"
	case "platform.python_implementation", "python_implementation":
		return "platform_python_implementation"
	}
	return v
}

func (m *Marker) compare(l, r string) bool {
	switch m.cmp {
	case "in":
		return strings.Contains(r, l)
	case "not in":
		return !strings.Contains(r, l)
	}
	if lv, err := ParseVersion(l); err == nil {
		if set, err := ParseSpecifiers(m.cmp + r); err == nil {
			return set.Contains(lv, true)
		}
	}
	switch m.cmp {
	case "==", "===":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	return false
}

func sortedStrings(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
