var import_intl_localematcher = require("@formatjs/intl-localematcher");
var _a;
const { memoize, isPrimitive, monadic, variadic, assemble, strategyDefault, strategyVariadic, strategyMonadic, serializerDefault, ObjectWithoutPrototypeCache, cacheDefault, strategies, defineProperty, ensureIntl } = require("@formatjs/ecma402-shared/all");
const { SupportedLocales } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf");
const { ToString, GetOption, ToObject } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
const { PartitionPattern } = require("@formatjs/ecma402-shared/dtf-rtf-lf");
const { GetOptionsObject, setInternalSlot, getInternalSlot, getMultiInternalSlots } = require("@formatjs/ecma402-shared/lf-seg");
const { defaultContent, registerLocaleData } = require("@formatjs/ecma402-shared/nf-dtf-pr-lf");
const { explicitLocales } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf");
const { invariant } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-loc");
const { CanonicalizeLocaleList } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-seg");
function isLiteralPart(patternPart) {
  return patternPart.type === "literal";
}
memoize((...args) => new Intl.NumberFormat(...args), { strategy: strategies.variadic });
memoize((...args) => new Intl.PluralRules(...args), { strategy: strategies.variadic });
memoize((...args) => new Intl.ListFormat(...args), { strategy: strategies.variadic });
function validateInstance(instance, method) {
  if (!(instance instanceof ListFormat)) throw new TypeError(`Method Intl.ListFormat.prototype.${method} called on incompatible receiver ${String(instance)}`);
}
function stringListFromIterable(iterable) {
  if (iterable === void 0) return [];
  const elements = [];
  for (const value of iterable) {
    if (typeof value !== "string") throw new TypeError("Iterable yielded a non-string value");
    elements.push(value);
  }
  return elements;
}
function createPartsFromList(internalSlotMap, lf, list) {
  const size = list.length;
  if (size === 0) return [];
  if (size === 2) return deconstructPattern(getInternalSlot(internalSlotMap, lf, "templatePair"), {
    "0": {
      type: "element",
      value: list[0]
    },
    "1": {
      type: "element",
      value: list[1]
    }
  });
  let parts = {
    type: "element",
    value: list[size - 1]
  };
  let i = size - 2;
  while (i >= 0) {
    let pattern;
    if (i === 0) pattern = getInternalSlot(internalSlotMap, lf, "templateStart");
    else if (i < size - 2) pattern = getInternalSlot(internalSlotMap, lf, "templateMiddle");
    else pattern = getInternalSlot(internalSlotMap, lf, "templateEnd");
    const head = {
      type: "element",
      value: list[i]
    };
    parts = deconstructPattern(pattern, {
      "0": head,
      "1": parts
    });
    i--;
  }
  return parts;
}
function deconstructPattern(pattern, placeables) {
  const patternParts = PartitionPattern(pattern);
  const result = [];
  for (const patternPart of patternParts) {
    const { type: part } = patternPart;
    if (isLiteralPart(patternPart)) result.push({
      type: "literal",
      value: patternPart.value
    });
    else {
      invariant(part in placeables, `${part} is missing from placables`);
      const subst = placeables[part];
      if (Array.isArray(subst)) result.push(...subst);
      else result.push(subst);
    }
  }
  return result;
}
var ListFormat = (_a = class {
  constructor(locales, options) {
    if (!(this && this instanceof _a ? this.constructor : void 0)) throw new TypeError("Intl.ListFormat must be called with 'new'");
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "initializedListFormat", true);
    const requestedLocales = CanonicalizeLocaleList(locales);
    const opt = /* @__PURE__ */ Object.create(null);
    const opts = GetOptionsObject(options);
    opt.localeMatcher = GetOption(opts, "localeMatcher", "string", ["best fit", "lookup"], "best fit");
    const { localeData } = _a;
    const r = (0, import_intl_localematcher.ResolveLocale)(_a.availableLocales, requestedLocales, opt, _a.relevantExtensionKeys, localeData, _a.getDefaultLocale);
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "locale", r.locale);
    const type = GetOption(opts, "type", "string", [
      "conjunction",
      "disjunction",
      "unit"
    ], "conjunction");
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "type", type);
    const style = GetOption(opts, "style", "string", [
      "long",
      "short",
      "narrow"
    ], "long");
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "style", style);
    const { dataLocale } = r;
    const dataLocaleData = localeData[dataLocale];
    invariant(!!dataLocaleData, `Missing locale data for ${dataLocale}`);
    const templates = dataLocaleData[type][style];
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "templatePair", templates.pair);
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "templateStart", templates.start);
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "templateMiddle", templates.middle);
    setInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "templateEnd", templates.end);
  }
  format(elements) {
    validateInstance(this, "format");
    let result = "";
    const parts = createPartsFromList(_a.__INTERNAL_SLOT_MAP__, this, stringListFromIterable(elements));
    if (!Array.isArray(parts)) return parts.value;
    for (const p of parts) result += p.value;
    return result;
  }
  formatToParts(elements) {
    validateInstance(this, "format");
    const parts = createPartsFromList(_a.__INTERNAL_SLOT_MAP__, this, stringListFromIterable(elements));
    if (!Array.isArray(parts)) return [parts];
    const result = [];
    for (const part of parts) result.push({ ...part });
    return result;
  }
  resolvedOptions() {
    validateInstance(this, "resolvedOptions");
    return {
      locale: getInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "locale"),
      type: getInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "type"),
      style: getInternalSlot(_a.__INTERNAL_SLOT_MAP__, this, "style")
    };
  }
  static supportedLocalesOf(locales, options) {
    return SupportedLocales(_a.availableLocales, CanonicalizeLocaleList(locales), options);
  }
  static __addLocaleData(...data) {
    for (const { data: d, locale } of data) {
      registerLocaleData(locale, d, _a.localeData, _a.availableLocales);
      if (!_a.__defaultLocale) _a.__defaultLocale = locale;
    }
  }
  static getDefaultLocale() {
    return _a.__defaultLocale;
  }
}, _a.localeData = {}, _a.availableLocales = /* @__PURE__ */ new Set(), _a.__defaultLocale = "", _a.relevantExtensionKeys = [], _a.polyfilled = true, _a.__INTERNAL_SLOT_MAP__ = /* @__PURE__ */ new WeakMap(), _a);
try {
  if (typeof Symbol !== "undefined") Object.defineProperty(ListFormat.prototype, Symbol.toStringTag, {
    value: "Intl.ListFormat",
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(ListFormat.prototype.constructor, "length", {
    value: 0,
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(ListFormat.supportedLocalesOf, "length", {
    value: 1,
    writable: false,
    enumerable: false,
    configurable: true
  });
} catch {
}
defineProperty(ensureIntl(), "ListFormat", { value: ListFormat });
const buf = globalThis.__FORMATJS_LISTFORMAT_DATA__;
if (buf) {
  for (const d of buf) ListFormat.__addLocaleData(d);
  delete globalThis.__FORMATJS_LISTFORMAT_DATA__;
}
