#!/usr/bin/env node
// bench-node.js — the node baseline for tscheck's BenchmarkCheckWarm.
//
//   node bench-node.js IMAGE_DIR FILE.ts [--lib es2022,dom] [--iterations N] [--json]
//
// Checks FILE.ts (as /main.ts) warm with the compiler API the way a tscheck
// worker does: an in-memory host, lib SourceFiles parsed once and cached in
// getSourceFile, oldProgram passed, the same options (strict, target es2022,
// module esnext, moduleResolution bundler, noEmit, types: [],
// libReplacement: false, an ambient console when dom is off). Prints the p50
// of the warm checks, e.g.
//   node warm check p50: 18.4 ms (lib es2022, 40 iterations, 2 diagnostics)
"use strict";
const fs = require("fs");
const path = require("path");

function usage(msg) {
  if (msg) console.error("bench-node: " + msg);
  console.error("usage: node bench-node.js IMAGE_DIR FILE.ts [--lib es2022,dom] [--iterations N] [--json]");
  process.exit(2);
}

const args = process.argv.slice(2);
let libs = ["es2022"], iterations = 40, asJSON = false;
const pos = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--lib") libs = (args[++i] || usage("--lib needs a value")).split(",");
  else if (args[i] === "--iterations") iterations = parseInt(args[++i], 10) || usage("bad --iterations");
  else if (args[i] === "--json") asJSON = true;
  else pos.push(args[i]);
}
if (pos.length !== 2) usage();
const [imageDir, file] = pos;
const tsPath = path.join(imageDir, "typescript.js");
if (!fs.existsSync(tsPath)) usage(tsPath + " not found (build the image with guest-images/typescript/build.sh)");
const ts = require(path.resolve(tsPath));
const code = fs.readFileSync(file, "utf8");

const CONSOLE_FILE = "/lib/lib.wasmexec-console.d.ts";
const CONSOLE_TEXT = "declare var console: { log(...a: any[]): void; error(...a: any[]): void; " +
  "warn(...a: any[]): void; info(...a: any[]): void };\n";
const needsConsole = !libs.some((l) => l === "dom" || l === "webworker");

const conv = ts.convertCompilerOptionsFromJson({
  strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", lib: libs,
}, "/");
if (conv.errors.length) usage(ts.flattenDiagnosticMessageText(conv.errors[0].messageText, "\n"));
const options = Object.assign(conv.options, { noEmit: true, types: [], libReplacement: false });

const libCache = new Map();
const libTexts = new Map();
function libText(f) {
  if (f === CONSOLE_FILE) return CONSOLE_TEXT;
  if (!f.startsWith("/lib/lib.")) return undefined;
  if (!libTexts.has(f)) {
    const p = path.join(imageDir, "lib", f.slice(5));
    libTexts.set(f, fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined);
  }
  return libTexts.get(f);
}
let oldProgram;
function check() {
  const user = { "/main.ts": code };
  const host = {
    getSourceFile(f, langOpts) {
      if (f in user) return ts.createSourceFile(f, user[f], langOpts, false);
      const key = f + "|" + (typeof langOpts === "number" ? langOpts : langOpts.languageVersion + "|" + langOpts.impliedNodeFormat);
      let sf = libCache.get(key);
      if (!sf) {
        const text = libText(f);
        if (text === undefined) return undefined;
        sf = ts.createSourceFile(f, text, langOpts, false);
        libCache.set(key, sf);
      }
      return sf;
    },
    getDefaultLibFileName: (o) => "/lib/" + ts.getDefaultLibFileName(o),
    getDefaultLibLocation: () => "/lib",
    writeFile() {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (f) => f in user || libText(f) !== undefined,
    readFile: (f) => (f in user ? user[f] : libText(f)),
    directoryExists: (d) => d === "/" || d === "/lib",
    getDirectories: () => [],
    realpath: (f) => f,
  };
  const roots = ["/main.ts"].concat(needsConsole ? [CONSOLE_FILE] : []);
  const program = ts.createProgram({ rootNames: roots, options, host, oldProgram });
  oldProgram = program;
  const sf = program.getSourceFile("/main.ts");
  let diags = program.getSyntacticDiagnostics(sf).slice();
  if (diags.length === 0) {
    diags = diags.concat(program.getOptionsDiagnostics(), program.getGlobalDiagnostics());
    if (diags.length === 0) diags = diags.concat(program.getSemanticDiagnostics(sf));
  }
  return ts.sortAndDeduplicateDiagnostics(diags).map((d) => ({
    code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  }));
}

const t0 = process.hrtime.bigint();
let diags = check(); // cold: parses the lib files
const coldMs = Number(process.hrtime.bigint() - t0) / 1e6;
for (let i = 0; i < 5; i++) check(); // let the JIT settle
const times = [];
for (let i = 0; i < iterations; i++) {
  const t = process.hrtime.bigint();
  diags = check();
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
const p50 = times[Math.floor(times.length / 2)];
if (asJSON) {
  console.log(JSON.stringify({ libs, iterations, p50Ms: p50, coldMs, diagnostics: diags }));
} else {
  console.log(`node warm check p50: ${p50.toFixed(1)} ms (lib ${libs.join(",")}, ${iterations} iterations, ` +
    `${diags.length} diagnostics; cold first check ${coldMs.toFixed(0)} ms)`);
}
