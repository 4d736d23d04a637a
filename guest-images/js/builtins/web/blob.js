// wasmexec: Blob and File (the File API's), over bytes in memory: size,
// type, text(), arrayBuffer(), bytes() and slice(). stream() needs web
// streams, which the guest lacks. Hand-written, part of wasmexec.
'use strict';
const native = require(' native');

let bytesOf;

function normType(t) {
  t = t === undefined ? '' : String(t);
  return /^[\x20-\x7e]*$/.test(t) ? t.toLowerCase() : '';
}

class Blob {
  #bytes; #type;
  static {
    bytesOf = (b) => b.#bytes;
  }
  constructor(parts, options) {
    const chunks = [];
    if (parts !== undefined) {
      if (parts === null || typeof parts !== 'object' || typeof parts[Symbol.iterator] !== 'function') {
        throw new TypeError('The "sources" argument must be a sequence. Received ' + (parts === null ? 'null' : typeof parts));
      }
      const lf = options != null && options.endings === 'native';
      for (const p of parts) {
        if (p instanceof Blob) chunks.push(p.#bytes);
        else if (p instanceof ArrayBuffer) chunks.push(new Uint8Array(p.slice(0)));
        else if (ArrayBuffer.isView(p)) chunks.push(new Uint8Array(p.buffer.slice(p.byteOffset, p.byteOffset + p.byteLength)));
        else {
          let s = String(p);
          if (lf) s = s.replace(/\r\n?/g, '\n');
          chunks.push(new Uint8Array(native.utf8(s)));
        }
      }
    }
    let n = 0;
    for (const c of chunks) n += c.length;
    const bytes = new Uint8Array(n);
    let at = 0;
    for (const c of chunks) { bytes.set(c, at); at += c.length; }
    this.#bytes = bytes;
    this.#type = normType(options == null ? undefined : options.type);
  }
  get size() { return this.#bytes.length; }
  get type() { return this.#type; }
  slice(start, end, contentType) {
    const n = this.#bytes.length;
    const rel = (v, d) => {
      if (v === undefined) return d;
      v = Math.trunc(Number(v)) || 0;
      return v < 0 ? Math.max(n + v, 0) : Math.min(v, n);
    };
    const from = rel(start, 0), to = rel(end, n);
    const b = new Blob([], { type: contentType });
    b.#bytes = this.#bytes.slice(from, Math.max(from, to));
    return b;
  }
  text() { return Promise.resolve().then(() => native.text(this.#bytes)); }
  arrayBuffer() { return Promise.resolve().then(() => this.#bytes.slice().buffer); }
  bytes() { return Promise.resolve().then(() => this.#bytes.slice()); }
  stream() {
    throw new TypeError('Blob.stream() is not available in wasmexec: the guest has no web streams (ReadableStream)');
  }
}
Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });

class File extends Blob {
  #name; #lastModified;
  constructor(bits, name, options) {
    if (arguments.length < 2) throw new TypeError('The "fileBits" and "fileName" arguments must be specified');
    super(bits, options);
    this.#name = String(name);
    const lm = options != null && options.lastModified !== undefined ? Number(options.lastModified) : Date.now();
    this.#lastModified = Number.isNaN(lm) ? 0 : Math.trunc(lm);
  }
  get name() { return this.#name; }
  get lastModified() { return this.#lastModified; }
  get webkitRelativePath() { return ''; }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

module.exports = { Blob, File, bytesOf };
