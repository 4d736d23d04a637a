const { IsCallable } = require("@formatjs/ecma402-shared/nf-dtf-pr");
function OrdinaryHasInstance(C, O, internalSlots) {
  if (!IsCallable(C)) return false;
  if (internalSlots?.boundTargetFunction) return O instanceof internalSlots?.boundTargetFunction;
  if (typeof O !== "object") return false;
  let P = C.prototype;
  if (typeof P !== "object") throw new TypeError("OrdinaryHasInstance called on an object with an invalid prototype property.");
  return Object.prototype.isPrototypeOf.call(P, O);
}
module.exports = { OrdinaryHasInstance };
