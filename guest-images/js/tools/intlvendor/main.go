// Command intlvendor writes third_party/formatjs, the FormatJS Intl
// polyfills the guest's built-ins take (guest-images/js/third_party.txt;
// see vendor.sh beside it, which installs the pinned packages):
// each package's polyfill-force.js, converted from ES module syntax to
// CommonJS by esbuild with the settings the guest itself converts with
// (goja runs scripts only), plus the locale data of the locales the guest
// ships, copied unmodified. A few lines of the DateTimeFormat polyfill are
// changed (patches below): each fails loudly if the source changes shape.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// locales are the locales whose CLDR data the guest ships (intl/index.js
// has the same list).
var locales = []string{"en", "en-GB", "de", "fr", "fr-CA", "es", "ja", "zh", "zh-Hant", "pt", "pt-PT", "ru"}

// polyfills: package, file, where it goes under builtins/.
var polyfills = []struct{ pkg, file, out string }{
	{"intl-numberformat", "polyfill-force.js", "intl/numberformat.js"},
	{"intl-datetimeformat", "polyfill-force.js", "intl/datetimeformat.js"},
	{"intl-pluralrules", "polyfill-force.js", "intl/pluralrules.js"},
	{"intl-relativetimeformat", "polyfill-force.js", "intl/relativetimeformat.js"},
	{"intl-listformat", "polyfill-force.js", "intl/listformat.js"},
	{"intl-segmenter", "polyfill-force.js", "intl/segmenter.js"},
	{"intl-locale", "polyfill-force.js", "intl/locale.js"},
	// dependencies, where an embedded module's bare require finds them
	{"intl-localematcher", "index.js", "deps/@formatjs/intl-localematcher/index.js"},
	{"bigdecimal", "index.js", "deps/@formatjs/bigdecimal/index.js"},
	{"intl-getcanonicallocales", "index.js", "deps/@formatjs/intl-getcanonicallocales/index.js"},
	{"intl-supportedvaluesof", "index.js", "deps/@formatjs/intl-supportedvaluesof/index.js"},
	{"fast-memoize", "index.js", "deps/@formatjs/fast-memoize/index.js"},
}

// data: packages with locale data, and the directory under intl/locale-data.
var data = []struct{ pkg, dir string }{
	{"intl-numberformat", "numberformat"},
	{"intl-datetimeformat", "datetimeformat"},
	{"intl-pluralrules", "pluralrules"},
	{"intl-relativetimeformat", "relativetimeformat"},
	{"intl-listformat", "listformat"},
}

