package pypi

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// Version is a PEP 440 version, normalized.
type Version struct {
	Epoch   int
	Release []int
	Pre     string // "", "a", "b", "rc"
	PreN    int
	Post    int // -1: none
	Dev     int // -1: none
	Local   string
}

// The PEP 440 appendix's permissive pattern (leading v, alternative
// spellings and separators, implicit post-releases).
var versionRE = regexp.MustCompile(`(?i)^\s*v?(?:(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*)` +
	`([-_\.]?(alpha|a|beta|b|preview|pre|c|rc)[-_\.]?([0-9]+)?)?` +
	`((?:-([0-9]+))|(?:[-_\.]?(post|rev|r)[-_\.]?([0-9]+)?))?` +
	`([-_\.]?(dev)[-_\.]?([0-9]+)?)?)(?:\+([a-z0-9]+(?:[-_\.][a-z0-9]+)*))?\s*$`)

// ParseVersion parses a PEP 440 version.
func ParseVersion(s string) (Version, error) {
	if len(s) > 200 {
		return Version{}, fmt.Errorf("a version of %d characters is too long", len(s))
	}
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("%q is not a PEP 440 version", s)
	}
	v := Version{Post: -1, Dev: -1}
	if m[1] != "" {
		v.Epoch = atoi(m[1])
	}
	for _, p := range strings.Split(m[2], ".") {
		v.Release = append(v.Release, atoi(p))
	}
	if m[4] != "" {
		switch strings.ToLower(m[4]) {
		case "alpha", "a":
			v.Pre = "a"
		case "beta", "b":
			v.Pre = "b"
		default:
			v.Pre = "rc"
		}
		v.PreN = atoi(m[5])
	}
	switch {
	case m[7] != "":
		v.Post = atoi(m[7])
	case m[8] != "":
		v.Post = atoi(m[9])
	}
	if m[11] != "" {
		v.Dev = atoi(m[12])
	}
	if m[13] != "" {
		v.Local = strings.ToLower(strings.NewReplacer("-", ".", "_", ".").Replace(m[13]))
	}
	return v, nil
}

