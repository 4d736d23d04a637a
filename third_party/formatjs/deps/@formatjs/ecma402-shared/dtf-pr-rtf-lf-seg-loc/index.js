function ToObject(arg) {
  if (arg == null) throw new TypeError("undefined/null cannot be converted to object");
  return Object(arg);
}
function ToString(o) {
  if (typeof o === "symbol") throw TypeError("Cannot convert a Symbol value to a string");
  return String(o);
}
function GetOption(opts, prop, type, values, fallback) {
  if (opts === null || typeof opts !== "object" && typeof opts !== "function") throw new TypeError("Options must be an object");
  let value = opts[prop];
  if (value !== void 0) {
    if (type !== "boolean" && type !== "string") throw new TypeError("invalid type");
    if (type === "boolean") value = Boolean(value);
    if (type === "string") value = ToString(value);
    if (values !== void 0 && !values.filter((val) => val == value).length) throw new RangeError(`${value} is not within ${values.join(", ")}`);
    return value;
  }
  return fallback;
}
module.exports = { ToObject, ToString, GetOption };