// patches change the DateTimeFormat polyfill, for speed alone: the first
// use of a locale parsed all of its ~200 skeletons' patterns and interval
// patterns, and looked for each skeleton's interval format by parsing
// every interval skeleton again (~0.3 s of CPU in native goja, ~2 s in the
// guest). Only a skeleton's fields are needed to choose one: its patterns
// are parsed when read, its interval formats found when its patterns are,
// and an interval skeleton is parsed once. Checking a time zone name
// upper-cased every zone name at every construction; that is done once.
// Scoring a skeleton iterates with an index (goja's for-of is slow), and
// a token's length limit is a table, not eight string searches.
//
// A skeleton's fields ({year: "numeric", month: "short", ...}) depend on
// its characters alone, and a locale's first DateTimeFormat computed them
// for all ~760 of its skeletons, the largest part of its first use in the
// guest (~1.4 M fuel units a skeleton). They are computed here instead, by
// the polyfill's own replaceDateTimeTokens run in goja, and shipped in the
// locale's data file beside its CLDR data (skeletonFields: per calendar,
// the distinct field sets and, in the order of the skeletons, which one
// each has); a skeleton without an entry there is parsed as before. The
// lazy patterns of a skeleton are accessors of a shared prototype instead
// of four accessors and eight closures on each.
var patches = map[string][][2]string{
	"intl/datetimeformat.js": {
		{`function parseDateTimeSkeleton(skeleton, rawPattern = skeleton, rangePatterns, intervalFormatFallback) {
	const result = Object.assign(Object.create(null), {
		pattern: "",
		pattern12: "",
		skeleton,
		rawPattern,
		rangePatterns: Object.create(null),
		rangePatterns12: Object.create(null)
	});`, `function parseDateTimeSkeleton(skeleton, rawPattern = skeleton, rangePatterns, intervalFormatFallback, fields) {
	const result = Object.create(skeletonProto);
	result.skeleton = skeleton;
	result.rawPattern = rawPattern;`},
		{`	return { ...bestFormat };`, `	return copySkeleton(bestFormat);`},
		{`	const skeletonFormat = { ...bestFormat };`, `	const skeletonFormat = copySkeleton(bestFormat);`},
		{`	if (rangePatterns) for (const k in rangePatterns) {`,
			`	if (fields !== void 0) Object.assign(result, fields);
	else replaceDateTimeTokens(skeleton, result);
	skeletonSources.set(result, [rawPattern, rangePatterns, intervalFormatFallback]);
	return result;
}
const skeletonSources = new WeakMap();
const skeletonPatterns = new WeakMap();
function materializeSkeleton(result) {
	let p = skeletonPatterns.get(result);
	if (p === void 0) {
		const [rawPattern, rangePatterns, intervalFormatFallback] = skeletonSources.get(result);
		skeletonPatterns.set(result, p = parseDateTimeSkeletonPatterns(result, result.skeleton, rawPattern, rangePatterns, intervalFormatFallback));
	}
	return p;
}
const lazySkeletonProps = {};
for (const k of ["pattern", "pattern12", "rangePatterns", "rangePatterns12"]) lazySkeletonProps[k] = {
	enumerable: true,
	configurable: true,
	get() { return materializeSkeleton(this)[k]; },
	set(v) { Object.defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true }); }
};
// A skeleton's patterns are accessors of its prototype, made once, not
// four properties of each of a locale's ~760 skeletons.
const skeletonProto = Object.defineProperties(Object.create(null), lazySkeletonProps);
// copySkeleton is {...f} as it was when the patterns were f's own: they
// come first, then f's own properties.
function copySkeleton(f) {
	if (Object.getPrototypeOf(f) !== skeletonProto) return { ...f };
	return { pattern: f.pattern, pattern12: f.pattern12, skeleton: f.skeleton, rawPattern: f.rawPattern, rangePatterns: f.rangePatterns, rangePatterns12: f.rangePatterns12, ...f };
}
// knownSkeletonFields is the fields of the i-th of the n skeletons of a
// calendar as intlvendor computed them (the data's skeletonFields), or
// undefined: parse them.
function knownSkeletonFields(entry, calendar, formats, i, n) {
	const t = entry.skeletonFields?.[calendar];
	if (t === void 0 || t.of.length !== n || formats !== entry.data.formats?.[calendar]) return void 0;
	const k = t.of[i];
	return k < 0 ? void 0 : t.sets[k];
}
function parseDateTimeSkeletonPatterns(result0, skeleton, rawPattern, rangePatterns, intervalFormatFallback) {
	const result = Object.assign(Object.create(null), {
		pattern: "",
		pattern12: "",
		skeleton,
		rawPattern,
		rangePatterns: Object.create(null),
		rangePatterns12: Object.create(null)
	});
	if (typeof rangePatterns === "function") rangePatterns = rangePatterns();
	if (rangePatterns) for (const k in rangePatterns) {`},
		{`		else if (!options.hour12 && format.hour12) score -= 20;
	}
	for (const prop of DATE_TIME_PROPS) {`, `		else if (!options.hour12 && format.hour12) score -= 20;
	}
	for (let i = 0; i < DATE_TIME_PROPS.length; i++) {
		const prop = DATE_TIME_PROPS[i];`},
		{`		const maximum = "Eec".includes(c) ? 6 : "GQqUMLabB".includes(c) ? 5 : "zZOvVxX".includes(c) ? 4 : c === "D" ? 3 : "dhkHKwms".includes(c) ? 2 : "FW".includes(c) ? 1 : "yYur".includes(c) ? Infinity : 0;`,
			`		const maximum = TOKEN_MAXIMUM[c] || 0;`},
		{`function replaceDateTimeTokens(pattern, result) {`, `const TOKEN_MAXIMUM = Object.assign(Object.create(null), { E: 6, e: 6, c: 6, G: 5, Q: 5, q: 5, U: 5, M: 5, L: 5, a: 5, b: 5, B: 5, z: 4, Z: 4, O: 4, v: 4, V: 4, x: 4, X: 4, D: 3, d: 2, h: 2, k: 2, H: 2, K: 2, w: 2, m: 2, s: 2, F: 1, W: 1, y: Infinity, Y: Infinity, u: Infinity, r: Infinity });
function replaceDateTimeTokens(pattern, result) {`},
		{`	const target = parseDateTimeSkeleton(skeleton);`, `	const target = parseSkeletonOnce(skeleton);`},
		{`		const candidate = parseDateTimeSkeleton(key);`, `		const candidate = parseSkeletonOnce(key);`},
		{`function findIntervalFormat(skeleton, intervalFormats) {`, `const parsedSkeletons = new Map();
function parseSkeletonOnce(skeleton) {
	let r = parsedSkeletons.get(skeleton);
	if (r === void 0) parsedSkeletons.set(skeleton, r = parseDateTimeSkeleton(skeleton));
	return r;
}
function findIntervalFormat(skeleton, intervalFormats) {`},
		{`Object.keys(formats[calendar]).map((skeleton) => parseDateTimeSkeleton(skeleton, formats[calendar][skeleton], calendarIntervals[skeleton] || findIntervalFormat(skeleton, calendarIntervals), calendarIntervals.intervalFormatFallback));`,
			`Object.keys(formats[calendar]).map((skeleton, i, keys) => parseDateTimeSkeleton(skeleton, formats[calendar][skeleton], () => calendarIntervals[skeleton] || findIntervalFormat(skeleton, calendarIntervals), calendarIntervals.intervalFormatFallback, knownSkeletonFields(entry, calendar, formats[calendar], i, keys.length)));`},
		{`parseDateTimeSkeleton(pattern, pattern, findIntervalFormat(pattern, intervalFormats), intervalFormats.intervalFormatFallback)`,
			`parseDateTimeSkeleton(pattern, pattern, () => findIntervalFormat(pattern, intervalFormats), intervalFormats.intervalFormatFallback)`},
		{`	const uppercasedZones = zoneNames.reduce((all, z) => {
		all[z.toUpperCase()] = z;
		return all;
	}, {});`, `	const uppercasedZones = upperZoneMap(zoneNames);`},
		{`function CanonicalizeTimeZoneName(tz, { zoneNames, uppercaseLinks }) {`, `let upperZones;
function upperZoneMap(zoneNames) {
	if (upperZones?.n !== zoneNames.length) upperZones = { n: zoneNames.length, map: zoneNames.reduce((all, z) => {
		all[z.toUpperCase()] = z;
		return all;
	}, {}) };
	return upperZones.map;
}
let zoneNameSets;
function CanonicalizeTimeZoneName(tz, { zoneNames, uppercaseLinks }) {`},
		{`	const zoneNames = /* @__PURE__ */ new Set();
	const linkNames = /* @__PURE__ */ new Set();
	zoneNamesFromData.map((z) => z.toUpperCase()).forEach((z) => zoneNames.add(z));
	Object.keys(uppercaseLinks).forEach((linkName) => {
		linkNames.add(linkName.toUpperCase());
		zoneNames.add(uppercaseLinks[linkName].toUpperCase());
	});`, `	if (zoneNameSets?.n !== zoneNamesFromData.length || zoneNameSets.links !== uppercaseLinks) {
		const zoneNames = /* @__PURE__ */ new Set();
		const linkNames = /* @__PURE__ */ new Set();
		zoneNamesFromData.map((z) => z.toUpperCase()).forEach((z) => zoneNames.add(z));
		Object.keys(uppercaseLinks).forEach((linkName) => {
			linkNames.add(linkName.toUpperCase());
			zoneNames.add(uppercaseLinks[linkName].toUpperCase());
		});
		zoneNameSets = { n: zoneNamesFromData.length, links: uppercaseLinks, zoneNames, linkNames };
	}
	const { zoneNames, linkNames } = zoneNameSets;`},
		{`	replaceDateTimeTokens(skeleton, result);
	const fields = Object.create(null);
	const [pattern, pattern12] = processDateTimePattern(rawPattern, fields);
	patternFields.set(result, fields);`,
			`	const fields = Object.create(null);
	const [pattern, pattern12] = processDateTimePattern(rawPattern, fields);
	patternFields.set(result0, fields);`},
	},
}

