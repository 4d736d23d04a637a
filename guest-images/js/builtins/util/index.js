// node:util for wasmexec: a small hand-written subset (format, inspect,
// promisify, callbackify, inherits, deprecate, types). MIT, part of wasmexec.
'use strict';
function inspect(v, opts) {
  if (typeof v === 'string') return (opts && opts.__top) ? v : JSON.stringify(v);
  if (typeof v === 'function') return '[Function: ' + (v.name || 'anonymous') + ']';
  if (typeof v === 'symbol' || typeof v === 'bigint') return String(v);
  if (v instanceof Error) return v.stack || String(v);
  if (v === undefined) return 'undefined';
  try {
    const s = JSON.stringify(v, (k, x) => typeof x === 'bigint' ? String(x) : x === undefined ? null : x);
    return s === undefined ? String(v) : s;
  } catch (e) { return String(v); }
}
function format(f, ...args) {
  if (typeof f !== 'string') return [f, ...args].map(a => inspect(a, {__top: true})).join(' ');
  let i = 0;
  let out = f.replace(/%[sdifjoO%]/g, m => {
    if (m === '%%') return '%';
    if (i >= args.length) return m;
    const a = args[i++];
    switch (m) {
      case '%s': return typeof a === 'string' ? a : inspect(a);
      case '%d': case '%i': return String(m === '%i' ? parseInt(a) : Number(a));
      case '%f': return String(parseFloat(a));
      case '%j': return JSON.stringify(a);
      default: return inspect(a);
    }
  });
  for (; i < args.length; i++) out += ' ' + inspect(args[i], {__top: true});
  return out;
}
const custom = Symbol.for('nodejs.util.promisify.custom');
function promisify(fn) {
  if (fn[custom]) return fn[custom];
  return function (...args) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err, ...values) => err ? reject(err) : resolve(values.length > 1 ? values : values[0]));
    });
  };
}
promisify.custom = custom;
function callbackify(fn) {
  return function (...args) {
    const cb = args.pop();
    fn.apply(this, args).then(v => cb(null, v), e => cb(e));
  };
}
function inherits(ctor, superCtor) {
  Object.defineProperty(ctor, 'super_', {value: superCtor, writable: true, configurable: true});
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}
function deprecate(fn) { return fn; }
function isDeepStrictEqual(a, b) { return inspect(a) === inspect(b); }
const types = {
  isPromise: v => v instanceof Promise,
  isDate: v => v instanceof Date,
  isRegExp: v => v instanceof RegExp,
  isMap: v => v instanceof Map,
  isSet: v => v instanceof Set,
  isNativeError: v => v instanceof Error,
};
module.exports = {format, inspect, promisify, callbackify, inherits, deprecate, isDeepStrictEqual, types,
  isArray: Array.isArray};
