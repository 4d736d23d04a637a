// node:util for wasmexec: a hand-written subset (format, inspect,
// promisify, callbackify, inherits, deprecate, debuglog, types, the legacy
// is* checks, isDeepStrictEqual, TextEncoder/TextDecoder). inspect follows
// Node's layout for the common values: quoting, class names, Map/Set,
// typed arrays, circular references, getters, depth, line breaking at
// breakLength, long lists in columns; no colors, no showHidden. Part of
// wasmexec.
'use strict';
const native = require(' native');

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const toStr = Object.prototype.toString;
const tagOf = (v) => toStr.call(v).slice(8, -1);
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
const fnToString = Function.prototype.toString;

const types = {
  isPromise: (v) => v instanceof Promise || tagOf(v) === 'Promise',
  isDate: (v) => v instanceof Date,
  isRegExp: (v) => v instanceof RegExp,
  isMap: (v) => v instanceof Map,
  isSet: (v) => v instanceof Set,
  isWeakMap: (v) => v instanceof WeakMap,
  isWeakSet: (v) => v instanceof WeakSet,
  isMapIterator: (v) => tagOf(v) === 'Map Iterator',
  isSetIterator: (v) => tagOf(v) === 'Set Iterator',
  isNativeError: (v) => v instanceof Error,
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isSharedArrayBuffer: () => false,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer,
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isDataView: (v) => v instanceof DataView,
  isTypedArray: (v) => ArrayBuffer.isView(v) && typedArrayTag.call(v) !== undefined,
  isAsyncFunction: (v) => typeof v === 'function' && tagOf(v) === 'AsyncFunction',
  isGeneratorFunction: (v) => typeof v === 'function' && (tagOf(v) === 'GeneratorFunction' || tagOf(v) === 'AsyncGeneratorFunction'),
  isGeneratorObject: (v) => tagOf(v) === 'Generator',
  isArgumentsObject: (v) => tagOf(v) === 'Arguments',
  isBoxedPrimitive: (v) => v !== null && typeof v === 'object' && ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tagOf(v)),
  isNumberObject: (v) => v !== null && typeof v === 'object' && tagOf(v) === 'Number',
  isStringObject: (v) => v !== null && typeof v === 'object' && tagOf(v) === 'String',
  isBooleanObject: (v) => v !== null && typeof v === 'object' && tagOf(v) === 'Boolean',
  isBigIntObject: (v) => v !== null && typeof v === 'object' && tagOf(v) === 'BigInt',
  isSymbolObject: (v) => v !== null && typeof v === 'object' && tagOf(v) === 'Symbol',
  isProxy: (v) => native.isProxy(v),
  isModuleNamespaceObject: () => false,
  isExternal: () => false,
  isKeyObject: () => false,
  isCryptoKey: () => false,
  isWeakRef: () => false,
};
for (const name of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  types['is' + name] = (v) => ArrayBuffer.isView(v) && typedArrayTag.call(v) === name;
}

const defaultOptions = {
  depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
  maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false, showHidden: false,
};

function quote(s) {
  const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes('`') && !s.includes('${') ? '`' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === q || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    else out += ch;
  }
  return q + out + q;
}

const identRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
function keyString(k) {
  if (typeof k === 'symbol') return '[' + k.toString() + ']';
  return identRe.test(k) ? k : quote(k);
}

function fnBase(v) {
  let src = '';
  try { src = fnToString.call(v); } catch (e) { /* a proxy */ }
  const name = v.name ? String(v.name) : '';
  if (src.startsWith('class') && /^class\b/.test(src)) {
    const sup = Object.getPrototypeOf(v);
    return '[class ' + (name || '(anonymous)') + (sup && sup !== Function.prototype && sup.name ? ' extends ' + sup.name : '') + ']';
  }
  let kind = 'Function';
  const t = tagOf(v);
  if (t === 'AsyncFunction') kind = 'AsyncFunction';
  else if (t === 'GeneratorFunction') kind = 'GeneratorFunction';
  else if (t === 'AsyncGeneratorFunction') kind = 'AsyncGeneratorFunction';
  return '[' + kind + (name ? ': ' + name : ' (anonymous)') + ']';
}

