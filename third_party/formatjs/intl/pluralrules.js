var import_intl_localematcher = require("@formatjs/intl-localematcher");
var import_bigdecimal = require("@formatjs/bigdecimal");
var _a;
const { memoize, isPrimitive, monadic, variadic, assemble, strategyDefault, strategyVariadic, strategyMonadic, serializerDefault, ObjectWithoutPrototypeCache, cacheDefault, strategies, defineProperty, ensureIntl } = require("@formatjs/ecma402-shared/all");
const { DefaultNumberOption, GetNumberOption } = require("@formatjs/ecma402-shared/dtf-pr");
const { SupportedLocales } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf");
const { ToObject, ToString, GetOption } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
const { CoerceOptionsToObject, internalSlotMap } = require("@formatjs/ecma402-shared/dtf-pr-rtf-loc");
const { IsCallable, ZERO } = require("@formatjs/ecma402-shared/nf-dtf-pr");
const { defaultContent, registerLocaleData } = require("@formatjs/ecma402-shared/nf-dtf-pr-lf");
const { explicitLocales } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf");
const { invariant: invariant$1, invariant } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-loc");
const { CanonicalizeLocaleList } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-seg");
const { repeat, NEGATIVE_ZERO, negativeMapping, positiveMapping, GetUnsignedRoundingMode, ApplyUnsignedRoundingMode, getPowerOf10, ToRawFixedFn, findN1R1, findN2R2, ToRawFixed, findN1E1R1, findN2E2R2, ToRawPrecision, FormatNumericToString } = require("@formatjs/ecma402-shared/nf-pr");
const { Type, getInternalSlots } = require("@formatjs/ecma402-shared/pr-rtf");
function OrdinaryToPrimitive(O, hint) {
  let methodNames;
  if (hint === "string") methodNames = ["toString", "valueOf"];
  else methodNames = ["valueOf", "toString"];
  for (const name of methodNames) {
    const method = O[name];
    if (IsCallable(method)) {
      let result = method.call(O);
      if (typeof result !== "object") return result;
    }
  }
  throw new TypeError("Cannot convert object to primitive value");
}
function ToPrimitive(input, preferredType) {
  if (typeof input === "object" && input != null) {
    const exoticToPrim = Symbol.toPrimitive in input ? input[Symbol.toPrimitive] : void 0;
    let hint;
    if (exoticToPrim !== void 0) {
      if (preferredType === void 0) hint = "default";
      else if (preferredType === "string") hint = "string";
      else {
        invariant$1(preferredType === "number", 'preferredType must be "string" or "number"');
        hint = "number";
      }
      let result = exoticToPrim.call(input, hint);
      if (typeof result !== "object") return result;
      throw new TypeError("Cannot convert exotic object to primitive.");
    }
    if (preferredType === void 0) preferredType = "number";
    return OrdinaryToPrimitive(input, preferredType);
  }
  return input;
}
function ToIntlMathematicalValue(input) {
  if (typeof input === "bigint") return new import_bigdecimal.Decimal(input.toString());
  let primValue = ToPrimitive(input, "number");
  if (typeof primValue === "symbol") throw new TypeError("Cannot convert a Symbol value to a number");
  if (primValue === void 0) return new import_bigdecimal.Decimal(NaN);
  if (primValue === true) return new import_bigdecimal.Decimal(1);
  if (primValue === false) return new import_bigdecimal.Decimal(0);
  if (primValue === null) return new import_bigdecimal.Decimal(0);
  try {
    return new import_bigdecimal.Decimal(primValue);
  } catch {
    return new import_bigdecimal.Decimal(NaN);
  }
}
memoize((...args) => new Intl.NumberFormat(...args), { strategy: strategies.variadic });
memoize((...args) => new Intl.PluralRules(...args), { strategy: strategies.variadic });
memoize((...args) => new Intl.ListFormat(...args), { strategy: strategies.variadic });
const VALID_ROUNDING_INCREMENTS = /* @__PURE__ */ new Set([
  1,
  2,
  5,
  10,
  20,
  25,
  50,
  100,
  200,
  250,
  500,
  1e3,
  2e3,
  2500,
  5e3
]);
function SetNumberFormatDigitOptions(internalSlots, opts, mnfdDefault, mxfdDefault, notation) {
  const mnid = GetNumberOption(opts, "minimumIntegerDigits", 1, 21, 1);
  let mnfd = opts.minimumFractionDigits;
  let mxfd = opts.maximumFractionDigits;
  let mnsd = opts.minimumSignificantDigits;
  let mxsd = opts.maximumSignificantDigits;
  internalSlots.minimumIntegerDigits = mnid;
  const roundingIncrement = GetNumberOption(opts, "roundingIncrement", 1, 5e3, 1);
  invariant(VALID_ROUNDING_INCREMENTS.has(roundingIncrement), `Invalid rounding increment value: ${roundingIncrement}.
Valid values are ${Array.from(VALID_ROUNDING_INCREMENTS).join(", ")}.`, RangeError);
  const roundingMode = GetOption(opts, "roundingMode", "string", [
    "ceil",
    "floor",
    "expand",
    "trunc",
    "halfCeil",
    "halfFloor",
    "halfExpand",
    "halfTrunc",
    "halfEven"
  ], "halfExpand");
  const roundingPriority = GetOption(opts, "roundingPriority", "string", [
    "auto",
    "morePrecision",
    "lessPrecision"
  ], "auto");
  const trailingZeroDisplay = GetOption(opts, "trailingZeroDisplay", "string", ["auto", "stripIfInteger"], "auto");
  if (roundingIncrement !== 1) mxfdDefault = mnfdDefault;
  internalSlots.roundingIncrement = roundingIncrement;
  internalSlots.roundingMode = roundingMode;
  internalSlots.trailingZeroDisplay = trailingZeroDisplay;
  const hasSd = mnsd !== void 0 || mxsd !== void 0;
  const hasFd = mnfd !== void 0 || mxfd !== void 0;
  let needSd = true;
  let needFd = true;
  if (roundingPriority === "auto") {
    needSd = hasSd;
    if (hasSd || !hasFd && notation === "compact") needFd = false;
  }
  if (needSd) {
    if (hasSd) {
      internalSlots.minimumSignificantDigits = DefaultNumberOption(mnsd, 1, 21, 1);
      internalSlots.maximumSignificantDigits = DefaultNumberOption(mxsd, internalSlots.minimumSignificantDigits, 21, 21);
    } else {
      internalSlots.minimumSignificantDigits = 1;
      internalSlots.maximumSignificantDigits = 21;
    }
  }
  if (needFd) {
    if (hasFd) {
      mnfd = DefaultNumberOption(mnfd, 0, 100, void 0);
      mxfd = DefaultNumberOption(mxfd, 0, 100, void 0);
      if (mnfd === void 0) {
        invariant(mxfd !== void 0, "maximumFractionDigits must be defined");
        mnfd = Math.min(mnfdDefault, mxfd);
      } else if (mxfd === void 0) mxfd = Math.max(mxfdDefault, mnfd);
      else if (mnfd > mxfd) throw new RangeError(`Invalid range, ${mnfd} > ${mxfd}`);
      internalSlots.minimumFractionDigits = mnfd;
      internalSlots.maximumFractionDigits = mxfd;
    } else {
      internalSlots.minimumFractionDigits = mnfdDefault;
      internalSlots.maximumFractionDigits = mxfdDefault;
    }
  }
  if (!needSd && !needFd) {
    internalSlots.minimumFractionDigits = 0;
    internalSlots.maximumFractionDigits = 0;
    internalSlots.minimumSignificantDigits = 1;
    internalSlots.maximumSignificantDigits = 2;
    internalSlots.roundingType = "morePrecision";
    internalSlots.roundingPriority = "morePrecision";
  } else if (roundingPriority === "morePrecision") {
    internalSlots.roundingType = "morePrecision";
    internalSlots.roundingPriority = "morePrecision";
  } else if (roundingPriority === "lessPrecision") {
    internalSlots.roundingType = "lessPrecision";
    internalSlots.roundingPriority = "lessPrecision";
  } else if (hasSd) {
    internalSlots.roundingType = "significantDigits";
    internalSlots.roundingPriority = "auto";
  } else {
    internalSlots.roundingType = "fractionDigits";
    internalSlots.roundingPriority = "auto";
  }
  if (roundingIncrement !== 1) {
    invariant(internalSlots.roundingType === "fractionDigits", "Invalid roundingType", TypeError);
    invariant(internalSlots.maximumFractionDigits === internalSlots.minimumFractionDigits, "With roundingIncrement > 1, maximumFractionDigits and minimumFractionDigits must be equal.", RangeError);
  }
}
function InitializePluralRules(pl, locales, options, { availableLocales, relevantExtensionKeys, localeData, getDefaultLocale, getInternalSlots: getInternalSlots2 }) {
  const requestedLocales = CanonicalizeLocaleList(locales);
  const opt = /* @__PURE__ */ Object.create(null);
  const opts = CoerceOptionsToObject(options);
  const internalSlots = getInternalSlots2(pl);
  internalSlots.initializedPluralRules = true;
  opt.localeMatcher = GetOption(opts, "localeMatcher", "string", ["best fit", "lookup"], "best fit");
  const r = (0, import_intl_localematcher.ResolveLocale)(availableLocales, requestedLocales, opt, relevantExtensionKeys, localeData, getDefaultLocale);
  internalSlots.locale = r.locale;
  internalSlots.type = GetOption(opts, "type", "string", ["cardinal", "ordinal"], "cardinal");
  const notation = GetOption(opts, "notation", "string", [
    "standard",
    "scientific",
    "engineering",
    "compact"
  ], "standard");
  internalSlots.notation = notation;
  const compactDisplay = GetOption(opts, "compactDisplay", "string", ["short", "long"], "short");
  if (notation === "compact") {
    internalSlots.compactDisplay = compactDisplay;
    internalSlots.compactExponents = localeData[r.dataLocale]?.compactExponents;
  }
  SetNumberFormatDigitOptions(internalSlots, opts, 0, 3, notation);
  return pl;
}
function ResolvePluralInternal(pl, n, { getInternalSlots: getInternalSlots2, PluralRuleSelect: PluralRuleSelect2 }) {
  const internalSlots = getInternalSlots2(pl);
  invariant(Type(internalSlots) === "Object", "pl has to be an object");
  invariant("initializedPluralRules" in internalSlots, "pluralrules must be initialized");
  if (!n.isFinite()) return {
    formattedString: String(n),
    pluralCategory: "other"
  };
  const { locale, type, notation } = internalSlots;
  const s = FormatNumericToString(internalSlots, n).formattedString;
  let exponent = 0;
  if (notation === "compact") {
    const patterns = internalSlots.compactExponents?.[internalSlots.compactDisplay || "short"];
    const integer = (s[0] === "-" ? s.slice(1) : s).split(".")[0];
    let first = 0;
    while (first < integer.length && integer[first] === "0") first++;
    const magnitude = integer.length - first - 1;
    let selectedMagnitude = -1;
    if (patterns) for (const key in patterns) {
      const threshold = Number(key);
      if (threshold <= magnitude && threshold > selectedMagnitude) {
        selectedMagnitude = threshold;
        exponent = patterns[threshold];
      }
    }
  }
  return {
    formattedString: s,
    pluralCategory: PluralRuleSelect2(locale, type, s, exponent)
  };
}
function ResolvePlural(pl, n, { getInternalSlots: getInternalSlots2, PluralRuleSelect: PluralRuleSelect2 }) {
  return ResolvePluralInternal(pl, n, {
    getInternalSlots: getInternalSlots2,
    PluralRuleSelect: PluralRuleSelect2
  }).pluralCategory;
}
function ResolvePluralRange(pluralRules, x, y, { getInternalSlots: getInternalSlots2, PluralRuleSelect: PluralRuleSelect2, PluralRuleSelectRange: PluralRuleSelectRange2 }) {
  if (x.isNaN() || y.isNaN()) throw new RangeError("selectRange requires start and end values not to be NaN");
  const internalSlots = getInternalSlots2(pluralRules);
  invariant(Type(internalSlots) === "Object", "pluralRules has to be an object");
  invariant("initializedPluralRules" in internalSlots, "pluralrules must be initialized");
  const xp = ResolvePluralInternal(pluralRules, x, {
    getInternalSlots: getInternalSlots2,
    PluralRuleSelect: PluralRuleSelect2
  });
  const yp = ResolvePluralInternal(pluralRules, y, {
    getInternalSlots: getInternalSlots2,
    PluralRuleSelect: PluralRuleSelect2
  });
  if (xp.formattedString === yp.formattedString) return xp.pluralCategory;
  const { locale, type } = internalSlots;
  return PluralRuleSelectRange2(locale, type, xp.pluralCategory, yp.pluralCategory);
}
function validateInstance(instance, method) {
  if (!(instance instanceof PluralRules)) throw new TypeError(`Method Intl.PluralRules.prototype.${method} called on incompatible receiver ${String(instance)}`);
}
function PluralRuleSelect(locale, type, decimalString, exponent) {
  return PluralRules.localeData[locale].fn(decimalString, type === "ordinal", exponent);
}
function PluralRuleSelectRange(locale, type, xp, yp) {
  const localeData = PluralRules.localeData[locale];
  if (!localeData || !localeData.pluralRanges) return yp;
  const key = `${xp}_${yp}`;
  return (type === "ordinal" ? localeData.pluralRanges.ordinal : localeData.pluralRanges.cardinal)?.[key] ?? yp;
}
var PluralRules = (_a = class {
  constructor(locales, options) {
    if (!(this && this instanceof _a ? this.constructor : void 0)) throw new TypeError("Intl.PluralRules must be called with 'new'");
    return InitializePluralRules(this, locales, options, {
      availableLocales: _a.availableLocales,
      relevantExtensionKeys: _a.relevantExtensionKeys,
      localeData: _a.localeData,
      getDefaultLocale: _a.getDefaultLocale,
      getInternalSlots
    });
  }
  resolvedOptions() {
    validateInstance(this, "resolvedOptions");
    const opts = {};
    const internalSlots = getInternalSlots(this);
    opts.locale = internalSlots.locale;
    opts.type = internalSlots.type;
    [
      "notation",
      "compactDisplay",
      "minimumIntegerDigits",
      "minimumFractionDigits",
      "maximumFractionDigits",
      "minimumSignificantDigits",
      "maximumSignificantDigits"
    ].forEach((field) => {
      const val = internalSlots[field];
      if (val !== void 0) opts[field] = val;
    });
    const categories = _a.localeData[internalSlots.locale].categories[internalSlots.type];
    opts.pluralCategories = [
      "zero",
      "one",
      "two",
      "few",
      "many",
      "other"
    ].filter((category) => categories.includes(category));
    for (const field of [
      "roundingIncrement",
      "roundingMode",
      "roundingPriority",
      "trailingZeroDisplay"
    ]) opts[field] = internalSlots[field];
    return opts;
  }
  select(val) {
    validateInstance(this, "select");
    const n = ToIntlMathematicalValue(val);
    return ResolvePlural(this, n, {
      getInternalSlots,
      PluralRuleSelect
    });
  }
  /**
  * Intl.PluralRules.prototype.selectRange ( start, end )
  *
  * Returns a string indicating which plural rule applies to a range of numbers.
  * This is useful for formatting ranges like "1-2 items" vs "2-3 items" where
  * different languages have different plural rules for ranges.
  *
  * Specification: https://tc39.es/ecma402/#sec-intl.pluralrules.prototype.selectrange
  *
  * @param start - The start value of the range (number or bigint)
  * @param end - The end value of the range (number or bigint)
  * @returns The plural category for the range (zero, one, two, few, many, or other)
  *
  * @example
  * const pr = new Intl.PluralRules('en');
  * pr.selectRange(1, 2); // "other" (English: "1-2 items")
  * pr.selectRange(1, 1); // "one" (same value: "1 item")
  *
  * @example
  * const prFr = new Intl.PluralRules('fr');
  * prFr.selectRange(0, 1); // "one" (French: "0-1 vue")
  * prFr.selectRange(1, 2); // "other" (French: "1-2 vues")
  *
  * @example
  * // BigInt support (spec-compliant, but Chrome has a bug as of early 2025)
  * pr.selectRange(BigInt(1), BigInt(2)); // "other"
  *
  * @throws {TypeError} If start or end is undefined
  * @throws {RangeError} If start or end converts to NaN
  *
  * @note Chrome's native implementation (as of early 2025) has a bug where it throws
  * "Cannot convert a BigInt value to a number" when using BigInt arguments. This is
  * a browser bug - the spec requires BigInt support. This polyfill handles BigInt correctly.
  */
  selectRange(start, end) {
    validateInstance(this, "selectRange");
    if (start === void 0 || end === void 0) throw new TypeError("selectRange requires both start and end arguments");
    const x = ToIntlMathematicalValue(start);
    const y = ToIntlMathematicalValue(end);
    return ResolvePluralRange(this, x, y, {
      getInternalSlots,
      PluralRuleSelect,
      PluralRuleSelectRange
    });
  }
  toString() {
    return "[object Intl.PluralRules]";
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
}, _a.localeData = {}, _a.availableLocales = /* @__PURE__ */ new Set(), _a.__defaultLocale = "", _a.relevantExtensionKeys = [], _a.polyfilled = true, _a);
try {
  if (typeof Symbol !== "undefined") Object.defineProperty(PluralRules.prototype, Symbol.toStringTag, {
    value: "Intl.PluralRules",
    writable: false,
    enumerable: false,
    configurable: true
  });
  try {
    Object.defineProperty(PluralRules, "length", {
      value: 0,
      writable: false,
      enumerable: false,
      configurable: true
    });
  } catch {
  }
  Object.defineProperty(PluralRules.prototype.constructor, "length", {
    value: 0,
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(PluralRules.supportedLocalesOf, "length", {
    value: 1,
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(PluralRules, "name", {
    value: "PluralRules",
    writable: false,
    enumerable: false,
    configurable: true
  });
} catch {
}
defineProperty(ensureIntl(), "PluralRules", { value: PluralRules });
const buf = globalThis.__FORMATJS_PLURALRULES_DATA__;
if (buf) {
  for (const d of buf) PluralRules.__addLocaleData(d);
  delete globalThis.__FORMATJS_PLURALRULES_DATA__;
}