func main() {
	nm, out := os.Args[1], os.Args[2]
	codes := map[string]string{}
	var bundles []string // the polyfills' bundles, which share helpers
	for _, p := range polyfills {
		src, err := os.ReadFile(filepath.Join(nm, "@formatjs", p.pkg, p.file))
		check(err)
		code := string(src)
		for _, pt := range patches[p.out] {
			if strings.Count(code, pt[0]) != 1 {
				check(fmt.Errorf("%s: patch target not found once: %q", p.out, pt[0]))
			}
			code = strings.Replace(code, pt[0], pt[1], 1)
		}
		codes[p.pkg] = code
		if p.file == "polyfill-force.js" {
			bundles = append(bundles, p.pkg)
		}
	}
	shared, rewritten := shareHelpers(bundles, codes)
	for pkg, code := range rewritten {
		codes[pkg] = code
	}
	transform := func(code, sourcefile, out string) {
		r := api.Transform(code, api.TransformOptions{
			Loader:        api.LoaderJS,
			Format:        api.FormatCommonJS,
			Platform:      api.PlatformNode,
			Target:        api.ES2020,
			Sourcefile:    sourcefile,
			LegalComments: api.LegalCommentsInline,
			LogLevel:      api.LogLevelSilent,
		})
		if len(r.Errors) > 0 {
			e := r.Errors[0]
			if e.Location != nil {
				check(fmt.Errorf("%s:%d: %s: %s", sourcefile, e.Location.Line, e.Text, e.Location.LineText))
			}
			check(fmt.Errorf("%s: %s", sourcefile, e.Text))
		}
		write(out, r.Code)
	}
	check(os.RemoveAll(filepath.Join(out, "deps", sharedModule)))
	for name, code := range shared {
		transform(code, name+"/index.js", filepath.Join(out, "deps", name, "index.js"))
	}
	for _, p := range polyfills {
		transform(codes[p.pkg], "@formatjs/"+p.pkg+"/"+p.file, filepath.Join(out, p.out))
	}
	writeProvenance(nm, out)
	writeZones(nm, out)
	fieldsOf := skeletonFieldsFunc(out)
	check(os.RemoveAll(filepath.Join(out, "intl", "locale-data")))
	for _, d := range data {
		for _, l := range locales {
			src, err := os.ReadFile(filepath.Join(nm, "@formatjs", d.pkg, "locale-data", l+".js"))
			if os.IsNotExist(err) && strings.Contains(l, "-") {
				continue // the package has the language's data only
			}
			check(err)
			dir := filepath.Join(out, "intl", "locale-data", d.dir)
			if j := dataJSON(src); j != nil {
				if d.dir == "datetimeformat" {
					j = withSkeletonFields(j, fieldsOf)
				}
				write(filepath.Join(dir, l+".json"), j)
			} else {
				write(filepath.Join(dir, l+".js"), src)
			}
		}
	}
}