function ctorName(v) {
  let o = v;
  while (o !== null) {
    const d = Object.getOwnPropertyDescriptor(o, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') return d.value.name;
    o = Object.getPrototypeOf(o);
  }
  return null;
}

function formatPrimitive(v, ctx) {
  switch (typeof v) {
    case 'string': {
      const s = v.length > ctx.maxStringLength ? v.slice(0, ctx.maxStringLength) : v;
      const more = v.length - s.length;
      return quote(s) + (more > 0 ? `... ${more} more character${more > 1 ? 's' : ''}` : '');
    }
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'bigint': return String(v) + 'n';
    case 'symbol': return v.toString();
    case 'undefined': return 'undefined';
    default: return String(v);
  }
}

function formatValue(ctx, v, depth, inner) {
  if (v === null) return 'null';
  if (typeof v !== 'object' && typeof v !== 'function') return formatPrimitive(v, ctx);
  if (ctx.customInspect) {
    let f;
    try { f = v[customInspect]; } catch (e) { f = undefined; }
    if (typeof f === 'function' && f !== inspect) {
      const opts = Object.assign({}, ctx.opts, { depth: ctx.depth === Infinity ? Infinity : ctx.depth - depth, stylize: (s) => s });
      const r = f.call(v, opts.depth, opts, inspect);
      if (r !== v) return typeof r === 'string' ? r : formatValue(ctx, r, depth, inner);
    }
  }
  const seenAt = ctx.seen.indexOf(v);
  if (seenAt >= 0) {
    let id = ctx.circular.get(v);
    if (id === undefined) { id = ctx.circular.size + 1; ctx.circular.set(v, id); }
    return `[Circular *${id}]`;
  }
  return formatRaw(ctx, v, depth, inner);
}

function entriesOf(ctx, v, keys, depth) {
  const out = [];
  for (const k of keys) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (d === undefined) continue;
    let s;
    if (d.get !== undefined || d.set !== undefined) s = d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]';
    else s = nested(ctx, d.value, depth);
    out.push(keyString(k) + ': ' + s);
  }
  return out;
}

// nested formats a value inside another, indented two more (Node's
// indentationLvl, which the line-breaking decisions count).
function nested(ctx, v, depth) {
  ctx.indent += 2;
  try { return formatValue(ctx, v, depth + 1, true); } finally { ctx.indent -= 2; }
}

function ownKeys(v, ctx) {
  const keys = Object.keys(v);
  for (const s of Object.getOwnPropertySymbols(v)) {
    const d = Object.getOwnPropertyDescriptor(v, s);
    if (d && d.enumerable) keys.push(s);
  }
  if (ctx.sorted) keys.sort();
  return keys;
}

