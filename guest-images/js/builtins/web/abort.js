// wasmexec: AbortController and AbortSignal (the DOM standard's, with
// AbortSignal.abort, .timeout and .any). AbortSignal.timeout's timer is
// unref'd, as in Node: it doesn't keep a run going. Hand-written, part of
// wasmexec.
'use strict';
const native = require(' native');
const { DOMException } = require('./domexception');
const { Event, EventTarget, defineEventHandler } = require('./event');

let allowed = false;
let signalAbort, isSignal, follow, stateOf;

// create makes a signal; user code can't (new AbortSignal() throws).
function create() {
  allowed = true;
  try { return new AbortSignal(); } finally { allowed = false; }
}

class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  // Signals made by AbortSignal.any that follow this one.
  #dependents = [];
  static {
    // The standard's "signal abort": the reasons first (this one's, then
    // its dependents'), then the abort events (this one's first).
    signalAbort = (s, reason) => {
      if (s.#aborted) return;
      s.#aborted = true;
      s.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      const deps = [];
      for (const d of s.#dependents) {
        if (!d.#aborted) { d.#aborted = true; d.#reason = s.#reason; deps.push(d); }
      }
      s.#dependents = [];
      s.dispatchEvent(new Event('abort'));
      for (const d of deps) d.dispatchEvent(new Event('abort'));
    };
    isSignal = (v) => v !== null && typeof v === 'object' && #aborted in v;
    follow = (s, d) => { s.#dependents.push(d); };
    stateOf = (s) => [s.#aborted, s.#reason];
  }
  constructor() {
    if (!allowed) throw new TypeError('Illegal constructor');
    super();
  }
  get aborted() { return this.#aborted; }
  get reason() { return this.#reason; }
  throwIfAborted() { if (this.#aborted) throw this.#reason; }
  static abort(reason) {
    const s = create();
    s.#aborted = true;
    s.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    return s;
  }
  static timeout(ms) {
    ms = Number(ms);
    if (!Number.isFinite(ms) || ms < 0 || ms > Number.MAX_SAFE_INTEGER) {
      const e = new RangeError('The value of "delay" is out of range. It must be >= 0 && <= ' + Number.MAX_SAFE_INTEGER + '. Received ' + ms);
      e.code = 'ERR_OUT_OF_RANGE';
      throw e;
    }
    const s = create();
    native.timer(() => signalAbort(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return s;
  }
  static any(signals) {
    if (signals == null || typeof signals[Symbol.iterator] !== 'function') {
      throw new TypeError('The "signals" argument must be an instance of Array');
    }
    const list = Array.from(signals);
    for (const v of list) {
      if (!isSignal(v)) throw new TypeError('The "signals" argument must be an array of AbortSignal instances');
    }
    const s = create();
    for (const src of list) {
      const [aborted, reason] = stateOf(src);
      if (aborted) { s.#aborted = true; s.#reason = reason; return s; }
    }
    for (const src of list) follow(src, s);
    return s;
  }
}
defineEventHandler(AbortSignal.prototype, 'abort');
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });

class AbortController {
  #signal = create();
  get signal() { return this.#signal; }
  abort(reason) { signalAbort(this.#signal, reason); }
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });

module.exports = { AbortController, AbortSignal };
