package tscheck

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// A TypeScript 7 check is a project: a tsconfig the worker generates (in
// memory, like every file it serves) listing the check's files and its
// compilerOptions, extending the request's own tsconfig when tsconfigPath
// names one. The compiler parses and validates the options itself, so they
// are exactly TypeScript 7's; what it rejects in the generated file is the
// request's fault (400), what it reports in the user's tsconfig is a
// diagnostic, as tsc prints it.

// nativeConfigName is the generated tsconfig's file name, in the directory
// of the request's tsconfig (relative paths in both resolve alike) or /.
const nativeConfigName = "__wasmexec.tsconfig.json"

// nativeDeniedOptions would make the compiler print traces and file lists,
// which in API mode would go where nothing reads them: refused in a
// request, forced off over a tsconfig.
var nativeDeniedOptions = []string{"traceResolution", "listFiles", "explainFiles", "extendedDiagnostics", "diagnostics", "listEmittedFiles"}

// nativeOptions builds the generated tsconfig of a check. userTsconfig is the
// request's tsconfig text ("" without one). It returns the config text and
// whether the chosen libs declare the DOM's globals (console, the timers).
func nativeOptions(opts map[string]json.RawMessage, tsconfigPath, userTsconfig string, files []string) (text string, domLibs bool, sandbox bool, err error) {
	co := map[string]any{}
	sandbox = true
	for k, v := range opts {
		switch {
		case k == "sandboxGlobals":
			if err := json.Unmarshal(v, &sandbox); err != nil {
				return "", false, false, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.sandboxGlobals: want true or false")
			}
			continue
		case contains(nativeDeniedOptions, k):
			return "", false, false, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions.%s: not supported by the checker (it reports diagnostics only)", k)
		}
		co[k] = v
	}
	userSet := map[string]json.RawMessage{}
	if tsconfigPath != "" {
		userSet = tsconfigCompilerOptions(userTsconfig)
	}
	unset := func(name string) bool {
		_, a := co[name]
		_, b := userSet[name]
		return !a && !b
	}
	// The package defaults (those of the 5.9 checker) where neither the
	// request nor its tsconfig says otherwise.
	if unset("target") {
		co["target"] = "es2022"
	}
	if unset("lib") {
		co["lib"] = defaultLibs
	}
	if unset("module") && unset("moduleResolution") {
		co["module"] = "esnext"
	}
	if unset("strict") {
		co["strict"] = true
	}
	if unset("types") {
		co["types"] = []string{}
	}
	co["noEmit"] = true
	for _, k := range nativeDeniedOptions {
		co[k] = false
	}
	var libs []string
	if raw, ok := co["lib"].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &libs)
	} else if raw, ok := userSet["lib"]; ok {
		_ = json.Unmarshal(raw, &libs)
	} else {
		libs = defaultLibs
	}
	for _, l := range libs {
		if l = strings.ToLower(l); l == "dom" || l == "webworker" {
			domLibs = true
		}
	}
	cfg := map[string]any{
		"compilerOptions": co,
		"files":           files,
		"include":         []string{},
	}
	if tsconfigPath != "" {
		cfg["extends"] = tsconfigPath
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return "", false, false, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions: %v", err)
	}
	return string(b), domLibs, sandbox, nil
}

// tsconfigCompilerOptions reads the compilerOptions a tsconfig sets itself
// (tsconfig is JSON with comments and trailing commas); nil when it does
// not parse — the compiler reports that as a diagnostic.
func tsconfigCompilerOptions(text string) map[string]json.RawMessage {
	var tc struct {
		CompilerOptions map[string]json.RawMessage `json:"compilerOptions"`
	}
	if json.Unmarshal([]byte(stripJSONC(text)), &tc) != nil {
		return nil
	}
	return tc.CompilerOptions
}

