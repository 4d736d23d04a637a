function DefaultNumberOption(inputVal, min, max, fallback) {
  if (inputVal === void 0) return fallback;
  const val = +inputVal;
  if (isNaN(val) || val < min || val > max) throw new RangeError(`${val} is outside of range [${min}, ${max}]`);
  return Math.floor(val);
}
function GetNumberOption(options, property, minimum, maximum, fallback) {
  const val = options[property];
  return DefaultNumberOption(val, minimum, maximum, fallback);
}
module.exports = { DefaultNumberOption, GetNumberOption };