// skeletonFieldsFunc loads the DateTimeFormat polyfill just written (its
// dependencies from deps/) into goja and returns a function from a
// locale's data (JSON) to its skeletonFields (JSON; see skeletonIndex),
// computed with the polyfill's replaceDateTimeTokens.
func skeletonFieldsFunc(out string) func(data []byte) string {
	vm := goja.New()
	cache := map[string]goja.Value{}
	var load func(p string) goja.Value
	load = func(p string) goja.Value {
		if v, ok := cache[p]; ok {
			return v
		}
		src, err := os.ReadFile(p)
		check(err)
		code := string(src)
		if strings.HasSuffix(p, "datetimeformat.js") {
			code += "\nmodule.exports.__skeletonFields = (s) => { const r = Object.create(null); replaceDateTimeTokens(s, r); return r; };"
		}
		fn, err := vm.RunScript(p, "(function (exports, require, module) {"+code+"\n})")
		check(err)
		call, _ := goja.AssertFunction(fn)
		module := vm.NewObject()
		check(module.Set("exports", vm.NewObject()))
		require := func(c goja.FunctionCall) goja.Value {
			spec := c.Argument(0).String()
			if !strings.HasPrefix(spec, "@formatjs/") {
				panic(vm.NewGoError(fmt.Errorf("%s requires %s", p, spec)))
			}
			return load(filepath.Join(out, "deps", spec, "index.js"))
		}
		_, err = call(goja.Undefined(), module.Get("exports"), vm.ToValue(require), module)
		check(err)
		cache[p] = module.Get("exports")
		return cache[p]
	}
	check(vm.Set("Intl", vm.NewObject()))
	fieldsOf := load(filepath.Join(out, "intl", "datetimeformat.js")).ToObject(vm).Get("__skeletonFields")
	if _, ok := goja.AssertFunction(fieldsOf); !ok {
		check(fmt.Errorf("datetimeformat.js: replaceDateTimeTokens is not reachable"))
	}
	index, err := vm.RunString(skeletonIndex)
	check(err)
	build, _ := goja.AssertFunction(index)
	return func(data []byte) string {
		v, err := build(goja.Undefined(), vm.ToValue(string(data)), fieldsOf)
		check(err)
		return v.String()
	}
}

