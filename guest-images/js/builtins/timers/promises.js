// node:timers/promises for wasmexec: setTimeout, setImmediate and
// setInterval (an async iterator) as promises, with Node's signal and ref
// options. Hand-written, part of wasmexec.
'use strict';

function abortError(signal) {
  const e = new Error('The operation was aborted', { cause: signal.reason });
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  return e;
}

function later(schedule, clear, value, options) {
  const signal = options && options.signal;
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    let onAbort;
    const t = schedule(() => {
      if (onAbort) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (options && options.ref === false && t && typeof t.unref === 'function') t.unref();
    if (signal) {
      onAbort = () => { clear(t); reject(abortError(signal)); };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

function setTimeout(delay, value, options) {
  return later((fn) => globalThis.setTimeout(fn, delay), globalThis.clearTimeout, value, options);
}

function setImmediate(value, options) {
  return later((fn) => globalThis.setImmediate(fn), globalThis.clearImmediate, value, options);
}

async function* setInterval(delay, value, options) {
  const signal = options && options.signal;
  if (signal && signal.aborted) throw abortError(signal);
  let pending = 0, wake = null;
  const t = globalThis.setInterval(() => { pending++; if (wake) { wake(); wake = null; } }, delay);
  if (options && options.ref === false) t.unref();
  let onAbort;
  const aborted = new Promise((_, reject) => {
    if (signal) {
      onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      if (pending === 0) await Promise.race([new Promise((r) => { wake = r; }), aborted]);
      for (; pending > 0; pending--) yield value;
    }
  } finally {
    globalThis.clearInterval(t);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

const scheduler = {
  wait: (delay, options) => setTimeout(delay, undefined, options),
  yield: () => setImmediate(),
};

module.exports = { setTimeout, setImmediate, setInterval, scheduler };
