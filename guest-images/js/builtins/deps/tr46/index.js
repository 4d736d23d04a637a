// wasmexec: tr46 (deps/tr46-full, tr46@5.1.1) loads a 140 KB Unicode mapping
// table, which takes a goja guest ~150 ms to parse. A domain of ASCII
// letters, digits and punctuation with no "xn--" label maps to itself in
// lower case under every option whatwg-url passes (no bidi, joiner or
// hyphen rule applies to ASCII, and STD3 rules only refuse characters
// whatwg-url refuses itself), so only other domains load the real tr46.
'use strict';
var full;
function real() {
  if (!full) full = require('tr46-full');
  return full;
}
function plain(domain) {
  return /^[\x21-\x7e]*$/.test(domain) && !/(^|\.)xn--/i.test(domain);
}
module.exports = {
  toASCII: function (domain, options) {
    if (plain(domain) && !(options && (options.useSTD3ASCIIRules || options.verifyDNSLength))) return domain.toLowerCase();
    return real().toASCII(domain, options);
  },
  toUnicode: function (domain, options) {
    if (plain(domain) && !(options && options.useSTD3ASCIIRules)) return { domain: domain.toLowerCase(), error: false };
    return real().toUnicode(domain, options);
  }
};
