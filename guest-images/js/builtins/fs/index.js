// node:fs for wasmexec: Node's API over the driver's synchronous fs (the
// `fs` global, fs.go, whose errors are already Node's): Buffers for bytes,
// encodings, Stats and Dirent, callback and promise versions, and streams
// (node:stream). What needs file descriptors or watching is not there and
// says so. Hand-written, part of wasmexec.
'use strict';
const gfs = require(' fs');
const native = require(' native');
const { Buffer } = require('buffer');
const pathMod = require('path');

function toPath(p, name) {
  if (typeof p === 'string') return p;
  if (p instanceof URL) {
    if (p.protocol !== 'file:') {
      const e = new TypeError('The URL must be of scheme file');
      e.code = 'ERR_INVALID_URL_SCHEME';
      throw e;
    }
    return decodeURIComponent(p.pathname);
  }
  if (Buffer.isBuffer(p)) return p.toString();
  const e = new TypeError(`The "${name || 'path'}" argument must be of type string or an instance of Buffer or URL. Received ${p === null ? 'null' : typeof p}`);
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

function encodingOf(opts) {
  if (typeof opts === 'string') return opts;
  return opts != null && typeof opts === 'object' && opts.encoding != null ? opts.encoding : undefined;
}

function flagOf(opts, def) {
  return opts != null && typeof opts === 'object' && opts.flag !== undefined ? String(opts.flag) : def;
}

function isUtf8(enc) {
  return enc === 'utf8' || enc === 'utf-8' || enc === 'UTF-8' || enc === 'UTF8';
}

function toBytes(data, enc) {
  if (typeof data === 'string') return isUtf8(enc) || enc === undefined ? data : Buffer.from(data, enc);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data;
  const e = new TypeError('The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView.');
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

function unavailable(name, why) {
  return function () {
    const e = new Error(`fs.${name} is not available in wasmexec: ${why}`);
    e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
    throw e;
  };
}

const S_IFMT = 0o170000;
class Stats {
  constructor(o) { Object.assign(this, o); }
  get mtime() { return new Date(this.mtimeMs); }
  get atime() { return new Date(this.atimeMs); }
  get ctime() { return new Date(this.ctimeMs); }
  get birthtime() { return new Date(this.birthtimeMs); }
  isFile() { return (this.mode & S_IFMT) === 0o100000; }
  isDirectory() { return (this.mode & S_IFMT) === 0o040000; }
  isSymbolicLink() { return (this.mode & S_IFMT) === 0o120000; }
  isFIFO() { return (this.mode & S_IFMT) === 0o010000; }
  isSocket() { return (this.mode & S_IFMT) === 0o140000; }
  isCharacterDevice() { return (this.mode & S_IFMT) === 0o020000; }
  isBlockDevice() { return (this.mode & S_IFMT) === 0o060000; }
}

class Dirent {
  #kind;
  constructor(name, kind, dir) { this.name = name; this.parentPath = dir; this.path = dir; this.#kind = kind; }
  isFile() { return this.#kind === 'file'; }
  isDirectory() { return this.#kind === 'dir'; }
  isSymbolicLink() { return this.#kind === 'symlink'; }
  isFIFO() { return false; }
  isSocket() { return false; }
  isCharacterDevice() { return false; }
  isBlockDevice() { return false; }
}

const constants = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  S_IFMT, S_IFREG: 0o100000, S_IFDIR: 0o040000, S_IFLNK: 0o120000,
};

const fs = {};

fs.readFileSync = function readFileSync(p, opts) {
  p = toPath(p);
  const enc = encodingOf(opts);
  if (enc !== undefined && isUtf8(enc)) return gfs.readFileSync(p, 'utf8');
  const buf = Buffer.from(gfs.readFileSync(p));
  return enc === undefined || enc === 'buffer' ? buf : buf.toString(enc);
};
fs.writeFileSync = function writeFileSync(p, data, opts) {
  p = toPath(p, 'file');
  const bytes = toBytes(data, encodingOf(opts));
  if (flagOf(opts, 'w')[0] === 'a') gfs.appendFileSync(p, bytes);
  else gfs.writeFileSync(p, bytes);
};
fs.appendFileSync = function appendFileSync(p, data, opts) {
  gfs.appendFileSync(toPath(p, 'file'), toBytes(data, encodingOf(opts)));
};
fs.existsSync = function existsSync(p) {
  try { return gfs.existsSync(toPath(p)); } catch (e) { return false; }
};
fs.readdirSync = function readdirSync(p, opts) {
  p = toPath(p);
  const withTypes = opts != null && typeof opts === 'object' && opts.withFileTypes;
  const recursive = opts != null && typeof opts === 'object' && opts.recursive;
  const out = [];
  const walk = (dir, prefix) => {
    for (const [name, kind] of gfs.readdirTypes(dir)) {
      const rel = prefix ? prefix + '/' + name : name;
      out.push(withTypes ? new Dirent(name, kind, dir) : rel);
      if (recursive && kind === 'dir') walk(dir + '/' + name, rel);
    }
  };
  if (!withTypes && !recursive) return gfs.readdirSync(p);
  walk(p, '');
  return out;
};
fs.mkdirSync = function mkdirSync(p, opts) {
  return gfs.mkdirSync(toPath(p), typeof opts === 'object' ? opts : undefined);
};
fs.unlinkSync = function unlinkSync(p) { gfs.unlinkSync(toPath(p)); };
fs.rmdirSync = function rmdirSync(p, opts) {
  p = toPath(p);
  if (opts != null && opts.recursive) gfs.rmSync(p);
  else gfs.rmdirSync(p);
};
fs.rmSync = function rmSync(p, opts) {
  p = toPath(p);
  const o = opts || {};
  const st = gfs.statTry(p, true);
  if (st === undefined) {
    if (o.force) return;
    gfs.lstatSync(p); // throws Node's ENOENT
  }
  if ((st.mode & S_IFMT) === 0o040000 && !o.recursive) {
    const e = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${p}`);
    e.code = 'ERR_FS_EISDIR';
    e.errno = 21;
    e.syscall = 'rm';
    e.path = p;
    throw e;
  }
  gfs.rmSync(p);
};
fs.renameSync = function renameSync(a, b) { gfs.renameSync(toPath(a, 'oldPath'), toPath(b, 'newPath')); };
fs.copyFileSync = function copyFileSync(a, b, mode) { gfs.copyFileSync(toPath(a, 'src'), toPath(b, 'dest'), mode); };
fs.cpSync = function cpSync(a, b, opts) {
  a = toPath(a, 'src'); b = toPath(b, 'dest');
  const st = fs.statSync(a);
  if (!st.isDirectory()) return gfs.copyFileSync(a, b);
  if (!(opts && opts.recursive)) {
    const e = new Error(`Recursive option is required to copy a directory: ${a}`);
    e.code = 'ERR_FS_EISDIR';
    throw e;
  }
  fs.mkdirSync(b, { recursive: true });
  for (const [name] of gfs.readdirTypes(a)) fs.cpSync(a + '/' + name, b + '/' + name, opts);
};
function statWith(fn, lstat) {
  return function (p, opts) {
    p = toPath(p);
    if (opts != null && opts.throwIfNoEntry === false) {
      const o = gfs.statTry(p, lstat);
      return o === undefined ? undefined : new Stats(o);
    }
    return new Stats(fn(p));
  };
}
fs.statSync = statWith(gfs.statSync, false);
fs.lstatSync = statWith(gfs.lstatSync, true);
fs.accessSync = function accessSync(p) { gfs.accessSync(toPath(p)); };
fs.readlinkSync = function readlinkSync(p) { return gfs.readlinkSync(toPath(p)); };
fs.symlinkSync = function symlinkSync(target, p) { gfs.symlinkSync(toPath(target, 'target'), toPath(p)); };
fs.realpathSync = function realpathSync(p) {
  p = pathMod.resolve(toPath(p));
  // Follow links component by component (at most 40, as Linux).
  let out = '/';
  const parts = p.split('/').filter(Boolean);
  for (let i = 0, links = 0; i < parts.length; i++) {
    const next = pathMod.join(out, parts[i]);
    const st = fs.lstatSync(next);
    if (st.isSymbolicLink()) {
      if (++links > 40) gfs.statSync(next); // throws ELOOP
      const target = gfs.readlinkSync(next);
      parts.splice(0, i + 1, ...pathMod.resolve(out, target).split('/').filter(Boolean));
      out = '/';
      i = -1;
      continue;
    }
    out = next;
  }
  return out;
};
fs.realpathSync.native = fs.realpathSync;
fs.mkdtempSync = function mkdtempSync(prefix) {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (;;) {
    const bytes = native.fill(new Uint8Array(6));
    let p = String(prefix);
    for (const b of bytes) p += chars[b % chars.length];
    if (!gfs.existsSync(p)) { gfs.mkdirSync(p); return p; }
  }
};
fs.chmodSync = function chmodSync(p) { gfs.accessSync(toPath(p)); };
fs.utimesSync = function utimesSync(p) { gfs.accessSync(toPath(p)); };
fs.truncateSync = function truncateSync(p, len) {
  p = toPath(p);
  const b = fs.readFileSync(p);
  const n = len === undefined ? 0 : len;
  const out = Buffer.alloc(n);
  b.copy(out, 0, 0, Math.min(n, b.length));
  gfs.writeFileSync(p, out);
};

for (const name of ['openSync', 'closeSync', 'readSync', 'writeSync', 'fstatSync', 'fsyncSync', 'ftruncateSync', 'opendirSync']) {
  fs[name] = unavailable(name, 'file descriptors are not implemented (read and write whole files, or use streams)');
}
for (const name of ['watch', 'watchFile', 'unwatchFile']) {
  fs[name] = unavailable(name, 'the sandbox has no file system events');
}

// Callback versions: the same call, its callback run from the event
// loop (never before the caller returns).
const callbackNames = ['readFile', 'writeFile', 'appendFile', 'readdir', 'mkdir', 'unlink', 'rmdir', 'rm',
  'rename', 'copyFile', 'cp', 'stat', 'lstat', 'access', 'readlink', 'symlink', 'realpath', 'mkdtemp', 'chmod',
  'utimes', 'truncate'];
for (const name of callbackNames) {
  const sync = fs[name + 'Sync'];
  fs[name] = function (...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') {
      const e = new TypeError('The "cb" argument must be of type function. Received ' + typeof cb);
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    let err = null, value;
    try { value = sync.apply(fs, args); } catch (e) { err = e; }
    native.defer(() => (err ? cb(err) : cb(null, value)));
  };
}
fs.exists = function exists(p, cb) {
  const v = fs.existsSync(p);
  native.defer(() => cb(v));
};

const promises = {};
for (const name of callbackNames) {
  const sync = fs[name + 'Sync'];
  promises[name] = function (...args) {
    return new Promise((resolve) => resolve(sync.apply(fs, args)));
  };
}
promises.constants = constants;
fs.promises = promises;

let streamMod;
function stream() { return streamMod || (streamMod = require('stream')); }

fs.createReadStream = function createReadStream(p, opts) {
  p = toPath(p);
  const o = typeof opts === 'string' ? { encoding: opts } : (opts || {});
  const hwm = o.highWaterMark || 64 * 1024;
  let data = null, at = 0, end = 0;
  const rs = new (stream().Readable)({
    highWaterMark: hwm,
    encoding: o.encoding,
    construct(cb) {
      try {
        data = fs.readFileSync(p);
        at = o.start === undefined ? 0 : o.start;
        end = o.end === undefined ? data.length : Math.min(o.end + 1, data.length);
      } catch (e) { return cb(e); }
      cb();
      rs.emit('open', 0);
      rs.emit('ready');
    },
    // Each chunk arrives from the event loop, as Node's reads do.
    read() {
      if (at >= end) { native.defer(() => this.push(null)); return; }
      const n = Math.min(hwm, end - at);
      const chunk = data.subarray(at, at + n);
      at += n;
      rs.bytesRead += n;
      native.defer(() => this.push(chunk));
    },
  });
  rs.path = p;
  rs.bytesRead = 0;
  rs.pending = false;
  return rs;
};

fs.createWriteStream = function createWriteStream(p, opts) {
  p = toPath(p);
  const o = typeof opts === 'string' ? { encoding: opts } : (opts || {});
  const ws = new (stream().Writable)({
    decodeStrings: true,
    defaultEncoding: o.encoding || 'utf8',
    construct(cb) {
      try { if ((o.flags || 'w')[0] !== 'a') gfs.writeFileSync(p, ''); else gfs.appendFileSync(p, ''); } catch (e) { return cb(e); }
      cb();
      ws.emit('open', 0);
      ws.emit('ready');
    },
    write(chunk, enc, cb) {
      try { gfs.appendFileSync(p, chunk); ws.bytesWritten += chunk.length; } catch (e) { return cb(e); }
      cb();
    },
  });
  ws.path = p;
  ws.bytesWritten = 0;
  ws.pending = false;
  return ws;
};

fs.Stats = Stats;
fs.Dirent = Dirent;
fs.constants = constants;
Object.assign(fs, { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 });

module.exports = fs;
