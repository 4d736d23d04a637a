// wasmexec: performance (High Resolution Time and User Timing): now() is
// milliseconds since the guest started (timeOrigin), mark and measure keep
// their entries until cleared. Hand-written, part of wasmexec.
'use strict';
const native = require(' native');
const { DOMException } = require('./domexception');

class PerformanceEntry {
  #name; #type; #start; #duration; #detail;
  constructor(name, type, start, duration, detail) {
    this.#name = name; this.#type = type; this.#start = start; this.#duration = duration; this.#detail = detail;
  }
  get name() { return this.#name; }
  get entryType() { return this.#type; }
  get startTime() { return this.#start; }
  get duration() { return this.#duration; }
  get detail() { return this.#detail; }
  toJSON() { return { name: this.#name, entryType: this.#type, startTime: this.#start, duration: this.#duration, detail: this.#detail }; }
}
class PerformanceMark extends PerformanceEntry {}
class PerformanceMeasure extends PerformanceEntry {}

const entries = [];

function copyDetail(d) {
  return d === undefined ? null : globalThis.structuredClone(d);
}

function markTime(name) {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === 'mark' && entries[i].name === name) return entries[i].startTime;
  }
  throw new DOMException(`The "${name}" performance mark has not been set`, 'SyntaxError');
}

function timeOf(v) {
  if (v === undefined) return undefined;
  if (typeof v === 'number') {
    if (v < 0) throw new TypeError('Timestamp cannot be negative');
    return v;
  }
  return markTime(String(v));
}

const performance = {
  get timeOrigin() { return native.timeOrigin(); },
  now() { return native.now(); },
  mark(name, options) {
    if (arguments.length === 0) throw new TypeError('The "name" argument must be specified');
    const start = options != null && options.startTime !== undefined ? timeOf(Number(options.startTime)) : native.now();
    const m = new PerformanceMark(String(name), 'mark', start, 0, copyDetail(options == null ? undefined : options.detail));
    entries.push(m);
    return m;
  },
  measure(name, startOrOptions, endMark) {
    if (arguments.length === 0) throw new TypeError('The "name" argument must be specified');
    let start, end, detail, duration;
    if (startOrOptions !== null && typeof startOrOptions === 'object') {
      start = timeOf(startOrOptions.start);
      end = timeOf(startOrOptions.end);
      duration = startOrOptions.duration;
      detail = startOrOptions.detail;
      if (duration !== undefined) {
        if (end === undefined) end = (start === undefined ? 0 : start) + Number(duration);
        else if (start === undefined) start = end - Number(duration);
      }
    } else {
      start = timeOf(startOrOptions);
      end = timeOf(endMark);
    }
    if (end === undefined) end = native.now();
    if (start === undefined) start = 0;
    const m = new PerformanceMeasure(String(name), 'measure', start, end - start, copyDetail(detail));
    entries.push(m);
    return m;
  },
  getEntries() { return entries.slice(); },
  getEntriesByName(name, type) {
    return entries.filter(e => e.name === String(name) && (type === undefined || e.entryType === type));
  },
  getEntriesByType(type) { return entries.filter(e => e.entryType === String(type)); },
  clearMarks(name) { clear('mark', name); },
  clearMeasures(name) { clear('measure', name); },
  toJSON() { return { timeOrigin: native.timeOrigin() }; },
};
Object.defineProperty(performance, Symbol.toStringTag, { value: 'Performance', configurable: true });

function clear(type, name) {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === type && (name === undefined || entries[i].name === String(name))) entries.splice(i, 1);
  }
}

module.exports = { performance, PerformanceEntry, PerformanceMark, PerformanceMeasure };