// stripJSONC removes comments and trailing commas outside strings.
func stripJSONC(s string) string {
	var b strings.Builder
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			b.WriteByte(c)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 3
			}
			b.WriteByte(' ')
		case c == ',':
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Messages of the compiler about an option it no longer has, and what to
// use instead where its message does not say.
var (
	removedOption = regexp.MustCompile(`Option '([A-Za-z]+)(?:=([^']*))?' has been removed`)
	unknownOption = regexp.MustCompile(`Unknown compiler option '([^']+)'`)
)

var replacedBy = map[string]string{
	"target=es3":                         "use es2015 or later (the default is es2022)",
	"target=es5":                         "use es2015 or later (the default is es2022)",
	"moduleresolution=node10":            `use "bundler" (the default), "node16" or "nodenext"`,
	"moduleresolution=classic":           `use "bundler" (the default), "node16" or "nodenext"`,
	"module=amd":                         `use "esnext" (the default), "commonjs" or "preserve"`,
	"module=umd":                         `use "esnext" (the default), "commonjs" or "preserve"`,
	"module=system":                      `use "esnext" (the default), "commonjs" or "preserve"`,
	"module=none":                        `use "esnext" (the default), "commonjs" or "preserve"`,
	"esmoduleinterop=false":              "it is always on in TypeScript 7",
	"allowsyntheticdefaultimports=false": "it is always on in TypeScript 7",
	"alwaysstrict=false":                 "it is always on in TypeScript 7",
	"downlevelIteration":                 "it only mattered for ES5 targets, which TypeScript 7 removed",
	"outFile":                            "the checker emits nothing; bundle with a bundler",
	"importsNotUsedAsValues":             `use "verbatimModuleSyntax" (removed in TypeScript 5.5)`,
	"preserveValueImports":               `use "verbatimModuleSyntax" (removed in TypeScript 5.5)`,
	"keyofStringsOnly":                   "removed in TypeScript 5.5; write `Extract<keyof T, string>`",
	"suppressImplicitAnyIndexErrors":     "removed in TypeScript 5.5; add an index signature or use noImplicitAny: false",
	"noImplicitUseStrict":                "removed in TypeScript 5.5",
	"noStrictGenericChecks":              "removed in TypeScript 5.5",
	"charset":                            "removed in TypeScript 5.5; sources are UTF-8",
	"out":                                `removed in TypeScript 5.5 (it became "outFile", which TypeScript 7 removed too)`,
	"baseUrl":                            `set "paths" relative to the tsconfig: {"*": ["./*"]}`,
}

// optionsError turns the compiler's diagnostics about the generated tsconfig
// (the request's compilerOptions) into a 400 naming each option and, for a
// removed one, what replaced it.
func optionsError(diags []Diagnostic, tsconfigPath string) error {
	var parts []string
	for _, d := range diags {
		msg := d.Message
		key := ""
		if m := removedOption.FindStringSubmatch(msg); m != nil {
			key = m[1]
			if m[2] != "" {
				key = strings.ToLower(m[1] + "=" + m[2])
			}
		} else if m := unknownOption.FindStringSubmatch(msg); m != nil {
			key = m[1]
		}
		if hint, ok := replacedBy[key]; ok && !strings.Contains(msg, "instead") {
			msg += " (" + hint + ")"
		}
		parts = append(parts, fmt.Sprintf("TS%d: %s", d.Code, strings.Join(strings.Fields(msg), " ")))
	}
	sort.Strings(parts)
	parts = dedupe(parts)
	where := "compilerOptions"
	if tsconfigPath != "" {
		where = fmt.Sprintf("compilerOptions or tsconfigPath %q", tsconfigPath)
	}
	return wasmexec.Errorf(wasmexec.EInvalid, "%s: %s", where, strings.Join(parts, "; "))
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// nativeConfigPath is where the generated tsconfig of a check lives.
func nativeConfigPath(tsconfigPath string) string {
	if tsconfigPath == "" {
		return "/" + nativeConfigName
	}
	return path.Join(path.Dir(tsconfigPath), nativeConfigName)
}
