// wasmexec: Event, CustomEvent and EventTarget (the DOM standard's, as
// Node has them: no tree, so an event is dispatched at its target only).
// Hand-written, part of wasmexec.
'use strict';
const native = require(' native');
const { DOMException } = require('./domexception');

const NONE = 0, CAPTURING_PHASE = 1, AT_TARGET = 2, BUBBLING_PHASE = 3;

// Internal state of an event, read by EventTarget.
let state;

class Event {
  #type; #bubbles; #cancelable; #composed;
  #canceled = false; #stop = false; #stopNow = false; #dispatching = false;
  #passive = false; #target = null; #current = null; #phase = NONE;
  #timeStamp = native.now();
  static {
    state = {
      begin(e, target) {
        if (e.#dispatching) throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
        e.#dispatching = true; e.#target = target; e.#current = target; e.#phase = AT_TARGET;
      },
      end(e) { e.#dispatching = false; e.#current = null; e.#phase = NONE; e.#passive = false; },
      passive(e, p) { e.#passive = p; },
      stoppedNow(e) { return e.#stopNow; },
    };
  }
  constructor(type, options) {
    if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
    this.#type = String(type);
    const o = options == null ? {} : options;
    this.#bubbles = !!o.bubbles;
    this.#cancelable = !!o.cancelable;
    this.#composed = !!o.composed;
  }
  get type() { return this.#type; }
  get bubbles() { return this.#bubbles; }
  get cancelable() { return this.#cancelable; }
  get composed() { return this.#composed; }
  get defaultPrevented() { return this.#cancelable && this.#canceled; }
  get returnValue() { return !this.defaultPrevented; }
  set returnValue(v) { if (!v) this.preventDefault(); }
  get timeStamp() { return this.#timeStamp; }
  get isTrusted() { return false; }
  get target() { return this.#target; }
  get currentTarget() { return this.#current; }
  get srcElement() { return this.#target; }
  get eventPhase() { return this.#phase; }
  get cancelBubble() { return this.#stop; }
  set cancelBubble(v) { if (v) this.#stop = true; }
  composedPath() { return this.#dispatching ? [this.#current] : []; }
  preventDefault() { if (this.#cancelable && !this.#passive) this.#canceled = true; }
  stopPropagation() { this.#stop = true; }
  stopImmediatePropagation() { this.#stop = true; this.#stopNow = true; }
}
for (const [k, v] of Object.entries({ NONE, CAPTURING_PHASE, AT_TARGET, BUBBLING_PHASE })) {
  Object.defineProperty(Event, k, { value: v, enumerable: true });
  Object.defineProperty(Event.prototype, k, { value: v, enumerable: true });
}
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

class CustomEvent extends Event {
  #detail;
  constructor(type, options) {
    if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
    super(type, options);
    this.#detail = options != null && options.detail !== undefined ? options.detail : null;
  }
  get detail() { return this.#detail; }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

function flatten(options) {
  if (typeof options === 'boolean') return { capture: options, once: false, passive: false, signal: undefined };
  if (options == null || typeof options !== 'object') return { capture: false, once: false, passive: false, signal: undefined };
  return { capture: !!options.capture, once: !!options.once, passive: !!options.passive, signal: options.signal };
}

class EventTarget {
  // type -> listener records { callback, capture, once, passive, removed }
  #listeners = new Map();
  addEventListener(type, callback, options) {
    if (arguments.length < 2) throw new TypeError('The "type" and "listener" arguments must be specified');
    const { capture, once, passive, signal } = flatten(options);
    if (callback == null) return;
    if (typeof callback !== 'function' && typeof callback !== 'object') {
      throw new TypeError('The "listener" argument must be a function or an object with a handleEvent method');
    }
    if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
      throw new TypeError('The "options.signal" property must be an instance of AbortSignal');
    }
    if (signal && signal.aborted) return;
    type = String(type);
    let list = this.#listeners.get(type);
    if (!list) this.#listeners.set(type, list = []);
    if (list.some(l => l.callback === callback && l.capture === capture)) return;
    list.push({ callback, capture, once, passive, removed: false });
    if (signal) {
      signal.addEventListener('abort', () => this.removeEventListener(type, callback, { capture }), { once: true });
    }
  }
  removeEventListener(type, callback, options) {
    const { capture } = flatten(options);
    type = String(type);
    const list = this.#listeners.get(type);
    if (!list) return;
    const i = list.findIndex(l => l.callback === callback && l.capture === capture);
    if (i < 0) return;
    list[i].removed = true;
    list.splice(i, 1);
    if (list.length === 0) this.#listeners.delete(type);
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw new TypeError('The "event" argument must be an instance of Event. Received ' + typeof event);
    state.begin(event, this);
    try {
      const list = this.#listeners.get(event.type);
      if (list) {
        for (const l of list.slice()) {
          if (l.removed) continue;
          if (l.once) this.removeEventListener(event.type, l.callback, { capture: l.capture });
          state.passive(event, l.passive);
          try {
            if (typeof l.callback === 'function') l.callback.call(this, event);
            else if (typeof l.callback.handleEvent === 'function') l.callback.handleEvent(event);
          } catch (err) {
            native.reportError(err);
          }
          state.passive(event, false);
          if (state.stoppedNow(event)) break;
        }
      }
    } finally {
      state.end(event);
    }
    return !event.defaultPrevented;
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

// defineEventHandler adds the on<type> attribute to a class's prototype:
// a listener that the attribute replaces when set again.
function defineEventHandler(proto, type) {
  const key = Symbol('on' + type);
  Object.defineProperty(proto, 'on' + type, {
    configurable: true,
    enumerable: true,
    get() { const h = this[key]; return h ? h.fn : null; },
    set(fn) {
      const h = this[key];
      if (h) { this.removeEventListener(type, h.wrapper); this[key] = undefined; }
      if (typeof fn === 'function' || (fn !== null && typeof fn === 'object')) {
        const rec = { fn, wrapper: (e) => (typeof rec.fn === 'function' ? rec.fn.call(this, e) : undefined) };
        Object.defineProperty(this, key, { value: rec, writable: true, configurable: true });
        this.addEventListener(type, rec.wrapper);
      }
    },
  });
}

module.exports = { Event, CustomEvent, EventTarget, defineEventHandler };
