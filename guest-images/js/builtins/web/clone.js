// wasmexec: structuredClone (the HTML standard's structured serialize and
// deserialize, in one pass). Clones primitives, wrapper objects, Date,
// RegExp, ArrayBuffer, typed arrays and DataView (sharing a cloned buffer
// as the originals share theirs), Map, Set, Error (name, message, stack,
// cause), Blob and File, arrays and plain objects (own enumerable string keys; getters are
// read), keeping cycles and shared references. Functions, symbols, and
// objects with internal state it can't copy (Promise, WeakMap, ...) are a
// DataCloneError, as in Node. Class instances come back as plain objects.
// A transfer list's ArrayBuffers are detached. Hand-written, part of
// wasmexec.
'use strict';
const native = require(' native');
const { DOMException } = require('./domexception');

const toString = Object.prototype.toString;
const getProto = Object.getPrototypeOf;
const typedArrayProto = getProto(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
const errorNames = new Set(['Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError']);
const typedCtors = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};

function fail(v) {
  let what;
  try { what = typeof v === 'function' ? String(v) : typeof v === 'symbol' ? v.toString() : '#<' + (toString.call(v).slice(8, -1)) + '>'; } catch (e) { what = 'value'; }
  if (what.length > 80) what = what.slice(0, 77) + '...';
  return new DOMException(what + ' could not be cloned.', 'DataCloneError');
}

// put sets a data property, even one named __proto__.
function put(o, k, v) {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

function isArrayBuffer(v) {
  try { Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get.call(v); return true; } catch (e) { return false; }
}

function structuredClone(value, options) {
  if (arguments.length === 0) {
    const e = new TypeError('The "value" argument must be specified');
    e.code = 'ERR_MISSING_ARGS';
    throw e;
  }
  let transfer = [];
  if (options != null) {
    if (typeof options !== 'object') throw new TypeError('The "options" argument must be of type object.');
    if (options.transfer !== undefined) transfer = Array.from(options.transfer);
  }
  for (const t of transfer) {
    if (!isArrayBuffer(t)) throw new DOMException('Value not transferable', 'DataCloneError');
  }
  const memo = new Map();

  function clone(v) {
    const t = typeof v;
    if (t === 'symbol' || t === 'function') throw fail(v);
    if (v === null || t !== 'object') return v;
    if (memo.has(v)) return memo.get(v);
    const tag = toString.call(v).slice(8, -1);
    let out;
    if (Array.isArray(v)) {
      out = new Array(v.length);
      memo.set(v, out);
      for (const k of Object.keys(v)) put(out, k, clone(v[k]));
      return out;
    }
    if (isArrayBuffer(v)) {
      out = v.slice(0);
      memo.set(v, out);
      return out;
    }
    if (ArrayBuffer.isView(v)) {
      const buf = clone(v.buffer);
      const name = typedArrayTag.call(v);
      out = name ? new typedCtors[name](buf, v.byteOffset, v.length) : new DataView(buf, v.byteOffset, v.byteLength);
      memo.set(v, out);
      return out;
    }
    if (v instanceof Date || tag === 'Date') {
      out = new Date(Date.prototype.getTime.call(v));
    } else if (v instanceof RegExp) {
      out = new RegExp(v.source, v.flags);
    } else if (v instanceof Map) {
      out = new Map();
      memo.set(v, out);
      for (const [k, x] of Map.prototype.entries.call(v)) out.set(clone(k), clone(x));
      return out;
    } else if (v instanceof Set) {
      out = new Set();
      memo.set(v, out);
      for (const x of Set.prototype.values.call(v)) out.add(clone(x));
      return out;
    } else if (v instanceof Error) {
      let name = String(v.name);
      if (!errorNames.has(name)) name = 'Error';
      const Ctor = globalThis[name] || Error;
      out = new Ctor();
      memo.set(v, out);
      const own = (k) => Object.prototype.hasOwnProperty.call(v, k);
      const define = (k, x) => Object.defineProperty(out, k, { value: x, writable: true, configurable: true, enumerable: false });
      if (own('message')) define('message', String(v.message));
      if (typeof v.stack === 'string') define('stack', v.stack);
      if (own('cause')) define('cause', clone(v.cause));
      return out;
    } else if (tag === 'Blob' || tag === 'File') {
      // Blobs are immutable: a copy of the bytes is the clone.
      const { Blob, File } = require('./blob');
      out = tag === 'File' ? new File([v], v.name, { type: v.type, lastModified: v.lastModified }) : new Blob([v], { type: v.type });
    } else if (tag === 'Boolean' || tag === 'Number' || tag === 'String' || tag === 'BigInt') {
      out = Object(v.valueOf());
    } else if (tag === 'Object' || tag === 'Arguments' || getProto(v) === null || getProto(v) === Object.prototype || !isPlatform(tag)) {
      out = {};
      memo.set(v, out);
      for (const k of Object.keys(v)) put(out, k, clone(v[k]));
      return out;
    } else {
      throw fail(v);
    }
    memo.set(v, out);
    return out;
  }

  const result = clone(value);
  for (const t of transfer) native.detach(t);
  return result;
}

// isPlatform says whether an object's tag is one of the built-ins whose
// internal state a copy of its properties would lose.
const platform = new Set(['Promise', 'WeakMap', 'WeakSet', 'WeakRef', 'Proxy', 'Generator', 'AsyncGenerator',
  'Map Iterator', 'Set Iterator', 'Array Iterator', 'String Iterator', 'RegExp String Iterator',
  'AbortSignal', 'AbortController', 'EventTarget', 'Event', 'CustomEvent', 'Headers', 'Response', 'Timeout']);
function isPlatform(tag) { return platform.has(tag); }

module.exports = { structuredClone };
