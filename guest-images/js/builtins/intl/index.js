'use strict';
// Intl for the guest. The constructors are FormatJS's polyfills (the
// files beside this one, see builtins/README.md), each loaded when Intl
// first gives it out; the CLDR data of a locale is loaded when a
// constructor is first asked for it. getCanonicalLocales and Collator are
// Go's golang.org/x/text, time zone transitions Go's tzdata (intl.go).
//
// Locales: those in locale-data/ (the list is tools/intlvendor's). A
// locale without data resolves as Node's small-icu build resolves it: to
// the default, en-US.

const native = require(' intl-native');

const DEFAULT_LOCALE = 'en-US';

const Intl = {};
Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true });

// getCanonicalLocales is CanonicalizeLocaleList: undefined is none, a
// string (or an Intl.Locale) one, anything else a list of them.
function canonicalizeLocaleList(locales) {
  if (locales === undefined) return [];
  const seen = [];
  let list;
  if (typeof locales === 'string' || (locales !== null && typeof locales === 'object' && isLocale(locales))) {
    list = [locales];
  } else {
    if (locales === null) throw new TypeError('Cannot convert undefined or null to object');
    list = Object(locales);
  }
  const len = Math.min(Math.max(Math.trunc(Number(list.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
  for (let k = 0; k < len; k++) {
    if (!(k in list)) continue;
    const v = list[k];
    if (typeof v !== 'string' && (v === null || typeof v !== 'object')) {
      throw new TypeError('Language ID should be string or object.');
    }
    const tag = native.canonicalize(String(v));
    if (!seen.includes(tag)) seen.push(tag);
  }
  return seen;
}

function isLocale(o) {
  const L = loadedCtors.Locale;
  return L !== undefined && o instanceof L;
}

function defineMethod(o, name, fn, length) {
  Object.defineProperty(fn, 'name', { value: name, configurable: true });
  if (length !== undefined) Object.defineProperty(fn, 'length', { value: length, configurable: true });
  Object.defineProperty(o, name, { value: fn, writable: true, enumerable: false, configurable: true });
}

defineMethod(Intl, 'getCanonicalLocales', function getCanonicalLocales(locales) {
  return canonicalizeLocaleList(locales);
}, 1);

// Locale data, loaded once per (kind, locale).
const loadedData = new Set();
const dataFiles = new Map();
function dataFile(kind, tag) {
  const key = kind + '/' + tag;
  let f = dataFiles.get(key);
  if (f === undefined) dataFiles.set(key, f = native.dataFile(kind, tag));
  return f;
}
function loadData(kind, tag) {
  const key = kind + '/' + tag;
  if (loadedData.has(key)) return;
  loadedData.add(key);
  const f = dataFile(kind, tag);
  if (f.endsWith('.json')) rawCtors[kindCtor[kind]].__addLocaleData(require('./locale-data/' + f));
  else if (f) require('./locale-data/' + f);
}

// ensure loads what a constructor for kind may resolve locales to: each
// requested tag and its parents (de-DE-u-nu-latn: de-DE, de), the
// Traditional Chinese data for zh-TW, zh-HK and zh-MO, and the default's
// when no requested tag has data (it resolves to one that has, else to
// the default: loading the default's data as well cost the first use of
// any other locale a second locale's data, ~0.3 G fuel for
// DateTimeFormat). It returns the locales to pass on: those of a language
// without data are dropped, so they resolve to the default at once (the
// polyfills' best fit matcher weighs every available locale against such
// a tag: ~0.4 s in the guest, for the same answer).
function ensure(kind, locales) {
  let list;
  try {
    list = canonicalizeLocaleList(locales);
  } catch {
    loadData(kind, 'en');
    return locales; // the constructor throws it
  }
  let known = list.filter((tag) => dataFile(kind, tag.split('-')[0]) !== '');
  if (known.length === 0) loadData(kind, 'en');
  if (known.length === list.length) known = locales;
  for (const tag of list) {
    const parts = tag.split(/-[a-wyz0-9]-|-x-/i)[0].split('-');
    for (let n = parts.length; n > 0; n--) loadData(kind, parts.slice(0, n).join('-'));
    if (parts[0] === 'zh' && (parts.includes('Hant') || parts.some((p) => p === 'TW' || p === 'HK' || p === 'MO'))) {
      loadData(kind, 'zh-Hant');
    }
  }
  return known;
}

// The constructors and the polyfill file each comes from; dataKind is
// its locale-data directory (none: it has no locale data).
const ctors = {
  NumberFormat: { file: 'numberformat', dataKind: 'numberformat' },
  DateTimeFormat: { file: 'datetimeformat', dataKind: 'datetimeformat' },
  PluralRules: { file: 'pluralrules', dataKind: 'pluralrules' },
  RelativeTimeFormat: { file: 'relativetimeformat', dataKind: 'relativetimeformat' },
  ListFormat: { file: 'listformat', dataKind: 'listformat' },
  Segmenter: { file: 'segmenter' },
  Locale: { file: 'locale' },
};
const loadedCtors = {};
const rawCtors = {};
const kindCtor = {};
for (const [name, c] of Object.entries(ctors)) if (c.dataKind) kindCtor[c.dataKind] = name;

// The polyfills also set the prototypes' toLocale*String; the guest's own
// (intl.go, below) stay.
const routed = [
  [Number.prototype, 'toLocaleString'],
  [BigInt.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleDateString'],
  [Date.prototype, 'toLocaleTimeString'],
  [String.prototype, 'localeCompare'],
];

function requirePolyfill(file) {
  const saved = routed.map(([o, k]) => Object.getOwnPropertyDescriptor(o, k));
  // The polyfills install themselves on the global Intl: this one, even
  // if the run has replaced the global.
  const g = Object.getOwnPropertyDescriptor(globalThis, 'Intl');
  const swap = !g || g.value !== Intl;
  if (swap) Object.defineProperty(globalThis, 'Intl', { value: Intl, writable: true, configurable: true });
  try {
    require('./' + file + '.js');
  } finally {
    if (swap) {
      if (g) Object.defineProperty(globalThis, 'Intl', g);
      else delete globalThis.Intl;
    }
    routed.forEach(([o, k], i) => Object.defineProperty(o, k, saved[i]));
  }
}

const loading = new Set();
function loadCtor(name) {
  if (loadedCtors[name]) return loadedCtors[name];
  // A polyfill may look for another while it loads (intl-locale's
  // dependencies read Intl.Locale): it sees none yet.
  if (loading.has(name)) return undefined;
  loading.add(name);
  const { file, dataKind } = ctors[name];
  try {
    requirePolyfill(file);
  } finally {
    loading.delete(name);
  }
  const P = Object.getOwnPropertyDescriptor(Intl, name).value;
  rawCtors[name] = P;
  if (typeof P.__defaultLocale === 'string') P.__defaultLocale = DEFAULT_LOCALE;
  if (name === 'DateTimeFormat') {
    P.tzData = zoneTable();
    plainSpaces(P.prototype);
  }
  let W = P;
  if (dataKind) {
    W = wrap(P, name, dataKind);
  }
  loadedCtors[name] = W;
  Object.defineProperty(Intl, name, { value: W, writable: true, enumerable: false, configurable: true });
  return W;
}

// wrap is P, loading locale data before P resolves locales: a function
// that constructs P (or calls it, for those that may be called), with
// P's prototype and statics.
function wrap(P, name, dataKind) {
  const W = function (locales, options) {
    locales = ensure(dataKind, locales);
    if (new.target === undefined) return P(locales, options);
    return Reflect.construct(P, [locales, options], new.target === W ? P : new.target);
  };
  for (const key of Reflect.ownKeys(P)) {
    if (key === 'prototype' || key === 'length' || key === 'name' || key === 'arguments' || key === 'caller') continue;
    const desc = Object.getOwnPropertyDescriptor(P, key);
    if (key === 'supportedLocalesOf') {
      const f = desc.value;
      desc.value = function supportedLocalesOf(locales, options) {
        locales = ensure(dataKind, locales);
        return f.call(P, locales, options);
      };
    }
    Object.defineProperty(W, key, desc);
  }
  Object.defineProperty(W, 'name', { value: name, configurable: true });
  Object.defineProperty(W, 'length', { value: 0, configurable: true });
  Object.defineProperty(W, 'prototype', { value: P.prototype, writable: false });
  Object.defineProperty(P.prototype, 'constructor', { value: W, writable: true, configurable: true });
  // Locale data calls Intl.X.__addLocaleData: it must reach P.
  return W;
}

// plainSpaces makes DateTimeFormat's format write a plain space where
// CLDR has a narrow no-break one ("2:05 PM", "2024 г."), as V8 does for
// code that compares or parses formatted dates; formatToParts and
// formatRange keep CLDR's, as V8's do.
function plainSpaces(proto) {
  const get = Object.getOwnPropertyDescriptor(proto, 'format').get;
  const bound = new WeakMap();
  Object.defineProperty(proto, 'format', {
    configurable: true,
    enumerable: false,
    get: Object.defineProperty(function () {
      const f = get.call(this);
      let g = bound.get(f);
      if (g === undefined) {
        g = (date) => f(date).replace(/\u202f/g, ' ');
        Object.defineProperty(g, 'name', { value: '' });
        bound.set(f, g);
      }
      return g;
    }, 'name', { value: 'get format' }),
  });
}

// zoneTable is the DateTimeFormat polyfill's tzData, each zone's
// transitions computed (by Go) when the zone is first used.
function zoneTable() {
  const table = {};
  for (const name of native.zoneNames()) {
    Object.defineProperty(table, name, {
      enumerable: true,
      configurable: true,
      get() {
        const v = native.zone(name);
        Object.defineProperty(table, name, { value: v, writable: true, enumerable: true, configurable: true });
        return v;
      },
    });
  }
  return table;
}

for (const name of Object.keys(ctors)) {
  Object.defineProperty(Intl, name, {
    enumerable: false,
    configurable: true,
    get() { return loadCtor(name); },
    set(v) { Object.defineProperty(Intl, name, { value: v, writable: true, enumerable: false, configurable: true }); },
  });
}

// supportedValuesOf: the polyfill's for calendars, collations and
// numbering systems (it tries each with a constructor); currencies, time
// zones and units are lists (trying each currency took seconds).
const SANCTIONED_UNITS = ['acre', 'bit', 'byte', 'celsius', 'centimeter', 'day', 'degree', 'fahrenheit', 'fluid-ounce',
  'foot', 'gallon', 'gigabit', 'gigabyte', 'gram', 'hectare', 'hour', 'inch', 'kilobit', 'kilobyte', 'kilogram',
  'kilometer', 'liter', 'megabit', 'megabyte', 'meter', 'microsecond', 'mile', 'mile-scandinavian', 'milliliter',
  'millimeter', 'millisecond', 'minute', 'month', 'nanosecond', 'ounce', 'percent', 'petabyte', 'pound', 'second',
  'stone', 'terabit', 'terabyte', 'week', 'yard', 'year'];
Object.defineProperty(Intl, 'supportedValuesOf', {
  enumerable: false,
  configurable: true,
  get() {
    requirePolyfill('supportedvaluesof');
    const probe = Object.getOwnPropertyDescriptor(Intl, 'supportedValuesOf').value;
    defineMethod(Intl, 'supportedValuesOf', function supportedValuesOf(key) {
      switch (typeof key === 'symbol' ? key : String(key)) {
        case 'currency': {
          const NF = loadCtor('NumberFormat');
          ensure('numberformat', 'en');
          return Object.keys(NF.localeData.en.currencies).filter((c) => /^[A-Z]{3}$/.test(c)).sort();
        }
        case 'timeZone':
          return native.zoneNames().filter((z) => !z.startsWith('Etc/') && z !== 'UTC' && z !== 'GMT').sort();
        case 'unit':
          return SANCTIONED_UNITS.slice();
      }
      return probe(key);
    }, 1);
    return Intl.supportedValuesOf;
  },
  set(v) { Object.defineProperty(Intl, 'supportedValuesOf', { value: v, writable: true, enumerable: false, configurable: true }); },
});

// Collator: ECMA-402's options over golang.org/x/text/collate.
const collatorSlots = new WeakMap();
function getOption(options, name, allowed, fallback) {
  let v = options[name];
  if (v === undefined) return fallback;
  if (typeof fallback === 'boolean') return Boolean(v);
  v = String(v);
  if (allowed && !allowed.includes(v)) throw new RangeError(`Value ${v} out of range for Intl.Collator options property ${name}`);
  return v;
}
function resolveLocale(requested) {
  for (const tag of requested) {
    const base = tag.split(/-[a-wyz0-9]-|-x-/i)[0];
    const parts = base.split('-');
    for (let n = parts.length; n > 0; n--) {
      const t = parts.slice(0, n).join('-');
      if (dataFile('numberformat', t) !== '') return { locale: base, ext: tag.slice(base.length) };
    }
  }
  return { locale: DEFAULT_LOCALE, ext: '' };
}
function unicodeKeyword(ext, key) {
  const m = new RegExp('-u(?:-[a-z0-9]{2,8})*?-' + key + '(?:-([a-z0-9]{3,8}))?(?=-|$)', 'i').exec(ext);
  return m ? (m[1] || 'true').toLowerCase() : undefined;
}
function Collator(locales, options) {
  if (new.target === undefined) return new Collator(locales, options);
  const requested = canonicalizeLocaleList(locales);
  options = options === undefined ? Object.create(null) : Object(options);
  const usage = getOption(options, 'usage', ['sort', 'search'], 'sort');
  getOption(options, 'localeMatcher', ['lookup', 'best fit'], 'best fit');
  let collation = getOption(options, 'collation', null, undefined);
  let numeric = options.numeric === undefined ? undefined : Boolean(options.numeric);
  let caseFirst = getOption(options, 'caseFirst', ['upper', 'lower', 'false'], undefined);
  const { locale, ext } = resolveLocale(requested);
  const kn = unicodeKeyword(ext, 'kn');
  const kf = unicodeKeyword(ext, 'kf');
  let resolvedLocale = locale;
  const keys = [];
  if (numeric === undefined && kn !== undefined) {
    numeric = kn !== 'false';
    keys.push('kn' + (numeric ? '' : '-false'));
  }
  if (caseFirst === undefined && kf !== undefined && ['upper', 'lower', 'false'].includes(kf)) {
    caseFirst = kf;
    keys.push('kf-' + kf);
  }
  if (keys.length) resolvedLocale += '-u-' + keys.join('-');
  let sensitivity = getOption(options, 'sensitivity', ['base', 'accent', 'case', 'variant'], undefined);
  if (sensitivity === undefined) sensitivity = 'variant';
  const ignorePunctuation = getOption(options, 'ignorePunctuation', null, false);
  collation = 'default';
  const slots = {
    locale: resolvedLocale,
    usage,
    sensitivity,
    ignorePunctuation,
    collation,
    numeric: Boolean(numeric),
    caseFirst: caseFirst || 'false',
    compare: native.collator(locale, sensitivity, Boolean(numeric), ignorePunctuation),
    bound: undefined,
  };
  collatorSlots.set(this, slots);
}
function collatorSlotsOf(c, method) {
  const s = collatorSlots.get(c);
  if (!s) throw new TypeError(`Method Intl.Collator.prototype.${method} called on incompatible receiver ${String(c)}`);
  return s;
}
Object.defineProperty(Collator.prototype, 'compare', {
  configurable: true,
  get() {
    const s = collatorSlotsOf(this, 'compare');
    if (!s.bound) {
      const f = (x, y) => s.compare(String(x), String(y));
      Object.defineProperty(f, 'name', { value: '' });
      s.bound = f;
    }
    return s.bound;
  },
});
defineMethod(Collator.prototype, 'resolvedOptions', function resolvedOptions() {
  const s = collatorSlotsOf(this, 'resolvedOptions');
  return {
    locale: s.locale,
    usage: s.usage,
    sensitivity: s.sensitivity,
    ignorePunctuation: s.ignorePunctuation,
    collation: s.collation,
    numeric: s.numeric,
    caseFirst: s.caseFirst,
  };
});
Object.defineProperty(Collator.prototype, Symbol.toStringTag, { value: 'Intl.Collator', configurable: true });
defineMethod(Collator, 'supportedLocalesOf', function supportedLocalesOf(locales) {
  return canonicalizeLocaleList(locales).filter((t) => resolveLocale([t]).locale !== DEFAULT_LOCALE || t.startsWith('en'));
}, 1);
Object.defineProperty(Collator, 'length', { value: 0 });
Object.defineProperty(Intl, 'Collator', { value: Collator, writable: true, enumerable: false, configurable: true });

// The built-ins' locale methods (intl.go routes them here). A formatter
// for a plain (locales, no options) call is kept: code formats in loops.
const formatters = new Map();
function cached(kind, locales, options, make) {
  if (options !== undefined || (locales !== undefined && typeof locales !== 'string')) return make();
  const key = kind + '\u0000' + (locales === undefined ? '' : locales);
  let f = formatters.get(key);
  if (f === undefined) {
    f = make();
    if (formatters.size < 256) formatters.set(key, f);
  }
  return f;
}

const numberValueOf = Number.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const dateGetTime = Date.prototype.getTime;

function numberToLocaleString(locales, options) {
  const x = typeof this === 'bigint' || (this !== null && typeof this === 'object' && bigintLike(this))
    ? bigintValueOf.call(this)
    : numberValueOf.call(this);
  return cached('n', locales, options, () => new (loadCtor('NumberFormat'))(locales, options)).format(x);
}
function bigintLike(o) {
  try {
    bigintValueOf.call(o);
    return true;
  } catch {
    return false;
  }
}

// ToDateTimeOptions (ECMA-402, 2022 edition, which Date's methods use).
function toDateTimeOptions(options, required, defaults) {
  options = Object.create(options === undefined ? null : Object(options));
  let needDefaults = true;
  if (required === 'date' || required === 'any') {
    for (const p of ['weekday', 'year', 'month', 'day']) if (options[p] !== undefined) needDefaults = false;
  }
  if (required === 'time' || required === 'any') {
    for (const p of ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits']) if (options[p] !== undefined) needDefaults = false;
  }
  const dateStyle = options.dateStyle;
  const timeStyle = options.timeStyle;
  if (dateStyle !== undefined || timeStyle !== undefined) needDefaults = false;
  if (required === 'date' && timeStyle !== undefined) throw new TypeError('Invalid option : timeStyle');
  if (required === 'time' && dateStyle !== undefined) throw new TypeError('Invalid option : dateStyle');
  if (needDefaults && (defaults === 'date' || defaults === 'all')) {
    for (const p of ['year', 'month', 'day']) options[p] = 'numeric';
  }
  if (needDefaults && (defaults === 'time' || defaults === 'all')) {
    for (const p of ['hour', 'minute', 'second']) options[p] = 'numeric';
  }
  return options;
}

function dateMethod(kind, required, defaults) {
  return function (locales, options) {
    const t = dateGetTime.call(this);
    if (Number.isNaN(t)) return 'Invalid Date';
    const f = cached(kind, locales, options, () => new (loadCtor('DateTimeFormat'))(locales, toDateTimeOptions(options, required, defaults)));
    return f.format(t);
  };
}

function stringLocaleCompare(that, locales, options) {
  if (this === undefined || this === null) throw new TypeError('String.prototype.localeCompare called on null or undefined');
  return cached('c', locales, options, () => new Collator(locales, options)).compare(String(this), String(that));
}

module.exports = {
  Intl,
  numberToLocaleString,
  dateToLocaleString: dateMethod('d', 'any', 'all'),
  dateToLocaleDateString: dateMethod('dd', 'date', 'date'),
  dateToLocaleTimeString: dateMethod('dt', 'time', 'time'),
  stringLocaleCompare,
};
