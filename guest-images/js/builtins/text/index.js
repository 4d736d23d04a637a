// wasmexec: TextEncoder and TextDecoder (UTF-8 only), the globals Node and
// browsers have. Hand-written: encode replaces lone surrogates with U+FFFD;
// decode replaces malformed sequences with U+FFFD (or throws a TypeError
// with fatal: true) and drops a leading BOM unless ignoreBOM.
'use strict';

function TextEncoder() {}
Object.defineProperty(TextEncoder.prototype, 'encoding', { get: function () { return 'utf-8'; } });
TextEncoder.prototype.encode = function (input) {
  var s = input === undefined ? '' : String(input);
  var out = [];
  for (var i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      var d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
};
TextEncoder.prototype.encodeInto = function (input, dest) {
  var bytes = this.encode(input);
  var n = Math.min(bytes.length, dest.length);
  dest.set(bytes.subarray(0, n));
  return { read: String(input).length, written: n };
};

var labels = ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'];

function TextDecoder(label, options) {
  var l = label === undefined ? 'utf-8' : String(label).trim().toLowerCase();
  if (labels.indexOf(l) < 0) throw new RangeError('The "' + label + '" encoding is not supported (wasmexec decodes UTF-8 only)');
  this.fatal = !!(options && options.fatal);
  this.ignoreBOM = !!(options && options.ignoreBOM);
}
Object.defineProperty(TextDecoder.prototype, 'encoding', { get: function () { return 'utf-8'; } });
TextDecoder.prototype.decode = function (input) {
  var b;
  if (input === undefined || input === null) b = new Uint8Array(0);
  else if (input instanceof ArrayBuffer) b = new Uint8Array(input);
  else if (ArrayBuffer.isView(input)) b = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  else throw new TypeError('The "input" argument must be an ArrayBuffer or an ArrayBufferView');
  var fatal = this.fatal;
  var parts = [];
  var chunk = [];
  function bad() {
    if (fatal) throw new TypeError('The encoded data was not valid for encoding utf-8');
    chunk.push(0xfffd);
  }
  var i = 0;
  if (!this.ignoreBOM && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
  while (i < b.length) {
    var c = b[i];
    var need = 0, cp = 0, min = 0;
    if (c < 0x80) { chunk.push(c); i++; }
    else {
      if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; min = 0x80; }
      else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; min = 0x800; }
      else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; min = 0x10000; }
      else { bad(); i++; need = -1; }
      if (need > 0) {
        var j = 1;
        for (; j <= need; j++) {
          var n = b[i + j];
          if (n === undefined || (n & 0xc0) !== 0x80) break;
          cp = (cp << 6) | (n & 0x3f);
        }
        if (j <= need || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) { bad(); i += Math.max(1, j); }
        else {
          if (cp >= 0x10000) { cp -= 0x10000; chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff)); }
          else chunk.push(cp);
          i += need + 1;
        }
      }
    }
    if (chunk.length >= 4096) { parts.push(String.fromCharCode.apply(null, chunk)); chunk = []; }
  }
  parts.push(String.fromCharCode.apply(null, chunk));
  return parts.join('');
};

module.exports = { TextEncoder: TextEncoder, TextDecoder: TextDecoder };
