function invariant(condition, message, Err = Error) {
  if (!condition) throw new Err(message);
}
module.exports = { invariant };
