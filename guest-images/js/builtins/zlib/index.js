// node:zlib for wasmexec: gzip, deflate and raw deflate both ways (and
// unzip) over Go's compress packages (zlib.go), as *Sync functions,
// callback functions and streams (createGzip, ...: compression is
// incremental; decompression streams inflate when their input ends).
// Brotli is not there: Go's standard library has no brotli.
// Hand-written, part of wasmexec.
'use strict';
const native = require(' zlib');
const defer = require(' native').defer;
const { Buffer } = require('buffer');

const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
  Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
  DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15,
  Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
  Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8,
  Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
};

function toBytes(data) {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data;
  const e = new TypeError('The "buffer" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ' + (data === null ? 'null' : typeof data));
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

function level(opts) {
  return opts && opts.level !== undefined ? opts.level : -1;
}

function run(kind, data, opts) {
  const o = opts || {};
  const out = Buffer.from(native.process(kind, toBytes(data), level(o), o.dictionary, o.maxOutputLength || 0));
  return o.info ? { buffer: out, engine: null } : out;
}

const codecs = { gzip: 'Gzip', gunzip: 'Gunzip', deflate: 'Deflate', inflate: 'Inflate', deflateRaw: 'DeflateRaw', inflateRaw: 'InflateRaw', unzip: 'Unzip' };
const zlib = { constants, codes: {} };
for (const [k, v] of Object.entries(constants)) if (k.startsWith('Z_')) zlib[k] = v;
for (const k of ['Z_OK', 'Z_STREAM_END', 'Z_NEED_DICT', 'Z_ERRNO', 'Z_STREAM_ERROR', 'Z_DATA_ERROR', 'Z_MEM_ERROR', 'Z_BUF_ERROR', 'Z_VERSION_ERROR']) {
  zlib.codes[k] = constants[k];
  zlib.codes[constants[k]] = k;
}

let streamMod;
function Transform() { return (streamMod || (streamMod = require('stream'))).Transform; }

// makeStream is a Transform for kind: compressing chunk by chunk, or
// collecting the input and inflating it at the end.
function makeStream(kind, opts) {
  const o = opts || {};
  const compress = kind === 'gzip' || kind === 'deflate' || kind === 'deflateRaw';
  let c = null;
  const parts = [];
  const t = new (Transform())({
    transform(chunk, enc, cb) {
      try {
        const b = typeof chunk === 'string' ? Buffer.from(chunk, enc) : chunk;
        t.bytesWritten += b.length;
        if (compress) {
          if (!c) c = native.compressor(kind, level(o), o.dictionary);
          const out = c.write(b);
          if (out.byteLength) this.push(Buffer.from(out));
        } else {
          parts.push(Buffer.from(b));
        }
      } catch (e) { return cb(e); }
      cb();
    },
    flush(cb) {
      try {
        if (compress) {
          if (!c) c = native.compressor(kind, level(o), o.dictionary);
          const out = c.end();
          if (out.byteLength) this.push(Buffer.from(out));
        } else {
          this.push(Buffer.from(native.process(kind, Buffer.concat(parts), -1, o.dictionary, o.maxOutputLength || 0)));
        }
      } catch (e) { return cb(e); }
      cb();
    },
  });
  t.bytesWritten = 0;
  // flush([kind,] callback): what is compressed so far goes out now.
  t.flush = function (k, cb) {
    if (typeof k === 'function') cb = k;
    if (compress && c) {
      const out = c.flush();
      if (out.byteLength) this.push(Buffer.from(out));
    }
    if (typeof cb === 'function') defer(cb);
  };
  t.params = function (l, s, cb) { if (typeof cb === 'function') defer(cb); };
  t.reset = function () {};
  t.close = function (cb) { if (typeof cb === 'function') this.once('close', cb); this.destroy(); };
  return t;
}

for (const [kind, Name] of Object.entries(codecs)) {
  zlib[kind + 'Sync'] = (data, opts) => run(kind, data, opts);
  zlib[kind] = function (data, opts, cb) {
    if (typeof opts === 'function') { cb = opts; opts = {}; }
    if (typeof cb !== 'function') {
      const e = new TypeError('The "callback" argument must be of type function. Received ' + typeof cb);
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    let err = null, out;
    try { out = run(kind, data, opts); } catch (e) { err = e; }
    defer(() => (err ? cb(err) : cb(null, out)));
  };
  zlib['create' + Name] = (opts) => makeStream(kind, opts);
  // The classes: new zlib.Gzip(opts) is createGzip(opts).
  zlib[Name] = function (opts) { return makeStream(kind, opts); };
}

function noBrotli() {
  const e = new Error('brotli is not available in wasmexec: the guest\'s zlib is Go\'s standard library, which has no brotli');
  e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
  throw e;
}
for (const n of ['brotliCompress', 'brotliCompressSync', 'brotliDecompress', 'brotliDecompressSync', 'createBrotliCompress', 'createBrotliDecompress', 'BrotliCompress', 'BrotliDecompress']) {
  zlib[n] = noBrotli;
}

zlib.crc32 = (data, value) => native.crc32(typeof data === 'string' ? Buffer.from(data) : data, value || 0);

module.exports = zlib;
