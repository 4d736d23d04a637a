const { ToObject } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
function CoerceOptionsToObject(options) {
  if (typeof options === "undefined") return /* @__PURE__ */ Object.create(null);
  return ToObject(options);
}
const internalSlotMap = /* @__PURE__ */ new WeakMap();
module.exports = { CoerceOptionsToObject, internalSlotMap };
