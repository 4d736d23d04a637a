package engine_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// The web platform's common globals in the JavaScript guest (the WinterTC
// Minimum Common API Node 20 has), checked against the specs' edge cases:
// each value is what node 20 gives for the same code, except where a
// name says the spec's (node 20 differs there).
func TestJSWebGlobals(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct{ name, code, want string }{
		// structuredClone
		{"clone keeps cycles and shared references", "const a = {n: 1}; a.self = a; const s = {x: 1}; a.l = [s, s]; const c = structuredClone(a); [c !== a, c.self === c, c.l[0] === c.l[1], c.l[0] !== s, c.n]", "[true,true,true,true,1]"},
		{"clone of Map, Set, Date, RegExp", "const c = structuredClone({m: new Map([[1, {a: 2}]]), s: new Set(['x']), d: new Date(5), r: /a+/gi}); [c.m.get(1).a, c.s.has('x'), c.d instanceof Date && c.d.getTime(), c.r instanceof RegExp && c.r.source + c.r.flags]", `[2,true,5,"a+gi"]`},
		{"clone of typed arrays shares the cloned buffer", "const b = new ArrayBuffer(8); const u = new Uint8Array(b, 2, 4); u[0] = 7; const c = structuredClone({u, d: new DataView(b), b}); [c.u instanceof Uint8Array, c.u.length, c.u[0], c.u.buffer === c.b, c.d.buffer === c.b, c.b !== b, c.b.byteLength]", "[true,4,7,true,true,true,8]"},
		{"clone of errors", "const e = new RangeError('bad', {cause: {c: 1}}); const c = structuredClone(e); [c instanceof RangeError, c.name, c.message, c.cause.c, c !== e, typeof c.stack, structuredClone(new (class X extends Error {})('m')).constructor.name]", `[true,"RangeError","bad",1,true,"string","Error"]`},
		{"clone of wrappers, bigint, class instance", "const c = structuredClone([Object(1), Object('s'), 2n, new (class P { constructor() { this.x = 1 } })()]); [typeof c[0], c[0] + 1, c[1] + '', typeof c[2], Object.getPrototypeOf(c[3]) === Object.prototype, c[3].x]", `["object",2,"s","bigint",true,1]`},
		{"clone of a function is a DataCloneError", "try { structuredClone({f() {}}) } catch (e) { [e instanceof DOMException, e.name, e.code] }", `[true,"DataCloneError",25]`},
		{"clone of a symbol is a DataCloneError", "try { structuredClone(Symbol('s')) } catch (e) { [e.name, e.message] }", `["DataCloneError","Symbol(s) could not be cloned."]`},
		{"clone of a promise is a DataCloneError", "try { structuredClone(Promise.resolve()) } catch (e) { e.name }", `"DataCloneError"`},
		{"clone of a File stays a File (the spec's)", "const c = structuredClone(new File(['ab'], 'f.txt', {type: 'text/plain', lastModified: 7})); [c instanceof File, c.name, c.type, c.lastModified, await c.text()]", `[true,"f.txt","text/plain",7,"ab"]`},
		{"clone transfers", "const b = new ArrayBuffer(4); const c = structuredClone(b, {transfer: [b]}); [c.byteLength, b.byteLength]", "[4,0]"},

		// global
		{"global is Node's name for globalThis", "[global === globalThis, Object.getOwnPropertyDescriptor(globalThis, 'global').enumerable, typeof global.setTimeout]", `[true,false,"function"]`},

		// atob and btoa
		{"btoa and atob", "[btoa('hello'), atob('aGVsbG8='), atob('aGVsbG8'), atob(' aG Vs\\nbG8 '), btoa('\\xff\\xfe'), atob('//4=').charCodeAt(0)]", `["aGVsbG8=","hello","hello","hello","//4=",255]`},
		{"atob on invalid input", "['a', 'a===', 'ab=c', '@@@@', 'aGVsbG8=='].map(s => { try { atob(s); return 'ok' } catch (e) { return e instanceof DOMException && e.name + ':' + e.code } })", `["InvalidCharacterError:5","InvalidCharacterError:5","InvalidCharacterError:5","InvalidCharacterError:5","InvalidCharacterError:5"]`},
		{"btoa above 0xFF", "try { btoa('€') } catch (e) { [e.name, e.message] }", `["InvalidCharacterError","Invalid character"]`},

		// DOMException
		{"DOMException", "const e = new DOMException('m', 'AbortError'); const f = new DOMException('x', {name: 'NewError', cause: 1}); [e.name, e.message, e.code, e instanceof Error, String(e), DOMException.ABORT_ERR, f.name, f.code, f.cause, new DOMException().name, Object.prototype.toString.call(e)]", `["AbortError","m",20,true,"AbortError: m",20,"NewError",0,1,"Error","[object DOMException]"]`},

		// EventTarget, Event, CustomEvent
		{"events: once, order, stopImmediatePropagation", "const t = new EventTarget(); const got = []; t.addEventListener('x', () => got.push('a'), {once: true}); t.addEventListener('x', e => { got.push('b'); e.stopImmediatePropagation() }); t.addEventListener('x', () => got.push('c')); t.dispatchEvent(new Event('x')); t.dispatchEvent(new Event('x')); got", `["a","b","b"]`},
		{"events: preventDefault, passive ignores it (the spec's)", "const t = new EventTarget(); t.addEventListener('c', e => e.preventDefault()); const a = t.dispatchEvent(new Event('c', {cancelable: true})); const b = t.dispatchEvent(new Event('c')); const p = new EventTarget(); p.addEventListener('c', e => e.preventDefault(), {passive: true}); const e2 = new Event('c', {cancelable: true}); [a, b, p.dispatchEvent(e2), e2.defaultPrevented]", "[false,true,true,false]"},
		{"events: duplicates, handleEvent, this, target", "const t = new EventTarget(); let n = 0, self, tgt; const f = function (e) { n++; self = this; tgt = e.target }; t.addEventListener('x', f); t.addEventListener('x', f); t.addEventListener('x', {handleEvent() { n += 10 }}); t.dispatchEvent(new Event('x')); t.removeEventListener('x', f); t.dispatchEvent(new Event('x')); [n, self === t, tgt === t]", "[21,true,true]"},
		{"events: signal removes the listener", "const t = new EventTarget(); const ac = new AbortController(); let n = 0; t.addEventListener('x', () => n++, {signal: ac.signal}); t.dispatchEvent(new Event('x')); ac.abort(); t.dispatchEvent(new Event('x')); t.addEventListener('x', () => n++, {signal: ac.signal}); t.dispatchEvent(new Event('x')); n", "1"},
		{"events: CustomEvent detail, re-dispatch is an InvalidStateError (the spec's)", "const t = new EventTarget(); let d; t.addEventListener('x', e => { d = e.detail; try { t.dispatchEvent(e) } catch (err) { d += err.name } }); t.dispatchEvent(new CustomEvent('x', {detail: 'v'})); [d, new CustomEvent('y').detail, new Event('z').eventPhase]", `["vInvalidStateError",null,0]`},
		{"events: a listener's throw fails the run after the others ran", "const t = new EventTarget(); globalThis.after = 0; t.addEventListener('x', () => { throw new TypeError('in listener') }); t.addEventListener('x', () => after++); t.dispatchEvent(new Event('x')); after", "!TypeError"},

		// AbortController and AbortSignal
		{"abort with and without a reason", "const a = new AbortController(); const b = new AbortController(); let fired = 0; a.signal.addEventListener('abort', () => fired++); a.signal.onabort = () => fired += 10; a.abort('why'); a.abort('again'); b.abort(); [a.signal.aborted, a.signal.reason, fired, b.signal.reason.name, b.signal.reason instanceof DOMException]", `[true,"why",11,"AbortError",true]`},
		{"throwIfAborted", "const s = AbortSignal.abort(new Error('r')); let m; try { s.throwIfAborted() } catch (e) { m = e.message } new AbortController().signal.throwIfAborted(); [m, AbortSignal.abort().reason.name]", `["r","AbortError"]`},
		{"AbortSignal is not constructible", "try { new AbortSignal() } catch (e) { e.name }", `"TypeError"`},
		{"AbortSignal.timeout fires in order with other timers", "AbortSignal.abort(); const order = []; setTimeout(() => order.push('t1'), 1); setTimeout(() => order.push('t30'), 30); const s = AbortSignal.timeout(60); s.onabort = () => order.push('abort:' + s.reason.name + ':' + s.reason.code); setTimeout(() => order.push('t90'), 90); await new Promise(r => setTimeout(r, 120)); order", `["t1","t30","abort:TimeoutError:23","t90"]`},
		{"AbortSignal.timeout doesn't hold the run open", "const t0 = Date.now(); AbortSignal.timeout(60000); setTimeout(() => {}, 5); 1", "1"},
		{"AbortSignal.any", "const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]); let n = 0; s.onabort = () => n++; b.abort('B'); a.abort('A'); [s.aborted, s.reason, n, AbortSignal.any([AbortSignal.abort('x')]).reason]", `[true,"B",1,"x"]`},

		// performance
		{"performance", "const t0 = performance.now(); await new Promise(r => setTimeout(r, 15)); performance.mark('a'); performance.mark('b', {detail: {k: 1}}); const m = performance.measure('ab', 'a', 'b'); [performance.now() - t0 >= 14, performance.timeOrigin > 1.7e12, performance.getEntriesByName('b')[0].detail.k, m.entryType, m.duration >= 0, performance.getEntriesByType('mark').length]", `[true,true,1,"measure",true,2]`},

		// crypto
		{"crypto.subtle.digest SHA-256 of abc", "const h = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc')); [h instanceof ArrayBuffer, [...new Uint8Array(h)].map(b => b.toString(16).padStart(2, '0')).join('')]", `[true,"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"]`},
		{"crypto.subtle.digest other algorithms", "const hex = async (a) => [...new Uint8Array(await crypto.subtle.digest(a, new Uint8Array([97, 98, 99])))].map(b => b.toString(16).padStart(2, '0')).join('').slice(0, 16); [await hex('SHA-1'), await hex({name: 'sha-384'}), await hex('SHA-512'), await crypto.subtle.digest('MD5', new Uint8Array(1)).catch(e => e.name)]", `["a9993e364706816a","cb00753f45a35e8b","ddaf35a193617aba","NotSupportedError"]`},
		{"crypto.getRandomValues", "const a = crypto.getRandomValues(new Uint8Array(65536)); const e = (x) => { try { crypto.getRandomValues(x) } catch (err) { return err.name } }; [a.length, a.some(x => x !== 0), e(new Uint8Array(65537)), e(new Float32Array(4)), e(new Uint32Array(16384)), e(new Uint32Array(16385))]", `[65536,true,"QuotaExceededError","TypeMismatchError",null,"QuotaExceededError"]`},
		{"crypto.randomUUID", "const u = crypto.randomUUID(); [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u !== crypto.randomUUID(), require('crypto').webcrypto === crypto]", "[true,true,true]"},

		// Blob and File
		{"Blob", "const b = new Blob(['h€', new Uint8Array([33]), new Blob(['?'])], {type: 'Text/Plain'}); const s = b.slice(-2); [b.size, b.type, await b.text(), new Uint8Array(await b.arrayBuffer()).length, await s.text(), b.slice(1, 4, 'x/y').type, (await b.slice(1, 4).bytes()).length, new Blob(['a'], {type: 'é'}).type]", `[6,"text/plain","h€!?",6,"!?","x/y",3,""]`},
		{"File", "const f = new File(['abc'], 'a.txt', {type: 'text/plain', lastModified: 42}); [f instanceof Blob, f.name, f.size, f.lastModified, await f.text(), typeof new File([], 'x').lastModified]", `[true,"a.txt",3,42,"abc","number"]`},

		// timers and microtasks
		{"microtasks run before timers", "const o = []; setTimeout(() => o.push('timeout'), 0); setImmediate(() => o.push('immediate')); queueMicrotask(() => o.push('micro')); Promise.resolve().then(() => o.push('promise')); process.nextTick(() => o.push('tick')); await new Promise(r => setTimeout(r, 10)); [o.slice(0, 3).sort(), o.slice(3).sort()]", `[["micro","promise","tick"],["immediate","timeout"]]`},
		{"a microtask's throw fails the run", "queueMicrotask(() => { throw new RangeError('in a microtask') }); 1", "!RangeError"},
		{"setInterval until cleared by its object or id", "let n = 0; const t = setInterval(() => { if (++n === 3) clearInterval(t) }, 1); let m = 0; const u = setInterval(() => { if (++m === 2) clearInterval(+u) }, 1); await new Promise(r => setTimeout(r, 30)); [n, m, typeof t, typeof +t, setTimeout(() => {}, 1).hasRef()]", `[3,2,"object","number",true]`},
		{"unref'd timer doesn't hold the run open; ref does", "globalThis.fired = []; setTimeout(() => fired.push('unref'), 50).unref(); const t = setTimeout(() => fired.push('ref'), 20); t.unref(); t.ref(); 1", "1"},
		{"timeout refresh and args", "const o = []; const t = setTimeout((a, b) => o.push(a + b), 10, 1, 2); setTimeout(() => t.refresh(), 5); await new Promise(r => setTimeout(r, 40)); o", "[3]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, TimeoutMs: 20000})
			if want, ok := strings.CutPrefix(tc.want, "!"); ok {
				if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != want {
					t.Fatalf("outcome %s %+v, want a %s", res.Outcome, res.Error, want)
				}
				return
			}
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			if string(res.Value) != tc.want {
				t.Fatalf("value = %s\nwant    %s", res.Value, tc.want)
			}
		})
	}
}
