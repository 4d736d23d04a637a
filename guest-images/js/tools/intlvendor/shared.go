package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The polyfill bundles each inline what they use of FormatJS's shared
// packages (@formatjs/ecma402-abstract, ecma262-abstract, fast-memoize, the
// CLDR default-content table): the same functions, ~380 lines a bundle and
// more, five to seven times over. shareHelpers takes every top-level
// declaration that two or more bundles have word for word out into
// modules under deps/ (sharedModule/SET, one for each set of bundles
// that share declarations, named by their shortName: nf-dtf-pr), which
// the bundles then import.
//
// A bundle is a list of top-level statements, each starting on a line at
// column 0 (its doc comment with it), in regions the bundler marked with
// the source path ("//#region PATH" ... "//#endregion", or "// PATH" in
// the older bundles). A declaration (function, class, const, let or var
// NAME) is shared when its text is the same in at least two bundles, and
// in each bundle that takes it from a shared module, so are the
// declarations it refers to (and the names it imports, from the same
// package): the shared modules are then a closed set of the same code the
// bundles had.
// A bundle whose text for a name differs (the bundler renamed something,
// or dropped an unused function) keeps its own, and so does a bundle
// for a let or var it assigns to (an import can't be assigned).

// sharedModule is where the shared helpers' modules are, found by the
// polyfills' bare require among the built-ins' deps/.
const sharedModule = "@formatjs/ecma402-shared"

type stmt struct {
	name string // declared name; "" for other statements and region markers
	text string // lines, its leading comments included
	// cname and ctext are name and text with the bundler's renames undone
	// (invariant$1 -> invariant, for the bundle's own declarations): two
	// bundles may have renamed the same function differently.
	cname, ctext string
}

type bundle struct {
	pkg     string
	imports []string          // the import lines before the first region
	stmts   []stmt            // in order
	names   map[string]bool   // top-level declared names
	cnames  map[string]bool   // the same, renames undone
	ext     map[string]string // imported local name -> "package imported"
}