// skeletonIndex builds a locale's skeletonFields from its data (JSON
// text): per calendar, the distinct field sets, and for each skeleton in
// the order JSON.parse gives the keys (the order the polyfill maps them
// in), the index of its set (-1: the polyfill refuses the skeleton).
const skeletonIndex = `(function (text, fieldsOf) {
	const formats = JSON.parse(text).data.formats;
	const out = {};
	for (const calendar of Object.keys(formats)) {
		const sets = [], of = [], seen = new Map();
		for (const skeleton of Object.keys(formats[calendar])) {
			let f;
			try {
				f = fieldsOf(skeleton);
			} catch {
				of.push(-1);
				continue;
			}
			const key = JSON.stringify(f);
			let i = seen.get(key);
			if (i === undefined) {
				seen.set(key, i = sets.length);
				sets.push(f);
			}
			of.push(i);
		}
		out[calendar] = { sets, of };
	}
	return JSON.stringify(out);
})`

// withSkeletonFields adds skeletonFields to a DateTimeFormat data file,
// after its data, which stays byte for byte as it was.
func withSkeletonFields(j []byte, fieldsOf func([]byte) string) []byte {
	if len(j) == 0 || j[len(j)-1] != '}' {
		check(fmt.Errorf("datetimeformat data is not an object"))
	}
	return append(append([]byte{}, j[:len(j)-1]...), `,"skeletonFields":`+fieldsOf(j)+"}"...)
}

// dataJSON is the argument of a locale-data file's __addLocaleData call
// when it is JSON (in the file as an object literal or as a string for
// JSON.parse), or nil (plural rules are functions). goja's JSON.parse is
// several times faster than compiling the same object literal.
func dataJSON(src []byte) []byte {
	s := string(src)
	if i := strings.Index(s, "JSON.parse(\""); i >= 0 {
		rest := s[i+len("JSON.parse("):]
		end := strings.LastIndex(rest, "\"))")
		if end < 0 {
			return nil
		}
		var inner string
		if json.Unmarshal([]byte(rest[:end+1]), &inner) != nil {
			return nil
		}
		return compact([]byte(inner))
	}
	i := strings.Index(s, "__addLocaleData(")
	if i < 0 {
		return nil
	}
	var body json.RawMessage
	if json.NewDecoder(strings.NewReader(s[i+len("__addLocaleData("):])).Decode(&body) != nil {
		return nil
	}
	return compact(body)
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return nil
	}
	return buf.Bytes()
}

// zoneLine is one zone of add-all-tz.js: its name, then its packed
// transitions (the guest computes transitions from Go's tzdata instead).
var zoneLine = regexp.MustCompile(`(?m)^\s*"([A-Za-z0-9_+\-/]+)\|`)

