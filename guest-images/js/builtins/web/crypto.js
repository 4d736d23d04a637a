// wasmexec: the global crypto (Web Crypto): getRandomValues and randomUUID
// from host entropy, and subtle.digest (SHA-1, SHA-256, SHA-384, SHA-512).
// The rest of SubtleCrypto rejects with NotSupportedError. Hand-written,
// part of wasmexec.
'use strict';
const native = require(' native');
const { DOMException } = require('./domexception');

const integerArrays = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

function getRandomValues(array) {
  if (arguments.length === 0) throw new TypeError('The "typedArray" argument must be specified');
  const tag = ArrayBuffer.isView(array) ? typedArrayTag.call(array) : undefined;
  if (!integerArrays.includes(tag)) {
    throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
  }
  if (array.byteLength > 65536) {
    throw new DOMException(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
  }
  return native.fill(array);
}

function randomUUID() {
  const b = native.fill(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  let h = '';
  for (let i = 0; i < 16; i++) {
    h += (b[i] + 0x100).toString(16).slice(1);
    if (i === 3 || i === 5 || i === 7 || i === 9) h += '-';
  }
  return h;
}

const digests = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function notSupported(what) {
  return () => Promise.reject(new DOMException(`crypto.subtle.${what} is not available in wasmexec (only digest is)`, 'NotSupportedError'));
}

const subtle = {
  digest(algorithm, data) {
    return new Promise((resolve) => {
      const name = typeof algorithm === 'string' ? algorithm : algorithm != null ? algorithm.name : undefined;
      const alg = digests[String(name).toUpperCase()];
      if (!alg) throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
      if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data)) {
        throw new TypeError('Failed to execute \'digest\' on \'SubtleCrypto\': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
      }
      resolve(native.digest(alg, data));
    });
  },
};
for (const m of ['encrypt', 'decrypt', 'sign', 'verify', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
  subtle[m] = notSupported(m);
}
Object.defineProperty(subtle, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

const crypto = { getRandomValues, randomUUID, subtle };
Object.defineProperty(crypto, Symbol.toStringTag, { value: 'Crypto', configurable: true });

module.exports = { crypto };
