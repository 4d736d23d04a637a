function GetOptionsObject(options) {
  if (typeof options === "undefined") return /* @__PURE__ */ Object.create(null);
  if (options !== null && (typeof options === "object" || typeof options === "function")) return options;
  throw new TypeError("Options must be an object");
}
function setInternalSlot(map, pl, field, value) {
  if (!map.get(pl)) map.set(pl, /* @__PURE__ */ Object.create(null));
  const slots = map.get(pl);
  slots[field] = value;
}
function getInternalSlot(map, pl, field) {
  return getMultiInternalSlots(map, pl, field)[field];
}
function getMultiInternalSlots(map, pl, ...fields) {
  const slots = map.get(pl);
  if (!slots) throw new TypeError(`${pl} InternalSlot has not been initialized`);
  return fields.reduce((all, f) => {
    all[f] = slots[f];
    return all;
  }, /* @__PURE__ */ Object.create(null));
}
module.exports = { GetOptionsObject, setInternalSlot, getInternalSlot, getMultiInternalSlots };
