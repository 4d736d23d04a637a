// wasmexec: url@0.11.4 parses and formats query strings with qs; the guest
// gives it Node's querystring instead (what Node's own url.parse uses), so
// url.parse(u, true).query is what Node returns.
'use strict';
var querystring = require('querystring');
module.exports = {
  parse: function (s) { return querystring.parse(s); },
  stringify: function (o) { return querystring.stringify(o); }
};
