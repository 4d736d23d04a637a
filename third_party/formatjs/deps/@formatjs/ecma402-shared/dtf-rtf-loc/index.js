function SameValue(x, y) {
  if (Object.is) return Object.is(x, y);
  if (x === y) return x !== 0 || 1 / x === 1 / y;
  return x !== x && y !== y;
}
function IsUnicodeLocaleIdentifierType(value) {
  return /^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*(?![\s\S])/i.test(value);
}
module.exports = { SameValue, IsUnicodeLocaleIdentifierType };
