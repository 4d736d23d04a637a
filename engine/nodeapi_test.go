package engine_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Node built-ins popular packages use, in the JavaScript guest: each value
// is what node 20 gives for the same code (in an empty directory), except
// where a name says "wasmexec" (what the guest lacks says so).
func TestJSNodeBuiltins(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct{ name, code, want string }{
		// crypto
		{"crypto: hash chaining and encodings", "const c = require('crypto'); const h = c.createHash('sha256').update('a').update(Buffer.from('bc')); [h.digest('base64'), c.createHash('sha1').update('616263', 'hex').digest('hex'), c.createHash('md5').update('abc').digest('base64url'), c.createHash('sha384').update('').digest().length, c.hash('sha1', 'abc')]", `["ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=","a9993e364706816aba3e25717850c26c9cd0d89d","kAFQmDzST7DWlj99KOF_cg",48,"a9993e364706816aba3e25717850c26c9cd0d89d"]`},
		{"crypto: hash copy and finalization", "const c = require('crypto'); const h = c.createHash('md5').update('a'); const k = h.copy(); const first = h.digest('hex'); let e; try { h.digest() } catch (x) { e = x.code } [first, k.update('b').digest('hex'), e]", `["0cc175b9c0f1b6a831c399e269772661","187ef4436122d1cc2f40dc2b92f0eba0","ERR_CRYPTO_HASH_FINALIZED"]`},
		{"crypto: hmac", "const c = require('crypto'); [c.createHmac('sha256', 'key').update('The quick brown fox jumps over the lazy dog').digest('hex'), c.createHmac('sha1', Buffer.from('k')).update('d').digest('base64')]", `["f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8","K5DkHnwMyOL3XAKRDDiZzEaLoxY="]`},
		{"crypto: timingSafeEqual", "const c = require('crypto'); let e; try { c.timingSafeEqual(Buffer.from('a'), Buffer.from('ab')) } catch (x) { e = [x.name, x.code] } [c.timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')), c.timingSafeEqual(new Uint8Array([1]), new Uint8Array([2])), e]", `[true,false,["RangeError","ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH"]]`},
		{"crypto: random", "const c = require('crypto'); const b = Buffer.alloc(6); c.randomFillSync(b, 2, 2); const n = c.randomInt(3, 7); let got; c.randomBytes(4, (e, buf) => { got = buf.length }); await new Promise(r => setTimeout(r, 5)); [c.randomBytes(8).length, b[0] === 0 && b[1] === 0 && b[4] === 0 && b[5] === 0, n >= 3 && n < 7, got, Buffer.isBuffer(c.randomBytes(1))]", "[8,true,true,4,true]"},
		{"crypto: pbkdf2 and hkdf", "const c = require('crypto'); let cb; c.pbkdf2('password', 'salt', 2, 20, 'sha1', (e, k) => { cb = k.toString('hex') }); await new Promise(r => setTimeout(r, 5)); [c.pbkdf2Sync('password', 'salt', 1, 20, 'sha1').toString('hex'), cb, Buffer.from(c.hkdfSync('sha256', 'key', 'salt', 'info', 8)).toString('hex')]", `["0c60c80f961f0e71f3a9b524af6012062fe037a6","ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957","9ca0d662557439e3"]`},
		{"crypto: what wasmexec lacks says so (wasmexec)", "try { require('crypto').createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)) } catch (e) { [e.code, e.message] }", `["ERR_FEATURE_UNAVAILABLE_ON_PLATFORM","crypto.createCipheriv is not available in wasmexec: ciphers are not implemented"]`},

		// stream
		{"stream: pipeline through a Transform", "const { Readable, Transform, Writable, pipeline } = require('stream'); const out = []; await new Promise((res, rej) => pipeline(Readable.from(['a', 'b', 'c']), new Transform({ transform(ch, enc, cb) { cb(null, ch.toString().toUpperCase()) } }), new Writable({ write(ch, enc, cb) { out.push(ch.toString()); cb() } }), (e) => e ? rej(e) : res())); out", `["A","B","C"]`},
		{"stream: for await over a Readable", "const { Readable } = require('stream'); const r = new Readable({ objectMode: true, read() {} }); r.push(1); r.push(2); r.push(null); const got = []; for await (const x of r) got.push(x); got", "[1,2]"},
		{"stream: promises, PassThrough, finished", "const s = require('stream'); const { pipeline } = require('stream/promises'); const p = new s.PassThrough(); let done = false; s.finished(p, () => { done = true }); const chunks = []; await pipeline(s.Readable.from(['x', 'y']), p, async function (src) { for await (const c of src) chunks.push(String(c)) }); await new Promise(r => setTimeout(r, 5)); [chunks.join(''), done, s.Stream === s, typeof s.Duplex]", `["xy",true,true,"function"]`},
		{"stream: an error reaches the pipeline", "const { Readable, Writable, pipeline } = require('stream'); await new Promise(res => pipeline(Readable.from(['a']), new Writable({ write(c, e, cb) { cb(new Error('disk full')) } }), (e) => res(e && e.message)))", `"disk full"`},

		// zlib
		{"zlib: round trips", "const z = require('zlib'); const s = 'hello hello hello'; [z.gunzipSync(z.gzipSync(s)).toString(), z.inflateSync(z.deflateSync(Buffer.from(s))).toString(), z.inflateRawSync(z.deflateRawSync(s, {level: 9})).toString(), z.unzipSync(z.gzipSync(s)).toString(), z.unzipSync(z.deflateSync(s)).toString()]", `["hello hello hello","hello hello hello","hello hello hello","hello hello hello","hello hello hello"]`},
		{"zlib: Node's gzip decodes", "require('zlib').gunzipSync(Buffer.from('H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==', 'base64')).toString()", `"hello"`},
		{"zlib: bad input is Node's error", "const z = require('zlib'); const e = (f) => { try { f() } catch (x) { return [x.code, x.errno, x.message] } }; [e(() => z.gunzipSync(Buffer.from('not gzip at all'))), e(() => z.inflateSync(Buffer.from([0x78, 0x9c, 1]))), e(() => z.gunzipSync(z.gzipSync('abc').subarray(0, 12)))]", `[["Z_DATA_ERROR",-3,"incorrect header check"],["Z_BUF_ERROR",-5,"unexpected end of file"],["Z_BUF_ERROR",-5,"unexpected end of file"]]`},
		{"zlib: callbacks and promisify", "const z = require('zlib'); const { promisify } = require('util'); const a = await promisify(z.gzip)('abc'); const b = await new Promise((res, rej) => z.gunzip(a, (e, r) => e ? rej(e) : res(r))); [b.toString(), z.crc32('hello'), z.constants.Z_BEST_COMPRESSION]", `["abc",907060870,9]`},
		{"zlib: streams", "const z = require('zlib'); const { Readable, Writable } = require('stream'); const { pipeline } = require('stream/promises'); const out = []; await pipeline(Readable.from(['ab', 'cd', 'ef'.repeat(1000)]), z.createGzip(), z.createGunzip(), new Writable({ write(c, e, cb) { out.push(c); cb() } })); const s = Buffer.concat(out).toString(); [s.length, s.slice(0, 6)]", `[2004,"abcdef"]`},
		{"zlib: no brotli (wasmexec)", "try { require('zlib').brotliCompressSync('x') } catch (e) { e.code }", `"ERR_FEATURE_UNAVAILABLE_ON_PLATFORM"`},

		// fs
		{"fs: ENOENT", "const fs = require('fs'); try { fs.readFileSync('missing.txt') } catch (e) { [e.code, e.errno, e.syscall, e.path, e.message, e instanceof Error] }", `["ENOENT",-2,"open","missing.txt","ENOENT: no such file or directory, open 'missing.txt'",true]`},
		{"fs: EEXIST, EISDIR, ENOTDIR, ENOTEMPTY", "const fs = require('fs'); fs.mkdirSync('d'); fs.writeFileSync('d/f', 'x'); const e = (f) => { try { f() } catch (x) { return [x.code, x.errno, x.syscall, x.path] } }; [e(() => fs.mkdirSync('d')), e(() => fs.readFileSync('d')), e(() => fs.readdirSync('d/f')), e(() => fs.rmdirSync('d')), e(() => fs.unlinkSync('d'))]", `[["EEXIST",-17,"mkdir","d"],["EISDIR",-21,"read",null],["ENOTDIR",-20,"scandir","d/f"],["ENOTEMPTY",-39,"rmdir","d"],["EISDIR",-21,"unlink","d"]]`},
		{"fs: promises and callbacks reject with the same errors", "const fs = require('fs'); const a = await fs.promises.readFile('nope').catch(e => e.code); const b = await new Promise(r => fs.readFile('nope', (e) => r(e.code))); const c = await require('fs/promises').stat('nope').catch(e => e.syscall); [a, b, c]", `["ENOENT","ENOENT","stat"]`},
		{"fs: Buffers, encodings, Stats, Dirent", "const fs = require('fs'); fs.writeFileSync('b.bin', new Uint8Array([104, 105])); fs.appendFileSync('b.bin', '!'); fs.mkdirSync('sub/x', {recursive: true}); const st = fs.statSync('b.bin'); [Buffer.isBuffer(fs.readFileSync('b.bin')), fs.readFileSync('b.bin', 'utf8'), fs.readFileSync('b.bin', {encoding: 'base64'}), fs.readFileSync('b.bin', 'hex'), st.isFile(), st.isDirectory(), st.size, st.mtime instanceof Date, fs.readdirSync('.', {withFileTypes: true}).map(d => d.name + (d.isDirectory() ? '/' : '')).sort(), fs.statSync('nope', {throwIfNoEntry: false})]", `[true,"hi!","aGkh","686921",true,false,3,true,["b.bin","sub/"],null]`},
		{"fs: the global fs keeps ArrayBuffers (wasmexec)", "fs.writeFileSync('g.txt', 'abc'); [fs.readFileSync('g.txt') instanceof ArrayBuffer, require('fs') !== fs]", "[true,true]"},
		{"fs: rm, rename, copy", "const fs = require('fs'); fs.mkdirSync('r'); fs.writeFileSync('r/a', '1'); let e; try { fs.rmSync('r') } catch (x) { e = x.code } fs.rmSync('nothing', {force: true}); fs.renameSync('r/a', 'r/b'); fs.copyFileSync('r/b', 'r/c'); const l = fs.readdirSync('r').sort(); fs.rmSync('r', {recursive: true}); [e, l, fs.existsSync('r')]", `["ERR_FS_EISDIR",["b","c"],false]`},
		{"fs: streams", "const fs = require('fs'); const { pipeline } = require('stream/promises'); const w = fs.createWriteStream('s.txt'); w.write('one '); w.end('two'); await new Promise(r => w.on('finish', r)); let s = ''; for await (const c of fs.createReadStream('s.txt', {encoding: 'utf8', highWaterMark: 3})) s += c + '|'; s", `"one| tw|o|"`},

		// util
		{"util.inspect", "const { inspect } = require('util'); class Foo { constructor() { this.x = 1; this.s = 'it\\'s' } } const o = {a: 1}; o.self = o; [inspect('s'), inspect({a: [1, 2, {b: {c: {d: 1}}}], m: new Map([['k', 1]]), s: new Set([1])}), inspect(new Foo()), inspect(o), inspect([1, , 3]), inspect(Object.create(null)), inspect({get g() { return 1 }}), inspect(Buffer.from('hi')), inspect(new Uint8Array(2)), inspect(function f() {}), inspect(class A {}), inspect(Symbol('s')), inspect(-0), inspect(10n), inspect(null), inspect([undefined]), inspect({ 'a-b': 1 })]", `["'s'","{\n  a: [ 1, 2, { b: [Object] } ],\n  m: Map(1) { 'k' =\u003e 1 },\n  s: Set(1) { 1 }\n}","Foo { x: 1, s: \"it's\" }","\u003cref *1\u003e { a: 1, self: [Circular *1] }","[ 1, \u003c1 empty item\u003e, 3 ]","[Object: null prototype] {}","{ g: [Getter] }","\u003cBuffer 68 69\u003e","Uint8Array(2) [ 0, 0 ]","[Function: f]","[class A]","Symbol(s)","-0","10n","null","[ undefined ]","{ 'a-b': 1 }"]`},
		{"util.inspect: line breaking and custom", "const { inspect } = require('util'); const long = {alpha: 'aaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbb', gamma: 'ccccccccccccccccc', delta: 'dddddddddd'}; [inspect(long), inspect({x: {[inspect.custom]() { return 'custom!' }}}), inspect(Promise.resolve(4)), inspect(new Error('boom')).split('\\n')[0]]", `["{\n  alpha: 'aaaaaaaaaaaa',\n  beta: 'bbbbbbbbbbbbbbb',\n  gamma: 'ccccccccccccccccc',\n  delta: 'dddddddddd'\n}","{ x: custom! }","Promise { 4 }","Error: boom"]`},
		{"util.inspect: long lists in columns", "const { inspect } = require('util'); [inspect(Array.from({length: 30}, (_, i) => i)), inspect({a: {b: {c: {}}}}), inspect(Array.from({length: 8}, (_, i) => 'item' + i))]", `["[\n   0,  1,  2,  3,  4,  5,  6,  7,  8,\n   9, 10, 11, 12, 13, 14, 15, 16, 17,\n  18, 19, 20, 21, 22, 23, 24, 25, 26,\n  27, 28, 29\n]","{ a: { b: { c: {} } } }","[\n  'item0', 'item1',\n  'item2', 'item3',\n  'item4', 'item5',\n  'item6', 'item7'\n]"]`},
		{"util.format and types", "const u = require('util'); [u.format('%s=%d %j %%', 'a', 1.5, {b: 2}), u.format('x', {y: 1}, 'z'), u.types.isUint8Array(Buffer.alloc(1)), u.types.isAsyncFunction(async () => {}), u.types.isGeneratorFunction(function* () {}), u.types.isBoxedPrimitive(Object(1)), u.types.isProxy(new Proxy({}, {})), u.types.isMapIterator(new Map().keys()), u.isDeepStrictEqual({a: [1]}, {a: [1]}), u.isDeepStrictEqual({a: 1}, {a: '1'})]", `["a=1.5 {\"b\":2} %","x { y: 1 } z",true,true,true,true,true,true,true,false]`},

		// timers, process, module
		{"timers/promises", "const t = require('timers/promises'); const ac = new AbortController(); const p = t.setTimeout(1000, 'late', {signal: ac.signal}); ac.abort(); const got = []; for await (const v of t.setInterval(2, 'tick')) { got.push(v); if (got.length === 2) break } [await t.setTimeout(5, 'v'), await p.catch(e => e.name + ':' + e.code), await t.setImmediate('i'), got]", `["v","AbortError:ABORT_ERR","i",["tick","tick"]]`},
		{"process: nextTick, version, hrtime", "const got = []; process.nextTick((a, b) => got.push(a + b), 1, 2); await null; const t = process.hrtime(); const d = process.hrtime(t); [got, /^v\\d+\\.\\d+\\.\\d+$/.test(process.version), typeof process.versions.node, process.platform, d.length, typeof process.hrtime.bigint(), typeof process.on('exit', () => {}).emit]", `[[3],true,"string","linux",2,"bigint","function"]`},
		{"os constants", "const { constants } = require('os'); [constants.signals.SIGTERM, constants.errno.ENOENT, constants.priority.PRIORITY_HIGH]", "[15,2,-14]"},
		{"module.createRequire, tty, perf_hooks", "const { createRequire, isBuiltin } = require('module'); const req = createRequire('/workspace/x.js'); [req('path').join('a', 'b'), isBuiltin('node:fs'), isBuiltin('left-pad'), require('tty').isatty(1), typeof require('perf_hooks').performance.now()]", `["a/b",true,false,false,"number"]`},
		{"unavailable built-ins say why (wasmexec)", "['child_process', 'readline', 'async_hooks', 'stream/web'].map(m => { try { require(m) } catch (e) { return e.message } })", `["node:child_process is not available in wasmexec: wasmexec runs no processes from JavaScript","node:readline is not available in wasmexec: not implemented (read input with the stdin global: stdin.readLine(), stdin.read())","node:async_hooks is not available in wasmexec: not implemented: goja tracks no asynchronous context","node:stream/web is not available in wasmexec: the guest has no web streams (ReadableStream, WritableStream)"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, TimeoutMs: 20000})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			if got := string(res.Value); got != tc.want {
				t.Fatalf("value = %s\nwant    %s", got, strings.ReplaceAll(tc.want, "\n", `\n`))
			}
		})
	}
}