// atoi reads a decimal that the pattern guarantees; absurdly long numbers
// saturate rather than overflow.
func atoi(s string) int {
	if s == "" {
		return 0
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || !n.IsInt64() || n.Int64() > 1<<40 {
		return 1 << 40
	}
	return int(n.Int64())
}

// String is the normalized form.
func (v Version) String() string {
	var b strings.Builder
	if v.Epoch != 0 {
		fmt.Fprintf(&b, "%d!", v.Epoch)
	}
	for i, r := range v.Release {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%d", r)
	}
	if v.Pre != "" {
		fmt.Fprintf(&b, "%s%d", v.Pre, v.PreN)
	}
	if v.Post >= 0 {
		fmt.Fprintf(&b, ".post%d", v.Post)
	}
	if v.Dev >= 0 {
		fmt.Fprintf(&b, ".dev%d", v.Dev)
	}
	if v.Local != "" {
		b.WriteString("+" + v.Local)
	}
	return b.String()
}

// IsPrerelease reports a pre- or development release.
func (v Version) IsPrerelease() bool { return v.Pre != "" || v.Dev >= 0 }

// Public is v without its local label.
func (v Version) Public() Version { v.Local = ""; return v }

// Compare orders versions as PEP 440 does: -1, 0 or 1.
func (v Version) Compare(w Version) int {
	if c := cmpInt(v.Epoch, w.Epoch); c != 0 {
		return c
	}
	n := max(len(v.Release), len(w.Release))
	for i := 0; i < n; i++ {
		if c := cmpInt(at(v.Release, i), at(w.Release, i)); c != 0 {
			return c
		}
	}
	if c := cmpInt(v.preKey(), w.preKey()); c != 0 {
		return c
	}
	if c := cmpInt(v.PreN, w.PreN); c != 0 && v.Pre != "" {
		return c
	}
	if c := cmpInt(v.Post, w.Post); c != 0 {
		return c
	}
	vd, wd := v.Dev, w.Dev
	if vd < 0 {
		vd = 1 << 62
	}
	if wd < 0 {
		wd = 1 << 62
	}
	if c := cmpInt(vd, wd); c != 0 {
		return c
	}
	return compareLocal(v.Local, w.Local)
}

// preKey ranks the pre-release phase: a dev release of a final version
// comes before its alphas; a final (or post) release after its rcs.
func (v Version) preKey() int {
	switch {
	case v.Pre == "a":
		return 1
	case v.Pre == "b":
		return 2
	case v.Pre == "rc":
		return 3
	case v.Post < 0 && v.Dev >= 0:
		return 0
	}
	return 4
}

func compareLocal(a, b string) int {
	if a == b {
		return 0
	}
	if a == "" {
		return -1
	}
	if b == "" {
		return 1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		an, aNum := num(as[i])
		bn, bNum := num(bs[i])
		switch {
		case aNum && bNum:
			if c := cmpInt(an, bn); c != 0 {
				return c
			}
		case aNum:
			return 1
		case bNum:
			return -1
		default:
			if c := strings.Compare(as[i], bs[i]); c != 0 {
				return c
			}
		}
	}
	return cmpInt(len(as), len(bs))
}

func num(s string) (int, bool) {
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	return atoi(s), s != ""
}

func at(r []int, i int) int {
	if i < len(r) {
		return r[i]
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Specifier is one clause of a PEP 440 version specifier ("~=1.4", "!=2.*").
type Specifier struct {
	Op      string
	Version string // as written, after the operator
	v       Version
	prefix  bool // ==V.* or !=V.*
}

// SpecifierSet is a comma-separated list of clauses, all of which must hold.
type SpecifierSet []Specifier

var specOps = []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"}

// ParseSpecifiers parses "", ">=1.0,<2", "==1.4.*".
func ParseSpecifiers(s string) (SpecifierSet, error) {
	var set SpecifierSet
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		op := ""
		for _, o := range specOps {
			if strings.HasPrefix(part, o) {
				op = o
				break
			}
		}
		if op == "" {
			return nil, fmt.Errorf("%q is not a version specifier (an operator such as == or >= must come first)", part)
		}
		ver := strings.TrimSpace(part[len(op):])
		if ver == "" {
			return nil, fmt.Errorf("%q: no version after %s", part, op)
		}
		sp := Specifier{Op: op, Version: ver}
		if op == "===" {
			set = append(set, sp)
			continue
		}
		if strings.HasSuffix(ver, ".*") {
			if op != "==" && op != "!=" {
				return nil, fmt.Errorf("%q: a .* suffix works only with == and !=", part)
			}
			sp.prefix = true
			ver = strings.TrimSuffix(ver, ".*")
		}
		v, err := ParseVersion(ver)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", part, err)
		}
		if (sp.prefix || op == "~=" || (op != "==" && op != "!=")) && v.Local != "" {
			return nil, fmt.Errorf("%q: a local version label is allowed only with == and !=", part)
		}
		if op == "~=" && len(v.Release) < 2 {
			return nil, fmt.Errorf("%q: ~= needs at least two release segments", part)
		}
		sp.v = v
		set = append(set, sp)
	}
	return set, nil
}

// String is the set as written (normalized spacing).
func (s SpecifierSet) String() string {
	parts := make([]string, len(s))
	for i, sp := range s {
		parts[i] = sp.Op + sp.Version
	}
	return strings.Join(parts, ",")
}

// AllowsPrereleases reports whether a clause names a pre-release, which
// lets pre-releases match (PEP 440).
func (s SpecifierSet) AllowsPrereleases() bool {
	for _, sp := range s {
		if sp.Op != "!=" && sp.v.IsPrerelease() {
			return true
		}
	}
	return false
}

// Contains reports whether v matches every clause. Pre-releases match
// only when pre is true.
func (s SpecifierSet) Contains(v Version, pre bool) bool {
	if v.IsPrerelease() && !pre {
		return false
	}
	for _, sp := range s {
		if !sp.contains(v) {
			return false
		}
	}
	return true
}

func (sp Specifier) contains(v Version) bool {
	switch sp.Op {
	case "===":
		return strings.EqualFold(v.String(), sp.Version)
	case "==":
		if sp.prefix {
			return prefixMatch(v, sp.v)
		}
		if sp.v.Local == "" {
			v = v.Public()
		}
		return v.Compare(sp.v) == 0
	case "!=":
		if sp.prefix {
			return !prefixMatch(v, sp.v)
		}
		if sp.v.Local == "" {
			v = v.Public()
		}
		return v.Compare(sp.v) != 0
	case "~=":
		prefix := sp.v
		prefix.Release = prefix.Release[:len(prefix.Release)-1]
		prefix.Pre, prefix.PreN, prefix.Post, prefix.Dev = "", 0, -1, -1
		return v.Public().Compare(sp.v) >= 0 && prefixMatch(v, prefix)
	case "<=":
		return v.Public().Compare(sp.v) <= 0
	case ">=":
		return v.Public().Compare(sp.v) >= 0
	case "<":
		v = v.Public()
		if v.Compare(sp.v) >= 0 {
			return false
		}
		// <V excludes pre-releases of V itself unless V is one.
		if !sp.v.IsPrerelease() && v.IsPrerelease() && sameRelease(v, sp.v) {
			return false
		}
		return true
	case ">":
		v = v.Public()
		if v.Compare(sp.v) <= 0 {
			return false
		}
		// >V excludes post-releases (and locals) of V unless V is one.
		if sp.v.Post < 0 && v.Post >= 0 && sameRelease(v, sp.v) {
			return false
		}
		return true
	}
	return false
}

func sameRelease(a, b Version) bool {
	if a.Epoch != b.Epoch {
		return false
	}
	n := max(len(a.Release), len(b.Release))
	for i := 0; i < n; i++ {
		if at(a.Release, i) != at(b.Release, i) {
			return false
		}
	}
	return true
}

// prefixMatch is ==P.*: v's release starts with P's (padded with zeros),
// and P's pre/post/dev parts, when present, match too.
func prefixMatch(v, p Version) bool {
	if v.Epoch != p.Epoch {
		return false
	}
	for i, r := range p.Release {
		if at(v.Release, i) != r {
			return false
		}
	}
	if p.Pre != "" && (v.Pre != p.Pre || v.PreN != p.PreN) {
		return false
	}
	if p.Post >= 0 && v.Post != p.Post {
		return false
	}
	if p.Dev >= 0 && v.Dev != p.Dev {
		return false
	}
	return true
}
