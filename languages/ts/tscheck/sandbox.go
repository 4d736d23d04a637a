package tscheck

import (
	"regexp"
	"strings"
)

// sandboxGlobal is a global the JavaScript guest defines for every run
// (guest-images/js: globals.go, loop.go, fs.go), declared to the checker as
// an ambient lib file of its own, so code that runs in the sandbox checks
// without "Cannot find name". Values the guest sets with a plain property
// are `declare var`; accessors without a setter (inputs, __dirname) are
// `declare const`.
type sandboxGlobal struct {
	name string
	// dom: the dom and webworker libs declare it too; with them, theirs is
	// used (two declarations of one global would conflict).
	dom  bool
	decl string
}

var sandboxGlobals = []sandboxGlobal{
	{name: "console", dom: true, decl: `declare var console: {
    log(...data: any[]): void;
    info(...data: any[]): void;
    debug(...data: any[]): void;
    trace(...data: any[]): void;
    error(...data: any[]): void;
    warn(...data: any[]): void;
};
`},
	{name: "setTimeout", dom: true, decl: "declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;\n"},
	{name: "setInterval", dom: true, decl: "declare function setInterval(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;\n"},
	{name: "clearTimeout", dom: true, decl: "declare function clearTimeout(id?: number): void;\n"},
	{name: "clearInterval", dom: true, decl: "declare function clearInterval(id?: number): void;\n"},
	{name: "queueMicrotask", dom: true, decl: "declare function queueMicrotask(callback: () => void): void;\n"},
	{name: "inputs", decl: `/** The request's "inputs" (JSON, deeply frozen), or null without any. */
declare const inputs: any;
`},
	{name: "stdin", decl: `declare var stdin: {
    /** The next line of standard input without its line break, or null at its end. */
    readLine(): string | null;
    /** The rest of standard input. */
    read(): string;
};
`},
	{name: "process", decl: `declare var process: {
    readonly argv: string[];
    env: { [name: string]: string | undefined };
    exit(code?: number): never;
    stdout: { write(text: string): boolean };
    stderr: { write(text: string): boolean };
};
`},
	{name: "fs", decl: `/** A small synchronous fs that sees only /workspace. */
declare var fs: {
    /** Without an encoding, the bytes. */
    readFileSync(path: string): ArrayBuffer;
    readFileSync(path: string, encoding: string): string;
    writeFileSync(path: string, data: string | ArrayBuffer): void;
    appendFileSync(path: string, data: string): void;
    existsSync(path: string): boolean;
    readdirSync(path: string): string[];
    mkdirSync(path: string, options?: { recursive?: boolean }): void;
    unlinkSync(path: string): void;
    /** Removes path and everything under it. */
    rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
};
`},
	{name: "__dirname", decl: "declare const __dirname: string;\n"},
}

// sandboxFile is the lib file name of a sandbox global's declaration.
func sandboxFile(name string) string { return "/lib/lib.wasmexec-" + name + ".d.ts" }

// sandboxTexts maps each declaration's file name to its text (served to
// driver.js, which caches the parsed files like the compiler's own libs).
func sandboxTexts() map[string]string {
	m := make(map[string]string, len(sandboxGlobals))
	for _, g := range sandboxGlobals {
		m[sandboxFile(g.name)] = g.decl
	}
	return m
}

// ownDeclarations finds the sandbox globals that user code declares itself
// (also in a nested scope or a comment: then the ambient one is left out,
// which is only what happened before it existed). One pass over the text,
// and only for names it contains at all: a file may be megabytes long.
func ownDeclarations(files map[string]string) map[string]bool {
	own := map[string]bool{}
	for _, text := range files {
		var names []string
		for _, g := range sandboxGlobals {
			if !own[g.name] && strings.Contains(text, g.name) {
				names = append(names, regexp.QuoteMeta(g.name))
			}
		}
		if len(names) == 0 {
			continue
		}
		re := regexp.MustCompile(`\b(?:var|let|const|function|class|enum|namespace)\s+(` + strings.Join(names, "|") + `)\b`)
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			own[m[1]] = true
		}
	}
	return own
}

// sandboxFiles returns the declaration files a check adds: every sandbox
// global, unless on is false, the libs declare it (domLibs: dom or
// webworker chosen), or the user's files declare it themselves.
func sandboxFiles(on, domLibs bool, files map[string]string) []string {
	if !on {
		return nil
	}
	own := ownDeclarations(files)
	var out []string
	for _, g := range sandboxGlobals {
		if g.dom && domLibs || own[g.name] {
			continue
		}
		out = append(out, sandboxFile(g.name))
	}
	return out
}
