// wasmexec: Node's url module. URL and URLSearchParams are whatwg-url@14.2.0
// (the WHATWG URL Standard's reference implementation, deps/whatwg-url);
// parse, format, resolve, resolveObject and Url are url@0.11.4 (Node's
// legacy url module, legacy.js); fileURLToPath, pathToFileURL,
// urlToHttpOptions, domainToASCII, domainToUnicode and format of a URL
// object are written here after Node's lib/url.js and lib/internal/url.js
// (POSIX paths, as in Node on Linux). URL and URLSearchParams load on first
// use.
'use strict';

var legacy = require('./legacy.js');
var path = require('path');

var whatwg;
function w() {
  if (!whatwg) whatwg = require('whatwg-url');
  return whatwg;
}

function codeError(Ctor, code, message) {
  var e = new Ctor(message);
  e.code = code;
  return e;
}

function isURL(u) {
  return u !== null && typeof u === 'object' && typeof u.href === 'string' && typeof u.protocol === 'string' && u.searchParams !== undefined;
}

function fileURLToPath(u) {
  if (typeof u === 'string') u = new (w().URL)(u);
  else if (!isURL(u)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string or an instance of URL. Received ' + (u === null ? 'null' : typeof u));
  if (u.protocol !== 'file:') throw codeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname !== '') throw codeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  var pathname = u.pathname;
  for (var n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%') {
      var third = pathname.codePointAt(n + 2) | 0x20;
      if (pathname[n + 1] === '2' && third === 102) throw codeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
    }
  }
  return decodeURIComponent(pathname);
}

function encodePathChars(p) {
  if (p.indexOf('%') >= 0) p = p.replace(/%/g, '%25');
  if (p.indexOf('\\') >= 0) p = p.replace(/\\/g, '%5C');
  if (p.indexOf('\n') >= 0) p = p.replace(/\n/g, '%0A');
  if (p.indexOf('\r') >= 0) p = p.replace(/\r/g, '%0D');
  if (p.indexOf('\t') >= 0) p = p.replace(/\t/g, '%09');
  return p;
}

function pathToFileURL(filepath) {
  if (typeof filepath !== 'string') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string. Received ' + typeof filepath);
  var resolved = path.resolve(filepath);
  if (filepath.charCodeAt(filepath.length - 1) === 47 && resolved[resolved.length - 1] !== '/') resolved += '/';
  resolved = encodePathChars(resolved);
  if (resolved.indexOf('?') >= 0) resolved = resolved.replace(/\?/g, '%3F');
  if (resolved.indexOf('#') >= 0) resolved = resolved.replace(/#/g, '%23');
  return new (w().URL)('file://' + resolved);
}

function urlToHttpOptions(u) {
  var hostname = u.hostname;
  var options = {
    protocol: u.protocol,
    hostname: hostname && hostname[0] === '[' ? hostname.slice(1, -1) : hostname,
    hash: u.hash,
    search: u.search,
    pathname: u.pathname,
    path: (u.pathname || '') + (u.search || ''),
    href: u.href
  };
  if (u.port !== '') options.port = Number(u.port);
  if (u.username || u.password) options.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password);
  return options;
}

function format(u, options) {
  if (!isURL(u)) return legacy.format(u);
  var o = options || {};
  var auth = o.auth !== false, fragment = o.fragment !== false, search = o.search !== false, unicode = !!o.unicode;
  var out = u.protocol;
  var hasHost = u.host !== '' || u.protocol === 'file:';
  if (hasHost) {
    out += '//';
    if (auth && (u.username || u.password)) {
      out += u.username;
      if (u.password) out += ':' + u.password;
      out += '@';
    }
    out += unicode ? domainToUnicode(u.hostname) + (u.port ? ':' + u.port : '') : u.host;
  }
  out += u.pathname;
  if (search) out += u.search;
  if (fragment) out += u.hash;
  return out;
}

var tr46Options = { checkHyphens: false, checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: false, transitionalProcessing: false, verifyDNSLength: false, ignoreInvalidPunycode: false };

function domainToASCII(domain) {
  var r = require('tr46').toASCII(String(domain), tr46Options);
  return r === null ? '' : r;
}

function domainToUnicode(domain) {
  var r = require('tr46').toUnicode(String(domain), tr46Options);
  return r.error ? '' : r.domain;
}

var url = {
  Url: legacy.Url,
  parse: legacy.parse,
  resolve: legacy.resolve,
  resolveObject: legacy.resolveObject,
  format: format,
  fileURLToPath: fileURLToPath,
  pathToFileURL: pathToFileURL,
  urlToHttpOptions: urlToHttpOptions,
  domainToASCII: domainToASCII,
  domainToUnicode: domainToUnicode
};
Object.defineProperty(url, 'URL', { enumerable: true, get: function () { return w().URL; } });
Object.defineProperty(url, 'URLSearchParams', { enumerable: true, get: function () { return w().URLSearchParams; } });
module.exports = url;
