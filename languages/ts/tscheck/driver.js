// driver.js runs inside the worker's goja runtime after typescript.js has
// defined the global `ts`. It exposes one global, __tscheck, with:
//
//   check(requestJSON) -> resultJSON
//   info() -> JSON {version, libs, options}
//   discardUnverified()   after an interrupted or failed check
//
// The Go side provides __tscheck_readLib(fileName) -> string | null, which
// serves /lib/lib.*.d.ts from the image (there is no file system here), and
// __tscheck_ambientTexts, {fileName: text} of the sandbox's ambient
// declarations (/lib/lib.wasmexec-NAME.d.ts, tscheck/sandbox.go).
var __tscheck = (function () {
  "use strict";

  var LIB_DIR = "/lib/";
  var AMBIENT = __tscheck_ambientTexts;

  var createProgram = ts.createProgram;
  var createSourceFile = ts.createSourceFile;
  var sortAndDeduplicate = ts.sortAndDeduplicateDiagnostics;
  var flatten = ts.flattenDiagnosticMessageText;
  var convertOptions = ts.convertCompilerOptionsFromJson;
  var lineAndChar = ts.getLineAndCharacterOfPosition;
  var getDefaultLibFileName = ts.getDefaultLibFileName;
  var CATEGORY = ["warning", "error", "suggestion", "message"];

  // Parsed lib SourceFiles, shared by every program this worker creates.
  // key (file + parse options) -> {file: SourceFile, verified: bool}.
  // A file is "verified" once a check that used it ran to completion: only then
  // is it known to be fully parsed and bound. Binding mutates the SourceFile, so
  // a check interrupted mid-bind would otherwise leave a half-bound file behind.
  var libCache = new Map();
  var usedThisCheck = [];
  var oldProgram;
  // binding: the running check got past createProgram, so the checker may
  // have started binding (mutating) the lib files it used.
  var binding = false;

  function cacheKey(fileName, langOpts) {
    if (typeof langOpts === "number") return fileName + "|" + langOpts;
    return fileName + "|" + langOpts.languageVersion + "|" + langOpts.impliedNodeFormat + "|" + langOpts.jsDocParsingMode;
  }

  function isLibFile(fileName) {
    return fileName.lastIndexOf(LIB_DIR, 0) === 0 && fileName.indexOf("/", LIB_DIR.length) < 0 &&
      /^lib\..*\.d\.ts$/.test(fileName.slice(LIB_DIR.length));
  }

  // Lib file texts, read from the image once (null: no such file).
  var libTexts = new Map();

  function libText(fileName) {
    if (Object.prototype.hasOwnProperty.call(AMBIENT, fileName)) return AMBIENT[fileName];
    if (!isLibFile(fileName)) return undefined;
    var text = libTexts.get(fileName);
    if (text === undefined) {
      text = __tscheck_readLib(fileName.slice(LIB_DIR.length));
      libTexts.set(fileName, text);
    }
    return text === null ? undefined : text;
  }

  function dirsOf(files) {
    var dirs = new Set(["/", "/lib"]);
    for (var name in files) {
      var i = name.lastIndexOf("/");
      while (i > 0) {
        var d = name.slice(0, i);
        if (dirs.has(d)) break;
        dirs.add(d);
        i = d.lastIndexOf("/");
      }
    }
    return dirs;
  }

  function makeHost(files, userTexts) {
    var dirs = dirsOf(files);
    return {
      getSourceFile: function (fileName, langOpts, onError, shouldCreateNewSourceFile) {
        if (Object.prototype.hasOwnProperty.call(userTexts, fileName)) {
          return createSourceFile(fileName, userTexts[fileName], langOpts, false);
        }
        var key = cacheKey(fileName, langOpts);
        var hit = libCache.get(key);
        if (hit) {
          usedThisCheck.push(hit);
          return hit.file;
        }
        var text = libText(fileName);
        if (text === undefined) {
          if (onError) onError("File not found: " + fileName);
          return undefined;
        }
        var entry = { file: createSourceFile(fileName, text, langOpts, false), verified: false };
        libCache.set(key, entry);
        usedThisCheck.push(entry);
        return entry.file;
      },
      getDefaultLibFileName: function (o) { return LIB_DIR + getDefaultLibFileName(o); },
      getDefaultLibLocation: function () { return "/lib"; },
      writeFile: function () {},
      getCurrentDirectory: function () { return "/"; },
      getCanonicalFileName: function (f) { return f; },
      useCaseSensitiveFileNames: function () { return true; },
      getNewLine: function () { return "\n"; },
      fileExists: function (f) {
        return Object.prototype.hasOwnProperty.call(userTexts, f) || libText(f) !== undefined;
      },
      readFile: function (f) {
        if (Object.prototype.hasOwnProperty.call(userTexts, f)) return userTexts[f];
        return libText(f);
      },
      directoryExists: function (d) {
        if (d.length > 1 && d.charAt(d.length - 1) === "/") d = d.slice(0, -1);
        return dirs.has(d);
      },
      getDirectories: function () { return []; },
      realpath: function (f) { return f; },
    };
  }

  function toDiagnostic(d) {
    var out = {
      code: d.code,
      category: CATEGORY[d.category] || "error",
      message: flatten(d.messageText, "\n"),
      filePath: "",
      line: 0,
      column: 0,
    };
    if (d.file) {
      out.filePath = d.file.fileName;
      if (d.start !== undefined) {
        var lc = lineAndChar(d.file, d.start);
        out.line = lc.line + 1;
        out.column = lc.character + 1;
      }
    }
    return out;
  }

  // check: req = {files: {path: text}, roots: [path], checkFiles: [path] | null,
  //               options: {tsconfig-style compilerOptions},
  //               ambient: [sandbox declaration file] | undefined}
  function check(reqJSON) {
    var req = JSON.parse(reqJSON);
    usedThisCheck = [];
    var conv = convertOptions(req.options, "/");
    if (conv.errors.length > 0) {
      return JSON.stringify({ invalid: conv.errors.map(function (e) { return flatten(e.messageText, "\n"); }).join("; ") });
    }
    var options = conv.options;
    options.noEmit = true;
    options.types = [];
    options.libReplacement = false;
    options.noLib = false;

    var userTexts = Object.create(null);
    for (var k in req.files) userTexts[k] = req.files[k];
    var roots = req.roots.slice();
    if (req.ambient) for (var a = 0; a < req.ambient.length; a++) roots.push(req.ambient[a]);

    var t0 = Date.now();
    binding = false;
    var program = createProgram({
      rootNames: roots,
      options: options,
      host: makeHost(req.files, userTexts),
      oldProgram: oldProgram,
    });
    oldProgram = program;

    var targets;
    if (req.checkFiles) {
      targets = req.checkFiles.map(function (f) { return program.getSourceFile(f); }).filter(Boolean);
    } else {
      targets = program.getSourceFiles().filter(function (f) {
        return Object.prototype.hasOwnProperty.call(userTexts, f.fileName);
      });
    }

    // Mirrors tsc's emitFilesAndReportErrors: syntax errors first; options,
    // global and semantic diagnostics only when there are none.
    var t1 = Date.now();
    binding = true;
    var all = [];
    targets.forEach(function (f) { push(all, program.getSyntacticDiagnostics(f)); });
    var t2 = Date.now(), t3 = t2;
    if (all.length === 0) {
      push(all, program.getOptionsDiagnostics());
      push(all, program.getGlobalDiagnostics());
      t3 = Date.now();
      if (all.length === 0) {
        targets.forEach(function (f) { push(all, program.getSemanticDiagnostics(f)); });
      }
    }
    var diags = sortAndDeduplicate(all).map(toDiagnostic);
    var t4 = Date.now();

    // The check finished: every lib file it touched is fully parsed and bound.
    for (var i = 0; i < usedThisCheck.length; i++) usedThisCheck[i].verified = true;
    usedThisCheck = [];
    return JSON.stringify({
      diagnostics: diags,
      timings: { program: t1 - t0, syntactic: t2 - t1, global: t3 - t2, semantic: t4 - t3 },
    });
  }

  function push(into, items) {
    for (var i = 0; i < items.length; i++) into.push(items[i]);
  }

  // discardUnverified forgets lib files a failed check may have left half
  // bound, and the program that referenced them. A check stopped while
  // its program was still being created (parsing: the expensive part of a
  // cold lib such as dom) bound nothing: the files it parsed are kept, with
  // the module references program creation may have half-collected reset,
  // so the next attempt starts where this one stopped.
  function discardUnverified() {
    libCache.forEach(function (entry, key) {
      if (entry.verified) return;
      if (binding) {
        libCache.delete(key);
        return;
      }
      entry.file.imports = undefined;
      entry.file.moduleAugmentations = undefined;
      entry.file.ambientModuleNames = undefined;
    });
    usedThisCheck = [];
    oldProgram = undefined;
    binding = false;
  }

  function info() {
    var opts = {};
    ts.optionDeclarations.forEach(function (d) {
      if (d.type instanceof Map) opts[d.name] = Array.from(d.type.keys());
    });
    return JSON.stringify({ version: ts.version, libs: ts.libs.slice(), options: opts });
  }

  return { check: check, info: info, discardUnverified: discardUnverified };
})();