var (
	regionStart = regexp.MustCompile(`^(//#region \S+|// (node_modules|packages)/\S+)$`)
	declLine    = regexp.MustCompile(`^(?:async )?(?:function\*? ?|const |let |var |class )([A-Za-z_$][A-Za-z0-9_$]*)\b`)
	varLine     = regexp.MustCompile(`^(?:let|var) `)
	importLine  = regexp.MustCompile(`^import (.*) from "([^"]+)";$`)
	ident       = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`)
)

// parseBundle splits a bundle into its imports and top-level statements.
func parseBundle(pkg, src string) *bundle {
	b := &bundle{pkg: pkg, names: map[string]bool{}, ext: map[string]string{}}
	var pending []string // comment lines waiting for their statement
	cur := -1            // the statement being read, or -1
	end := func() {      // the current statement ends: without trailing blank lines
		if cur >= 0 {
			b.stmts[cur].text = strings.TrimRight(b.stmts[cur].text, "\n")
			cur = -1
		}
	}
	inTemplate := false // inside a template literal, which may go on at column 0
	for _, line := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		wasTemplate := inTemplate
		inTemplate = inTemplate != (backticks(line)%2 == 1)
		if wasTemplate && cur >= 0 {
			b.stmts[cur].text += "\n" + line
			continue
		}
		if len(b.stmts) == 0 && len(pending) == 0 && importLine.MatchString(line) {
			b.imports = append(b.imports, line)
			m := importLine.FindStringSubmatch(line)
			for _, local := range importNames(m[1]) {
				b.ext[local[0]] = m[2] + " " + local[1]
			}
			continue
		}
		switch {
		case regionStart.MatchString(line) || line == "//#endregion":
			end()
			if len(pending) > 0 {
				b.stmts = append(b.stmts, stmt{text: strings.Join(pending, "\n")})
				pending = nil
			}
			b.stmts = append(b.stmts, stmt{text: line})
		case line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '}' || line[0] == ')' || line[0] == ']':
			// a statement goes on (or a comment does)
			if cur >= 0 {
				b.stmts[cur].text += "\n" + line
			} else if len(pending) > 0 || line != "" {
				pending = append(pending, line)
			}
		case strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "//"):
			end()
			pending = append(pending, line)
		default:
			end()
			text := line
			if len(pending) > 0 {
				text = strings.Join(pending, "\n") + "\n" + line
				pending = nil
			}
			s := stmt{text: text}
			if m := declLine.FindStringSubmatch(line); m != nil {
				s.name = m[1]
			}
			if s.name != "" {
				b.names[s.name] = true
			}
			b.stmts = append(b.stmts, s)
			cur = len(b.stmts) - 1
		}
	}
	end()
	if len(pending) > 0 {
		b.stmts = append(b.stmts, stmt{text: strings.Join(pending, "\n")})
	}
	// A let or var the bundle assigns to stays in it: an import can't be
	// assigned.
	for i, st := range b.stmts {
		if st.name == "" || !varLine.MatchString(firstCodeLine(st.text)) {
			continue
		}
		assign := regexp.MustCompile(`(^|[^.\w$])` + regexp.QuoteMeta(st.name) + `\s*(=[^=>]|\+=|-=|\*=|/=|\|\|=|&&=|\?\?=|\+\+|--)`)
		for j, other := range b.stmts {
			if j != i && assign.MatchString(other.text) {
				b.stmts[i].name = ""
				break
			}
		}
	}
	b.cnames = map[string]bool{}
	for n := range b.names {
		b.cnames[b.canon(n)] = true
	}
	for i := range b.stmts {
		st := &b.stmts[i]
		st.cname, st.ctext = b.canon(st.name), renamed.ReplaceAllStringFunc(st.text, b.canon)
	}
	return b
}

// renamed matches a name the bundler may have given a suffix.
var renamed = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_]*\$[0-9]+\b`)

// canon is a declared name without the suffix the bundler added to keep it
// apart from another of the same name (only names the bundle declares).
func (b *bundle) canon(name string) string {
	if !b.names[name] {
		return name
	}
	if i := strings.LastIndexByte(name, '$'); i > 0 && strings.Trim(name[i+1:], "0123456789") == "" && name[i+1:] != "" {
		return name[:i]
	}
	return name
}

// firstCodeLine is a statement's first line that is not a comment.
func firstCodeLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l != "" && l[0] != '/' && l[0] != ' ' && l[0] != '*' {
			return l
		}
	}
	return ""
}

// backticks counts the backticks of a line that are not escaped.
func backticks(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '`':
			n++
		}
	}
	return n
}

// importNames gives the [local, imported] names of an import clause:
// "D, { A, B as C }" -> [D default] [A A] [C B].
func importNames(clause string) [][2]string {
	var out [][2]string
	clause = strings.TrimSpace(clause)
	if i := strings.Index(clause, "{"); i >= 0 {
		if def := strings.TrimSuffix(strings.TrimSpace(clause[:i]), ","); def != "" {
			out = append(out, [2]string{strings.TrimSpace(def), "default"})
		}
		for _, part := range strings.Split(strings.Trim(clause[i:], "{} "), ",") {
			f := strings.Fields(part)
			switch len(f) {
			case 1:
				out = append(out, [2]string{f[0], f[0]})
			case 3:
				out = append(out, [2]string{f[2], f[0]})
			}
		}
	} else if clause != "" {
		out = append(out, [2]string{clause, "default"})
	}
	return out
}

