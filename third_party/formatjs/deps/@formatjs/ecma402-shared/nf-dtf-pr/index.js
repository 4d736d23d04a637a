const { Decimal } = require("@formatjs/bigdecimal");
function IsCallable(fn) {
  return typeof fn === "function";
}
const ZERO = new Decimal(0);
module.exports = { IsCallable, ZERO };
