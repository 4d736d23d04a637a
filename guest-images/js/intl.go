package main

import (
	"math"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // DateTimeFormat's time zones

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Intl: ECMA-402 as FormatJS's polyfills implement it (builtins/intl,
// docs/RATIONALE.md says why), with what Go does better underneath:
// BCP 47 canonicalization and collation from golang.org/x/text (goja
// already links both), and time zone transitions from Go's tzdata. The
// global is made when a run first reads it, each constructor when first
// read, and each locale's CLDR data when a constructor first asks for the
// locale: a guest starts from a snapshot, and what init evaluates is heap
// every start carries.

// intlModule is builtins/intl/index.js among the built-ins (not a node:
// name); intlNative is what it asks the driver for.
const (
	intlModule = " intl"
	intlNative = " intl-native"
)

// intlRoutes are the built-ins' locale-sensitive methods that ECMA-402
// defines through Intl: each becomes a native function that loads Intl
// when first called and calls the index.js function of that name.
var intlRoutes = []struct {
	proto, name, fn string
	length          int
}{
	{"Number", "toLocaleString", "numberToLocaleString", 0},
	{"BigInt", "toLocaleString", "numberToLocaleString", 0},
	{"Date", "toLocaleString", "dateToLocaleString", 0},
	{"Date", "toLocaleDateString", "dateToLocaleDateString", 0},
	{"Date", "toLocaleTimeString", "dateToLocaleTimeString", 0},
	{"String", "localeCompare", "stringLocaleCompare", 1},
}

func (d *driver) installIntl(g *goja.Object) {
	d.lazyGlobal("Intl", func() goja.Value {
		return d.mods.builtin(intlModule).(*goja.Object).Get("Intl")
	})
	for _, r := range intlRoutes {
		r := r
		ctor, ok := g.Get(r.proto).(*goja.Object)
		if !ok {
			continue
		}
		proto := ctor.Get("prototype").(*goja.Object)
		var impl goja.Callable
		f := d.vm.ToValue(func(call goja.FunctionCall) goja.Value {
			if impl == nil {
				impl, _ = goja.AssertFunction(d.mods.builtin(intlModule).(*goja.Object).Get(r.fn))
			}
			v, err := impl(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}).(*goja.Object)
		// (writable, configurable, enumerable) as the built-ins have them
		must(f.DefineDataProperty("name", d.vm.ToValue(r.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		must(f.DefineDataProperty("length", d.vm.ToValue(r.length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		must(proto.DefineDataProperty(r.name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
}

// intlNativeObject is the " intl-native" module.
func (m *modules) intlNativeObject() goja.Value {
	vm := m.d.vm
	o := vm.NewObject()
	// canonicalize(tag) is CanonicalizeLocaleList's step for one tag:
	// the tag in canonical form, or a RangeError.
	must(o.Set("canonicalize", func(call goja.FunctionCall) goja.Value {
		tag := call.Argument(0).String()
		c, ok := canonicalTag(tag)
		if !ok {
			e, _ := vm.New(vm.Get("RangeError"), vm.ToValue("Incorrect locale information provided"))
			panic(e)
		}
		return vm.ToValue(c)
	}))
	// dataFile(kind, locale) is the locale's data file under
	// builtins/intl/locale-data/kind (JSON, or a script for plural rules;
	// third_party/formatjs, which build.sh adds to the built-ins),
	// or "".
	must(o.Set("dataFile", func(call goja.FunctionCall) goja.Value {
		base := call.Argument(0).String() + "/" + call.Argument(1).String()
		for _, ext := range []string{".json", ".js"} {
			if _, err := builtinFS.Open("builtins/intl/locale-data/" + base + ext); err == nil {
				return vm.ToValue(base + ext)
			}
		}
		return vm.ToValue("")
	}))
	// zoneNames lists the IANA zones (builtins/intl/zones.txt, from
	// third_party/formatjs).
	must(o.Set("zoneNames", func(goja.FunctionCall) goja.Value {
		b, _ := builtinFS.ReadFile("builtins/intl/zones.txt")
		var names []any
		for _, n := range strings.Fields(string(b)) {
			names = append(names, n)
		}
		return vm.NewArray(names...)
	}))
	// zone(name) is the zone's transitions as the DateTimeFormat polyfill
	// keeps them: [start (s, the first -Infinity), abbreviation, UTC
	// offset (s), is DST], or undefined for a zone Go doesn't know.
	must(o.Set("zone", func(call goja.FunctionCall) goja.Value {
		rows := zoneTransitions(call.Argument(0).String())
		if rows == nil {
			return goja.Undefined()
		}
		out := make([]any, len(rows))
		for i, r := range rows {
			out[i] = vm.NewArray(r.start, r.abbr, r.offset, r.dst)
		}
		return vm.NewArray(out...)
	}))
	// collator(locale, sensitivity, numeric, ignorePunctuation) is a
	// compare function.
	must(o.Set("collator", func(call goja.FunctionCall) goja.Value {
		c := newCollator(call.Argument(0).String(), call.Argument(1).String(), call.Argument(2).ToBoolean())
		ignorePunct := call.Argument(3).ToBoolean()
		return vm.ToValue(func(call goja.FunctionCall) goja.Value {
			a, b := call.Argument(0).String(), call.Argument(1).String()
			if ignorePunct {
				a, b = stripPunct(a), stripPunct(b)
			}
			return vm.ToValue(c.CompareString(norm.NFD.String(a), norm.NFD.String(b)))
		})
	}))
	return o
}

// canonicalTag is a BCP 47 tag in the canonical form ECMA-402 asks for
// (case, deprecated and legacy subtags replaced), or false if it is not
// a well-formed tag. x/text canonicalizes what it knows; a well-formed tag
// with subtags it doesn't know (xx, a new variant) only has its case set.
func canonicalTag(tag string) (string, bool) {
	if !wellFormed(tag) {
		return "", false
	}
	if t, err := language.Parse(tag); err == nil {
		return t.String(), true
	}
	return caseTag(tag), true
}

// wellFormed checks a unicode_locale_id's shape: language (2-3 or 5-8
// letters), script, region, variants, then singleton extensions.
func wellFormed(tag string) bool {
	parts := strings.Split(tag, "-")
	alpha := func(s string) bool {
		for _, c := range s {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
		}
		return true
	}
	alnum := func(s string) bool {
		for _, c := range s {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
		return true
	}
	l := parts[0]
	if !alpha(l) || !(len(l) >= 2 && len(l) <= 3 || len(l) >= 5 && len(l) <= 8) {
		return false
	}
	i := 1
	if i < len(parts) && len(parts[i]) == 4 && alpha(parts[i]) {
		i++
	}
	if i < len(parts) && (len(parts[i]) == 2 && alpha(parts[i]) || len(parts[i]) == 3 && strings.Trim(parts[i], "0123456789") == "") {
		i++
	}
	seen := map[string]bool{}
	for ; i < len(parts) && len(parts[i]) > 1; i++ {
		v := strings.ToLower(parts[i])
		if !alnum(v) || !(len(v) >= 5 && len(v) <= 8 || len(v) == 4 && v[0] >= '0' && v[0] <= '9') || seen[v] {
			return false
		}
		seen[v] = true
	}
	for i < len(parts) {
		single := strings.ToLower(parts[i])
		if len(single) != 1 || !alnum(single) || seen["-"+single] {
			return false
		}
		seen["-"+single] = true
		i++
		n := 0
		for ; i < len(parts) && (len(parts[i]) > 1 || single == "x"); i++ {
			if !alnum(parts[i]) || len(parts[i]) > 8 {
				return false
			}
			n++
		}
		if n == 0 {
			return false
		}
	}
	return true
}

// caseTag sets a tag's case: language and extensions lower, script
// title, region upper.
func caseTag(tag string) string {
	parts := strings.Split(strings.ToLower(tag), "-")
	for i := 1; i < len(parts) && len(parts[i]) > 1; i++ {
		switch {
		case len(parts[i]) == 4 && i == 1:
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		case len(parts[i]) == 2:
			parts[i] = strings.ToUpper(parts[i])
		}
	}
	return strings.Join(parts, "-")
}

type transition struct {
	start  float64
	abbr   string
	offset int
	dst    bool
}

var zoneCache sync.Map // name → []transition

// zoneTransitions walks a zone from 1850 to 2100 with Go's tzdata: the
// polyfill's own data (add-all-tz.js) is 1.3 MB of JavaScript to parse.
func zoneTransitions(name string) []transition {
	if v, ok := zoneCache.Load(name); ok {
		return v.([]transition)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	t := time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC).In(loc)
	end := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	abbr, off := t.Zone()
	rows := []transition{{start: math.Inf(-1), abbr: abbr, offset: off, dst: t.IsDST()}}
	for t.Before(end) {
		_, next := t.ZoneBounds()
		if next.IsZero() {
			break
		}
		if !next.After(t) {
			// Past a zone's table Go makes zones from its rule a year at
			// a time, and a bound can be where it starts.
			t = t.Add(24 * time.Hour)
			continue
		}
		t = next.In(loc)
		abbr, off := t.Zone()
		if last := rows[len(rows)-1]; last.abbr == abbr && last.offset == off && last.dst == t.IsDST() {
			continue
		}
		rows = append(rows, transition{start: float64(t.Unix()), abbr: abbr, offset: off, dst: t.IsDST()})
	}
	zoneCache.Store(name, rows)
	return rows
}

// newCollator maps ECMA-402's options to x/text's: sensitivity "base"
// ignores case and accents, "accent" case, "case" accents.
func newCollator(locale, sensitivity string, numeric bool) *collate.Collator {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.Und
	}
	var opts []collate.Option
	switch sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	case "case":
		opts = append(opts, collate.IgnoreDiacritics)
	}
	if numeric {
		opts = append(opts, collate.Numeric)
	}
	return collate.New(tag, opts...)
}

// stripPunct drops whitespace and punctuation (ignorePunctuation).
func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= 0x7f && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return -1
		}
		if r == 0xa0 || r == 0x2019 || r == 0x2018 || r == 0x201c || r == 0x201d || r == 0x2013 || r == 0x2014 {
			return -1
		}
		return r
	}, s)
}