// shareHelpers rewrites the bundles (package -> source) to import the
// declarations they share from modules under sharedModule, and returns
// those modules' sources by module name (ES module syntax, like the
// bundles).
func shareHelpers(order []string, srcs map[string]string) (shared, out map[string]string) {
	var bs []*bundle
	for _, pkg := range order {
		bs = append(bs, parseBundle(pkg, srcs[pkg]))
	}
	// For each name, the text the most bundles have (two at least).
	type choice struct {
		text  string
		users map[*bundle]bool
		first [2]int // bundle index, statement index: the module's order
	}
	texts := map[string]map[string][]*bundle{}
	where := map[*bundle]map[string]int{}
	for _, b := range bs {
		where[b] = map[string]int{}
		ctext := map[string]string{}
		for i, s := range b.stmts {
			if s.name == "" {
				continue
			}
			if prev, dup := ctext[s.cname]; dup {
				if prev != s.ctext {
					where[b][s.cname] = -1 // two different ones: leave them alone
				}
				continue // the same function twice (invariant, invariant$1): one import serves both
			}
			ctext[s.cname] = s.ctext
			where[b][s.cname] = i
			if texts[s.cname] == nil {
				texts[s.cname] = map[string][]*bundle{}
			}
			texts[s.cname][s.ctext] = append(texts[s.cname][s.ctext], b)
		}
	}
	chosen := map[string]*choice{}
	for name, byText := range texts {
		var best *choice
		for text, users := range byText {
			if len(users) < 2 || (best != nil && len(users) <= len(best.users)) {
				continue
			}
			c := &choice{text: text, users: map[*bundle]bool{}}
			for _, b := range users {
				if where[b][name] >= 0 {
					c.users[b] = true
				}
			}
			if len(c.users) >= 2 {
				best = c
			}
		}
		if best != nil {
			chosen[name] = best
		}
	}
	// Close the set: a bundle takes a name from the module only if it
	// takes every declaration the text refers to from it as well, and
	// imports the same as the others for the names the text imports.
	refs := func(b *bundle, c *choice, self string) (local, imported []string) {
		seen := map[string]bool{}
		for _, id := range ident.FindAllString(c.text, -1) {
			if id == self || seen[id] {
				continue
			}
			seen[id] = true
			if b.cnames[id] {
				local = append(local, id)
			} else if _, ok := b.ext[id]; ok {
				imported = append(imported, id)
			}
		}
		return
	}
	extOf := map[string]string{} // imported local name -> "package imported" in the module
	for changed := true; changed; {
		changed = false
		for name, c := range chosen {
			for b := range c.users {
				local, imported := refs(b, c, name)
				ok := true
				for _, r := range local {
					if rc := chosen[r]; rc == nil || !rc.users[b] {
						ok = false
					}
				}
				for _, r := range imported {
					if e, set := extOf[r]; set && e != b.ext[r] {
						ok = false
					}
				}
				if !ok {
					delete(c.users, b)
					changed = true
					continue
				}
				for _, r := range imported {
					extOf[r] = b.ext[r]
				}
			}
			if len(c.users) < 2 {
				delete(chosen, name)
				changed = true
			}
		}
	}
	// The modules: one for each set of bundles that share declarations
	// (a bundle then loads the code it had, no more), the declarations in
	// the order the bundles have them (the first bundle that has each),
	// then the exports. A declaration refers only to ones every bundle of
	// its set shares too, so the modules import one another without a
	// cycle.
	var names []string
	groupOf := map[string]string{}
	for name, c := range chosen {
		var set []string
		for i, b := range bs {
			if c.users[b] {
				if len(set) == 0 {
					c.first = [2]int{i, where[b][name]}
				}
				set = append(set, shortName[strings.TrimPrefix(b.pkg, "intl-")])
			}
		}
		groupOf[name] = strings.Join(set, "-")
		if len(set) == len(bs) {
			groupOf[name] = "all"
		}
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := chosen[names[i]].first, chosen[names[j]].first
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	type module struct {
		names   []string
		imports map[string]bool
	}
	modules := map[string]*module{}
	for _, name := range names {
		g := groupOf[name]
		m := modules[g]
		if m == nil {
			m = &module{imports: map[string]bool{}}
			modules[g] = m
		}
		m.names = append(m.names, name)
		c := chosen[name]
		for b := range c.users {
			local, imported := refs(b, c, name)
			for _, r := range imported {
				f := strings.Fields(b.ext[r])
				m.imports[requireLine(f[0], [][2]string{{r, f[1]}})] = true
			}
			for _, r := range local {
				if rg := groupOf[r]; rg != g {
					m.imports[requireLine(sharedModule+"/"+rg, [][2]string{{r, r}})] = true
				}
			}
			break
		}
	}
	shared = map[string]string{}
	for g, m := range modules {
		var src strings.Builder
		src.WriteString("// Declarations the Intl polyfills of " + g + " each bundled word for word\n// (tools/intlvendor/shared.go takes them out), in their order.\n")
		var imps []string
		for l := range m.imports {
			imps = append(imps, l)
		}
		sort.Strings(imps)
		for _, l := range imps {
			src.WriteString(l + "\n")
		}
		for _, name := range m.names {
			src.WriteString(chosen[name].text + "\n")
		}
		src.WriteString("module.exports = { " + strings.Join(m.names, ", ") + " };\n")
		shared[sharedModule+"/"+g] = src.String()
	}

	out = map[string]string{}
	for _, b := range bs {
		taken := map[string][][2]string{} // module -> [local, exported]
		var body []string
		for _, s := range b.stmts {
			if c := chosen[s.cname]; s.name != "" && c != nil && c.users[b] && s.ctext == c.text {
				g := sharedModule + "/" + groupOf[s.cname]
				taken[g] = append(taken[g], [2]string{s.name, s.cname})
				continue
			}
			body = append(body, s.text)
		}
		body = dropEmptyRegions(body)
		var src strings.Builder
		for _, l := range b.imports {
			src.WriteString(l + "\n")
		}
		var mods []string
		for g := range taken {
			mods = append(mods, g)
		}
		sort.Strings(mods)
		for _, g := range mods {
			src.WriteString(requireLine(g, taken[g]) + "\n")
		}
		src.WriteString(strings.Join(body, "\n") + "\n")
		out[b.pkg] = src.String()
	}
	return shared, out
}

// shortName names a polyfill in the names of the shared modules.
var shortName = map[string]string{"numberformat": "nf", "datetimeformat": "dtf", "pluralrules": "pr", "relativetimeformat": "rtf", "listformat": "lf", "segmenter": "seg", "locale": "loc"}

// requireLine binds names of a module's exports ([local, exported]) as
// constants: a shared helper is then a plain binding where the bundle
// calls it, not a getter of an ES module namespace. Exports of the shared
// modules are plain properties (module.exports = {...}).
func requireLine(module string, names [][2]string) string {
	var parts []string
	def := ""
	for _, n := range names {
		switch {
		case n[1] == "default":
			def = n[0]
		case n[0] == n[1]:
			parts = append(parts, n[0])
		default:
			parts = append(parts, n[1]+": "+n[0])
		}
	}
	var lines []string
	if len(parts) > 0 {
		lines = append(lines, fmt.Sprintf("const { %s } = require(%q);", strings.Join(parts, ", "), module))
	}
	if def != "" {
		lines = append(lines, fmt.Sprintf("const %s = require(%q).default;", def, module))
	}
	return strings.Join(lines, "\n")
}

// dropEmptyRegions removes the markers of regions left without code.
func dropEmptyRegions(body []string) []string {
	var out []string
	for i := 0; i < len(body); i++ {
		if regionStart.MatchString(body[i]) {
			j := i + 1
			for j < len(body) && strings.TrimSpace(body[j]) == "" {
				j++
			}
			if j == len(body) || body[j] == "//#endregion" || regionStart.MatchString(body[j]) {
				if j < len(body) && body[j] == "//#endregion" {
					i = j
				} else {
					i = j - 1
				}
				continue
			}
		}
		out = append(out, body[i])
	}
	return out
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