function formatRaw(ctx, v, depth) {
  const tag = tagOf(v);
  const name = ctorName(v);
  let keys = ownKeys(v, ctx);
  let braces = ['{', '}'];
  let base = '';
  let prefix = '';
  let items = [];
  let isList = false;
  const nameTag = (fallback, size) => {
    let n = name === null ? `[${fallback}: null prototype]` : name;
    if (size !== undefined) n += `(${size})`;
    if (tag !== fallback && tag !== n && name !== null && tag !== 'Object' && tag !== '') n += ` [${tag}]`;
    return n + ' ';
  };

  if (typeof v === 'function') {
    base = fnBase(v);
    keys = keys.filter((k) => k !== 'prototype');
    if (keys.length === 0) return base;
  } else if (Array.isArray(v)) {
    prefix = name === 'Array' ? '' : nameTag('Array', v.length);
    braces = ['[', ']'];
    keys = keys.filter((k) => typeof k === 'symbol' || !(String(k >>> 0) === k && k >>> 0 < 4294967295));
    if (v.length === 0 && keys.length === 0) return prefix + '[]';
    if (depth > ctx.depth) return `[${name || 'Array'}]`;
    ctx.currentDepth = depth;
    ctx.seen.push(v);
    let holes = 0;
    const n = Math.min(v.length, ctx.maxArrayLength);
    const flushHoles = () => { if (holes) { items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`); holes = 0; } };
    for (let i = 0; i < n; i++) {
      if (!Object.prototype.hasOwnProperty.call(v, i)) { holes++; continue; }
      flushHoles();
      items.push(nested(ctx, v[i], depth));
    }
    flushHoles();
    if (v.length > n) items.push(`... ${v.length - n} more item${v.length - n > 1 ? 's' : ''}`);
    items.push(...entriesOf(ctx, v, keys, depth));
    ctx.seen.pop();
    return finish(ctx, v, depth, prefix, braces, items, base, true);
  } else if (ArrayBuffer.isView(v) && typedArrayTag.call(v) !== undefined) {
    const tn = typedArrayTag.call(v);
    prefix = `${name || tn}(${v.length}) `;
    braces = ['[', ']'];
    if (depth > ctx.depth) return `[${name || tn}]`;
    const n = Math.min(v.length, ctx.maxArrayLength);
    for (let i = 0; i < n; i++) items.push(formatPrimitive(v[i], ctx));
    if (v.length > n) items.push(`... ${v.length - n} more item${v.length - n > 1 ? 's' : ''}`);
    keys = keys.filter((k) => typeof k === 'symbol' || !(String(k >>> 0) === k));
    isList = true;
  } else if (v instanceof Map || tag === 'Map') {
    prefix = nameTag('Map', v.size);
    if (depth > ctx.depth) return `[${name || 'Map'}]`;
    ctx.currentDepth = depth;
    ctx.seen.push(v);
    for (const [k, x] of Map.prototype.entries.call(v)) items.push(nested(ctx, k, depth) + ' => ' + nested(ctx, x, depth));
    ctx.seen.pop();
  } else if (v instanceof Set || tag === 'Set') {
    prefix = nameTag('Set', v.size);
    if (depth > ctx.depth) return `[${name || 'Set'}]`;
    ctx.currentDepth = depth;
    ctx.seen.push(v);
    for (const x of Set.prototype.values.call(v)) items.push(nested(ctx, x, depth));
    ctx.seen.pop();
  } else if (v instanceof Error) {
    let stack = typeof v.stack === 'string' && v.stack ? v.stack : Error.prototype.toString.call(v);
    keys = keys.filter((k) => k !== 'stack' && k !== 'message');
    base = stack;
    if (Object.prototype.hasOwnProperty.call(v, 'cause') && !keys.includes('cause')) keys.push('cause');
    if (keys.length === 0) return base;
    if (depth > ctx.depth) return base;
  } else if (v instanceof Date) {
    base = Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (keys.length === 0) return base;
  } else if (v instanceof RegExp) {
    base = RegExp.prototype.toString.call(v);
    keys = keys.filter((k) => k !== 'lastIndex');
    if (keys.length === 0) return base;
  } else if (v instanceof ArrayBuffer) {
    prefix = (name || 'ArrayBuffer') + ' ';
    const b = new Uint8Array(v);
    let hex = '';
    for (let i = 0; i < Math.min(b.length, 50); i++) hex += (i ? ' ' : '') + (b[i] + 0x100).toString(16).slice(1);
    if (b.length > 50) hex += ` ... ${b.length - 50} more byte${b.length - 50 > 1 ? 's' : ''}`;
    items.push(`[Uint8Contents]: <${hex}>`, `byteLength: ${v.byteLength}`);
  } else if (types.isPromise(v)) {
    prefix = 'Promise ';
    const [state, value] = native.promiseState(v);
    if (state === 'pending') items.push('<pending>');
    else if (depth > ctx.depth) items.push(state === 'rejected' ? '<rejected> [Object]' : '[Object]');
    else items.push((state === 'rejected' ? '<rejected> ' : '') + nested(ctx, value, depth));
  } else if (types.isBoxedPrimitive(v)) {
    const pv = v.valueOf();
    base = `[${tag}: ${formatPrimitive(pv, ctx)}]`;
    if (typeof pv === 'string') keys = keys.filter((k) => !(String(k >>> 0) === k && k >>> 0 < pv.length));
    if (keys.length === 0) return base;
  } else if (tag === 'WeakMap' || tag === 'WeakSet') {
    return `${tag} { <items unknown> }`;
  } else {
    if (name === null) prefix = '[Object: null prototype] ';
    else if (name !== 'Object') prefix = name + ' ';
    if (tag !== 'Object' && tag !== name && tag !== '') prefix = (name === null ? '[Object: null prototype] ' : (name === 'Object' ? 'Object ' : name + ' ')) + `[${tag}] `;
    if (tag === 'Arguments') prefix = '[Arguments] ';
    if (tag === 'Module') prefix = '[Module: null prototype] ';
  }
  if (keys.length === 0 && items.length === 0 && !base) return prefix + '{}';
  if (depth > ctx.depth) {
    return `[${name || tag || 'Object'}]`;
  }
  ctx.currentDepth = depth;
  ctx.seen.push(v);
  items.push(...entriesOf(ctx, v, keys, depth));
  ctx.seen.pop();
  return finish(ctx, v, depth, prefix, braces, items, base, isList);
}

// finish lays the entries out as Node's reduceToSingleString does in
// compact mode 3: a list of more than six entries is grouped in columns
// (groupArrayElements); the entries go on one line when they fit in
// breakLength and the value holds fewer than three levels of objects
// (counted as Node does: down the last value formatted); else one entry
// (or row) per line.
function finish(ctx, v, depth, prefix, braces, items, base, isList) {
  let ref = '';
  const id = ctx.circular.get(v);
  if (id !== undefined) ref = `<ref *${id}> `;
  if (items.length === 0) {
    if (base) return ref + base;
    return ref + prefix + braces[0] + braces[1];
  }
  const open = ref + prefix + braces[0];
  const head = base ? base + ' ' : '';
  const entries = items.length;
  let output = items;
  if (isList && entries > 6) output = groupArrayElements(ctx, items, v);
  if (ctx.currentDepth - depth < ctx.compact && entries === output.length) {
    const start = output.length + ctx.indent + open.length + base.length + 10;
    let total = output.length + start;
    for (const s of output) total += s.length;
    const joined = output.join(', ');
    if (total <= ctx.breakLength && !base.includes('\n') && !joined.includes('\n')) {
      return head + open + ' ' + joined + ' ' + braces[1];
    }
  }
  const ind = '\n' + ' '.repeat(ctx.indent);
  return head + open + ind + '  ' + output.join(',' + ind + '  ') + ind + braces[1];
}

// groupArrayElements is Node's: short entries of a long list in columns,
// numbers aligned right.
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = output[i].length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indent < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indent) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp = [];
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') { padStart = false; break; }
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = output[j] + ', ';
        str += padStart ? cell.padStart(maxLineLength[j - i], ' ') : cell.padEnd(maxLineLength[j - i], ' ');
      }
      str += padStart ? output[j].padStart(maxLineLength[j - i] - separatorSpace, ' ') : output[j];
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    return tmp;
  }
  return output;
}

function inspect(v, opts) {
  const o = Object.assign({}, defaultOptions);
  if (typeof opts === 'boolean') o.showHidden = opts;
  else if (opts != null && typeof opts === 'object') Object.assign(o, opts);
  if (arguments.length > 2 && arguments[2] !== undefined) o.depth = arguments[2];
  const ctx = {
    opts: o, depth: o.depth === null ? Infinity : o.depth, seen: [], circular: new Map(), indent: 0, currentDepth: 0,
    breakLength: o.breakLength, compact: o.compact === false ? 0 : o.compact === true ? Infinity : o.compact,
    maxArrayLength: o.maxArrayLength === null ? Infinity : o.maxArrayLength,
    maxStringLength: o.maxStringLength === null ? Infinity : o.maxStringLength,
    customInspect: o.customInspect !== false, sorted: !!o.sorted,
  };
  let out = formatValue(ctx, v, 0, false);
  // A value with a circular reference is marked at its top only once
  // it is known to be one: format again with the ids known.
  if (ctx.circular.size > 0 && !out.startsWith('<ref')) {
    const ids = ctx.circular;
    const again = Object.assign({}, ctx, { seen: [], circular: ids });
    out = formatValue(again, v, 0, false);
  }
  return out;
}
inspect.custom = customInspect;
inspect.defaultOptions = defaultOptions;
inspect.colors = {};
inspect.styles = {};

function format(f, ...args) {
  return formatWithOptions({}, f, ...args);
}

function formatWithOptions(opts, f, ...args) {
  const show = (a) => (typeof a === 'string' ? a : inspect(a, opts));
  if (typeof f !== 'string') return [f, ...args].map(show).join(' ');
  let i = 0;
  let out = '';
  let last = 0;
  for (let j = 0; j < f.length - 1; j++) {
    if (f[j] !== '%') continue;
    const c = f[j + 1];
    let rep;
    if (c === '%') { out += f.slice(last, j) + '%'; last = j + 2; j++; continue; }
    if (i >= args.length || !'sdifjoOc'.includes(c)) continue;
    const a = args[i];
    switch (c) {
      case 's':
        rep = typeof a === 'string' ? a : typeof a === 'bigint' ? a + 'n' : typeof a === 'symbol' ? a.toString()
          : (a !== null && typeof a === 'object') ? inspect(a, Object.assign({}, opts, { depth: 0 })) : String(a);
        break;
      case 'd': rep = typeof a === 'bigint' ? a + 'n' : typeof a === 'symbol' ? 'NaN' : String(Number(a)); break;
      case 'i': rep = typeof a === 'bigint' ? a + 'n' : typeof a === 'symbol' ? 'NaN' : String(parseInt(a)); break;
      case 'f': rep = typeof a === 'symbol' ? 'NaN' : String(parseFloat(a)); break;
      case 'j': try { rep = JSON.stringify(a); } catch (e) { rep = '[Circular]'; } break;
      case 'o': rep = inspect(a, Object.assign({}, opts, { showHidden: true, depth: 4 })); break;
      case 'O': rep = inspect(a, opts); break;
      case 'c': rep = ''; break;
    }
    out += f.slice(last, j) + rep;
    last = j + 2;
    j++;
    i++;
  }
  out += f.slice(last);
  for (; i < args.length; i++) out += ' ' + show(args[i]);
  return out;
}

const promisifyCustom = Symbol.for('nodejs.util.promisify.custom');
function promisify(fn) {
  if (typeof fn !== 'function') {
    const e = new TypeError('The "original" argument must be of type function');
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  if (fn[promisifyCustom]) return fn[promisifyCustom];
  function promisified(...args) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err, ...values) => (err ? reject(err) : resolve(values.length > 1 ? values : values[0])));
    });
  }
  Object.setPrototypeOf(promisified, Object.getPrototypeOf(fn));
  Object.defineProperty(promisified, promisifyCustom, { value: promisified, configurable: true });
  return Object.defineProperties(promisified, Object.getOwnPropertyDescriptors(fn));
}
promisify.custom = promisifyCustom;

function callbackify(fn) {
  return function (...args) {
    const cb = args.pop();
    fn.apply(this, args).then((v) => native.defer(() => cb(null, v)), (e) => {
      if (!e) { const w = new Error('Promise was rejected with a falsy value'); w.code = 'ERR_FALSY_VALUE_REJECTION'; w.reason = e; e = w; }
      native.defer(() => cb(e));
    });
  };
}

function inherits(ctor, superCtor) {
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

// deprecate warns (on stderr) the first time the function is called.
const warned = new Set();
function deprecate(fn, msg, code) {
  let done = false;
  return function (...args) {
    if (!done && !(code && warned.has(code))) {
      done = true;
      if (code) warned.add(code);
      process.emitWarning(msg, 'DeprecationWarning', code);
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  };
}

// debuglog(section) logs to stderr when NODE_DEBUG names section.
function debuglog(section, cb) {
  const names = String((process.env && process.env.NODE_DEBUG) || '').toUpperCase().split(/[\s,]+/);
  const on = names.includes(String(section).toUpperCase()) || names.includes('*');
  const log = on ? (...args) => process.stderr.write(`${String(section).toUpperCase()} ${process.pid}: ${format(...args)}\n`) : () => {};
  log.enabled = on;
  if (typeof cb === 'function') cb(log);
  return log;
}

function isDeepStrictEqual(a, b) {
  try { require('assert').deepStrictEqual(a, b); return true; } catch (e) { return false; }
}

function stripVTControlCharacters(s) {
  // eslint-disable-next-line no-control-regex
  return String(s).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, '');
}

function toUSVString(s) {
  return String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

const errnoNames = { '-1': 'EPERM', '-2': 'ENOENT', '-5': 'EIO', '-9': 'EBADF', '-11': 'EAGAIN', '-12': 'ENOMEM',
  '-13': 'EACCES', '-16': 'EBUSY', '-17': 'EEXIST', '-18': 'EXDEV', '-20': 'ENOTDIR', '-21': 'EISDIR', '-22': 'EINVAL',
  '-24': 'EMFILE', '-27': 'EFBIG', '-28': 'ENOSPC', '-30': 'EROFS', '-36': 'ENAMETOOLONG', '-38': 'ENOSYS',
  '-39': 'ENOTEMPTY', '-40': 'ELOOP' };
function getSystemErrorName(n) { return errnoNames[n] || `Unknown system error ${n}`; }

const { TextEncoder, TextDecoder } = require(' text');

module.exports = {
  format, formatWithOptions, inspect, promisify, callbackify, inherits, deprecate, debuglog, debug: debuglog,
  isDeepStrictEqual, types, stripVTControlCharacters, toUSVString, getSystemErrorName, TextEncoder, TextDecoder,
  styleText: (fmt, text) => String(text),
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v == null,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError: (v) => v instanceof Error,
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  isBuffer: (v) => require('buffer').Buffer.isBuffer(v),
};
