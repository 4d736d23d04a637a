const { internalSlotMap } = require("@formatjs/ecma402-shared/dtf-pr-rtf-loc");
function Type(x) {
  if (x === null) return "Null";
  if (typeof x === "undefined") return "Undefined";
  if (typeof x === "function" || typeof x === "object") return "Object";
  if (typeof x === "number") return "Number";
  if (typeof x === "boolean") return "Boolean";
  if (typeof x === "string") return "String";
  if (typeof x === "symbol") return "Symbol";
  if (typeof x === "bigint") return "BigInt";
}
function getInternalSlots(x) {
  let internalSlots = internalSlotMap.get(x);
  if (!internalSlots) {
    internalSlots = /* @__PURE__ */ Object.create(null);
    internalSlotMap.set(x, internalSlots);
  }
  return internalSlots;
}
module.exports = { Type, getInternalSlots };
