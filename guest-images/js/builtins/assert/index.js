// node:assert for wasmexec: a small hand-written subset. Part of wasmexec.
'use strict';
class AssertionError extends Error {
  constructor(opts) {
    super(opts.message);
    this.name = 'AssertionError';
    this.code = 'ERR_ASSERTION';
    this.actual = opts.actual;
    this.expected = opts.expected;
    this.operator = opts.operator;
  }
}
function fail(actual, expected, message, operator, def) {
  if (message instanceof Error) throw message;
  throw new AssertionError({message: message || def, actual, expected, operator});
}
function show(v) { try { return JSON.stringify(v); } catch (e) { return String(v); } }
function deepEq(a, b, strict) {
  if (strict ? Object.is(a, b) : a == b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !deepEq(v, b.get(k), strict)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEq(a[k], b[k], strict)) return false;
  return true;
}
function matches(err, expected) {
  if (expected === undefined) return true;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && err instanceof expected) return true;
    if (Error.isPrototypeOf(expected) || expected === Error) return false;
    return expected(err) === true;
  }
  if (expected instanceof RegExp) return expected.test(String(err && err.message !== undefined ? err.message : err)) || expected.test(String(err));
  if (typeof expected === 'object') return Object.keys(expected).every(k => expected[k] instanceof RegExp ? expected[k].test(err[k]) : deepEq(err[k], expected[k], true));
  return false;
}
function assert(value, message) { if (!value) fail(value, true, message, '==', 'The expression evaluated to a falsy value: ' + show(value)); }
assert.ok = assert;
assert.AssertionError = AssertionError;
assert.fail = (message) => fail(undefined, undefined, message || 'Failed', 'fail');
assert.equal = (a, b, m) => { if (!(a == b)) fail(a, b, m, '==', `${show(a)} == ${show(b)}`); };
assert.notEqual = (a, b, m) => { if (a == b) fail(a, b, m, '!=', `${show(a)} != ${show(b)}`); };
assert.strictEqual = (a, b, m) => { if (!Object.is(a, b)) fail(a, b, m, 'strictEqual', `Expected values to be strictly equal: ${show(a)} !== ${show(b)}`); };
assert.notStrictEqual = (a, b, m) => { if (Object.is(a, b)) fail(a, b, m, 'notStrictEqual', `Expected "actual" to be strictly unequal to: ${show(b)}`); };
assert.deepEqual = (a, b, m) => { if (!deepEq(a, b, false)) fail(a, b, m, 'deepEqual', `Expected values to be loosely deep-equal: ${show(a)} vs ${show(b)}`); };
assert.deepStrictEqual = (a, b, m) => { if (!deepEq(a, b, true)) fail(a, b, m, 'deepStrictEqual', `Expected values to be strictly deep-equal: ${show(a)} vs ${show(b)}`); };
assert.notDeepStrictEqual = (a, b, m) => { if (deepEq(a, b, true)) fail(a, b, m, 'notDeepStrictEqual', 'Expected "actual" not to be strictly deep-equal to "expected"'); };
assert.notDeepEqual = (a, b, m) => { if (deepEq(a, b, false)) fail(a, b, m, 'notDeepEqual', 'Expected "actual" not to be loosely deep-equal to "expected"'); };
assert.throws = (fn, expected, m) => {
  if (typeof expected === 'string') { m = expected; expected = undefined; }
  try { fn(); } catch (e) { if (!matches(e, expected)) throw e; return; }
  fail(undefined, expected, m, 'throws', 'Missing expected exception.');
};
assert.doesNotThrow = (fn, m) => { try { fn(); } catch (e) { fail(e, undefined, m, 'doesNotThrow', 'Got unwanted exception: ' + (e && e.message)); } };
assert.rejects = async (p, expected, m) => {
  try { await (typeof p === 'function' ? p() : p); } catch (e) { if (!matches(e, expected)) throw e; return; }
  fail(undefined, expected, m, 'rejects', 'Missing expected rejection.');
};
assert.match = (s, re, m) => { if (!re.test(s)) fail(s, re, m, 'match', `The input did not match the regular expression ${re}. Input: ${show(s)}`); };
assert.strict = assert;
module.exports = assert;