// writeZones lists the IANA zones the DateTimeFormat polyfill knows
// (its links it has in itself), one a line.
func writeZones(nm, out string) {
	src, err := os.ReadFile(filepath.Join(nm, "@formatjs/intl-datetimeformat/add-all-tz.js"))
	check(err)
	var names []string
	for _, m := range zoneLine.FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	if len(names) < 300 {
		check(fmt.Errorf("add-all-tz.js: only %d zones found", len(names)))
	}
	write(filepath.Join(out, "intl", "zones.txt"), []byte(strings.Join(names, "\n")+"\n"))
}

// writeProvenance writes LICENSE (the packages' licences: MIT, FormatJS,
// each distinct text once with the packages that carry it) and PROVENANCE
// (each package's version and integrity, from npm's lockfile of the
// install vendor.sh made).
func writeProvenance(nm, out string) {
	var lock struct {
		Packages map[string]struct {
			Version, Integrity, Resolved string
		} `json:"packages"`
	}
	b, err := os.ReadFile(filepath.Join(nm, ".package-lock.json"))
	check(err)
	check(json.Unmarshal(b, &lock))
	var pkgs []string
	for _, p := range polyfills {
		pkgs = append(pkgs, p.pkg)
	}
	sort.Strings(pkgs)
	var prov strings.Builder
	prov.WriteString(`source: npm, the @formatjs packages below (vendor.sh installs them; tools/intlvendor writes what is here)
files: intl/*.js, each package's polyfill-force.js (the Intl polyfills), with the declarations two or
  more of them bundle word for word moved to deps/@formatjs/ecma402-shared/SET/index.js (intlvendor's
  shared.go), converted from ES module syntax to CommonJS by esbuild; deps/@formatjs/NAME/index.js, the
  packages' index.js (their dependencies), converted the same way; intl/locale-data, the packages' CLDR
  data for the guest's locales (the JSON of their __addLocaleData calls, plural rules as they are); each
  datetimeformat/*.json has a skeletonFields member after its data, the fields of each skeleton,
  computed by intlvendor; intl/zones.txt, the zone names of intl-datetimeformat's add-all-tz.js
modified: intl/datetimeformat.js, for speed only: the patches listed in tools/intlvendor/main.go
licence: LICENSE
regenerate: cd guest-images/js && tools/intlvendor/vendor.sh (the versions are pinned there)
note: intl-relativetimeformat asks for intl-localematcher 0.10.1; every polyfill gets the one copy here, 0.9.0
used by: the JavaScript guest's Intl (guest-images/js/builtins/intl/index.js); guest-images/js/third_party.txt
  places intl/ and deps/ among its built-ins
packages:
`)
	licences := map[string][]string{}
	var texts []string
	for _, pkg := range pkgs {
		l := lock.Packages["node_modules/@formatjs/"+pkg]
		if l.Version == "" {
			check(fmt.Errorf("%s is not in the lockfile", pkg))
		}
		fmt.Fprintf(&prov, "  @formatjs/%s@%s %s\n", pkg, l.Version, l.Integrity)
		lic, err := os.ReadFile(filepath.Join(nm, "@formatjs", pkg, "LICENSE.md"))
		check(err)
		if licences[string(lic)] == nil {
			texts = append(texts, string(lic))
		}
		licences[string(lic)] = append(licences[string(lic)], "@formatjs/"+pkg)
	}
	write(filepath.Join(out, "PROVENANCE"), []byte(prov.String()))
	var lic strings.Builder
	for i, t := range texts {
		if i > 0 {
			lic.WriteString("\n")
		}
		fmt.Fprintf(&lic, "%s:\n\n%s", strings.Join(licences[t], ", "), strings.TrimRight(t, "\n")+"\n")
	}
	write(filepath.Join(out, "LICENSE"), []byte(lic.String()))
}

func write(p string, b []byte) {
	check(os.MkdirAll(filepath.Dir(p), 0o755))
	check(os.WriteFile(p, b, 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "intlvendor:", err)
		os.Exit(1)
	}
}
