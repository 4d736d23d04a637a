var import_intl_localematcher = require("@formatjs/intl-localematcher");
var _a;
const { memoize, isPrimitive, monadic, variadic, assemble, strategyDefault, strategyVariadic, strategyMonadic, serializerDefault, ObjectWithoutPrototypeCache, cacheDefault, strategies, defineProperty, ensureIntl } = require("@formatjs/ecma402-shared/all");
const { SupportedLocales } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf");
const { ToString, ToObject, GetOption } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
const { CoerceOptionsToObject, internalSlotMap } = require("@formatjs/ecma402-shared/dtf-pr-rtf-loc");
const { createMemoizedNumberFormat } = require("@formatjs/ecma402-shared/dtf-rtf");
const { PartitionPattern } = require("@formatjs/ecma402-shared/dtf-rtf-lf");
const { IsUnicodeLocaleIdentifierType, SameValue } = require("@formatjs/ecma402-shared/dtf-rtf-loc");
const { explicitLocales } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf");
const { invariant } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-loc");
const { CanonicalizeLocaleList } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-seg");
const { createMemoizedPluralRules } = require("@formatjs/ecma402-shared/nf-rtf");
const { Type, getInternalSlots } = require("@formatjs/ecma402-shared/pr-rtf");
const defaultContent = {
  "ady": ["ady-RU"],
  "af": ["af-ZA"],
  "agq": ["agq-CM"],
  "ak": ["ak-GH"],
  "am": ["am-ET"],
  "ar": ["ar-001"],
  "as": ["as-IN"],
  "asa": ["asa-TZ"],
  "ast": ["ast-ES"],
  "az-Cyrl": ["az-Cyrl-AZ"],
  "az-Latn": ["az-Latn-AZ"],
  "ba": ["ba-RU"],
  "bal-Latn": ["bal-Latn-PK"],
  "bas": ["bas-CM"],
  "be": ["be-BY"],
  "bem": ["bem-ZM"],
  "bez": ["bez-TZ"],
  "bg": ["bg-BG"],
  "bgc": ["bgc-IN"],
  "bho": ["bho-IN"],
  "blo": ["blo-BJ"],
  "bm": ["bm-ML"],
  "bn": ["bn-BD"],
  "bo": ["bo-CN"],
  "br": ["br-FR"],
  "brx": ["brx-IN"],
  "bs-Cyrl": ["bs-Cyrl-BA"],
  "bs-Latn": ["bs-Latn-BA"],
  "bua": ["bua-RU"],
  "ca": ["ca-ES"],
  "ccp": ["ccp-BD"],
  "ce": ["ce-RU"],
  "ceb": ["ceb-PH"],
  "cgg": ["cgg-UG"],
  "chr": ["chr-US"],
  "ckb": ["ckb-IQ"],
  "cop": ["cop-EG"],
  "cs": ["cs-CZ"],
  "csw": ["csw-CA"],
  "cv": ["cv-RU"],
  "cy": ["cy-GB"],
  "da": ["da-DK"],
  "dav": ["dav-KE"],
  "de": ["de-DE"],
  "dje": ["dje-NE"],
  "doi": ["doi-IN"],
  "dsb": ["dsb-DE"],
  "dua": ["dua-CM"],
  "dyo": ["dyo-SN"],
  "dz": ["dz-BT"],
  "ebu": ["ebu-KE"],
  "ee": ["ee-GH"],
  "el": ["el-GR"],
  "en": ["en-US"],
  "eo": ["eo-001"],
  "es": ["es-ES"],
  "et": ["et-EE"],
  "eu": ["eu-ES"],
  "ewo": ["ewo-CM"],
  "fa": ["fa-IR"],
  "ff-Adlm": ["ff-Adlm-GN"],
  "ff-Latn": ["ff-Latn-SN"],
  "fi": ["fi-FI"],
  "fil": ["fil-PH"],
  "fo": ["fo-FO"],
  "fr": ["fr-FR"],
  "fur": ["fur-IT"],
  "fy": ["fy-NL"],
  "ga": ["ga-IE"],
  "gaa": ["gaa-GH"],
  "gd": ["gd-GB"],
  "gl": ["gl-ES"],
  "gsw": ["gsw-CH"],
  "gu": ["gu-IN"],
  "guz": ["guz-KE"],
  "gv": ["gv-IM"],
  "ha": ["ha-NG"],
  "haw": ["haw-US"],
  "he": ["he-IL"],
  "hi": ["hi-IN"],
  "hi-Latn": ["hi-Latn-IN"],
  "hr": ["hr-HR"],
  "hsb": ["hsb-DE"],
  "hu": ["hu-HU"],
  "hy": ["hy-AM"],
  "ia": ["ia-001"],
  "id": ["id-ID"],
  "ie": ["ie-EE"],
  "ig": ["ig-NG"],
  "ii": ["ii-CN"],
  "is": ["is-IS"],
  "it": ["it-IT"],
  "ja": ["ja-JP"],
  "jgo": ["jgo-CM"],
  "jmc": ["jmc-TZ"],
  "jv": ["jv-ID"],
  "ka": ["ka-GE"],
  "kab": ["kab-DZ"],
  "kam": ["kam-KE"],
  "kbd": ["kbd-RU"],
  "kde": ["kde-TZ"],
  "kea": ["kea-CV"],
  "kek": ["kek-GT"],
  "kgp": ["kgp-BR"],
  "khq": ["khq-ML"],
  "ki": ["ki-KE"],
  "kk-Arab": ["kk-Arab-CN"],
  "kk-Cyrl": ["kk-Cyrl-KZ"],
  "kkj": ["kkj-CM"],
  "kl": ["kl-GL"],
  "kln": ["kln-KE"],
  "km": ["km-KH"],
  "kn": ["kn-IN"],
  "ko": ["ko-KR"],
  "kok-Deva": ["kok-Deva-IN"],
  "kok-Latn": ["kok-Latn-IN"],
  "ks-Arab": ["ks-Arab-IN"],
  "ks-Deva": ["ks-Deva-IN"],
  "ksb": ["ksb-TZ"],
  "ksf": ["ksf-CM"],
  "ksh": ["ksh-DE"],
  "ku-Latn": ["ku-Latn-TR"],
  "kw": ["kw-GB"],
  "kxv-Deva": ["kxv-Deva-IN"],
  "kxv-Latn": ["kxv-Latn-IN"],
  "kxv-Orya": ["kxv-Orya-IN"],
  "kxv-Telu": ["kxv-Telu-IN"],
  "ky": ["ky-KG"],
  "lag": ["lag-TZ"],
  "lb": ["lb-LU"],
  "lg": ["lg-UG"],
  "lij": ["lij-IT"],
  "lkt": ["lkt-US"],
  "lld": ["lld-IT"],
  "lmo": ["lmo-IT"],
  "ln": ["ln-CD"],
  "lo": ["lo-LA"],
  "lrc": ["lrc-IR"],
  "lt": ["lt-LT"],
  "lu": ["lu-CD"],
  "luo": ["luo-KE"],
  "luy": ["luy-KE"],
  "lv": ["lv-LV"],
  "mai": ["mai-IN"],
  "mas": ["mas-KE"],
  "mer": ["mer-KE"],
  "mfe": ["mfe-MU"],
  "mg": ["mg-MG"],
  "mgh": ["mgh-MZ"],
  "mgo": ["mgo-CM"],
  "mi": ["mi-NZ"],
  "mk": ["mk-MK"],
  "ml": ["ml-IN"],
  "mn": ["mn-MN"],
  "mni-Beng": ["mni-Beng-IN"],
  "mr": ["mr-IN"],
  "ms": ["ms-MY"],
  "mt": ["mt-MT"],
  "mua": ["mua-CM"],
  "my": ["my-MM"],
  "mzn": ["mzn-IR"],
  "naq": ["naq-NA"],
  "nb": ["nb-NO"],
  "nd": ["nd-ZW"],
  "nds": ["nds-DE"],
  "ne": ["ne-NP"],
  "nl": ["nl-NL"],
  "nmg": ["nmg-CM"],
  "nn": ["nn-NO"],
  "nnh": ["nnh-CM"],
  "nqo": ["nqo-GN"],
  "nso": ["nso-ZA"],
  "nus": ["nus-SS"],
  "nyn": ["nyn-UG"],
  "oc": ["oc-FR"],
  "om": ["om-ET"],
  "or": ["or-IN"],
  "os": ["os-GE"],
  "pa-Arab": ["pa-Arab-PK"],
  "pa-Guru": ["pa-Guru-IN"],
  "pcm": ["pcm-NG"],
  "pl": ["pl-PL"],
  "pms": ["pms-IT"],
  "prg": ["prg-PL"],
  "ps": ["ps-AF"],
  "pt": ["pt-BR"],
  "qu": ["qu-PE"],
  "quc": ["quc-GT"],
  "raj": ["raj-IN"],
  "rm": ["rm-CH"],
  "rn": ["rn-BI"],
  "ro": ["ro-RO"],
  "rof": ["rof-TZ"],
  "ru": ["ru-RU"],
  "rw": ["rw-RW"],
  "rwk": ["rwk-TZ"],
  "sa": ["sa-IN"],
  "sah": ["sah-RU"],
  "saq": ["saq-KE"],
  "sat-Olck": ["sat-Olck-IN"],
  "sbp": ["sbp-TZ"],
  "sc": ["sc-IT"],
  "scn": ["scn-IT"],
  "sd-Arab": ["sd-Arab-PK"],
  "sd-Deva": ["sd-Deva-IN"],
  "se": ["se-NO"],
  "seh": ["seh-MZ"],
  "ses": ["ses-ML"],
  "sg": ["sg-CF"],
  "shi-Latn": ["shi-Latn-MA"],
  "shi-Tfng": ["shi-Tfng-MA"],
  "shn": ["shn-MM"],
  "si": ["si-LK"],
  "sk": ["sk-SK"],
  "sl": ["sl-SI"],
  "smn": ["smn-FI"],
  "sn": ["sn-ZW"],
  "so": ["so-SO"],
  "sq": ["sq-AL"],
  "sr-Cyrl": ["sr-Cyrl-RS"],
  "sr-Latn": ["sr-Latn-RS"],
  "st": ["st-ZA"],
  "su-Latn": ["su-Latn-ID"],
  "suz-Sunu": ["suz-Sunu-NP"],
  "sv": ["sv-SE"],
  "sw": ["sw-TZ"],
  "syr": ["syr-IQ"],
  "szl": ["szl-PL"],
  "ta": ["ta-IN"],
  "te": ["te-IN"],
  "teo": ["teo-UG"],
  "tg": ["tg-TJ"],
  "th": ["th-TH"],
  "ti": ["ti-ET"],
  "tk": ["tk-TM"],
  "tn": ["tn-ZA"],
  "to": ["to-TO"],
  "tok": ["tok-001"],
  "tr": ["tr-TR"],
  "tt": ["tt-RU"],
  "twq": ["twq-NE"],
  "tyv": ["tyv-RU"],
  "tzm": ["tzm-MA"],
  "ug": ["ug-CN"],
  "uk": ["uk-UA"],
  "ur": ["ur-PK"],
  "uz-Arab": ["uz-Arab-AF"],
  "uz-Cyrl": ["uz-Cyrl-UZ"],
  "uz-Latn": ["uz-Latn-UZ"],
  "vai-Latn": ["vai-Latn-LR"],
  "vai-Vaii": ["vai-Vaii-LR"],
  "vec": ["vec-IT"],
  "vi": ["vi-VN"],
  "vmw": ["vmw-MZ"],
  "vun": ["vun-TZ"],
  "wae": ["wae-CH"],
  "wo": ["wo-SN"],
  "xh": ["xh-ZA"],
  "xnr": ["xnr-IN"],
  "xog": ["xog-UG"],
  "yav": ["yav-CM"],
  "yi": ["yi-UA"],
  "yo": ["yo-NG"],
  "yrl": ["yrl-BR"],
  "yue-Hans": ["yue-Hans-CN"],
  "yue-Hant": ["yue-Hant-HK"],
  "za": ["za-CN"],
  "zgh": ["zgh-MA"],
  "zh-Hans": ["zh-Hans-CN"],
  "zh-Hant": ["zh-Hant-TW"],
  "zu": ["zu-ZA"]
};
function registerLocaleData(locale, data, localeData, availableLocales) {
  let loaded = explicitLocales.get(localeData);
  if (!loaded) {
    loaded = /* @__PURE__ */ new Set();
    explicitLocales.set(localeData, loaded);
  }
  loaded.add(locale);
  const locales = [locale, ...defaultContent[locale] || []];
  for (const tag of locales) {
    if (tag === locale || !loaded.has(tag) || localeData[tag] === void 0) localeData[tag] = data;
    availableLocales.add(tag);
  }
  for (const tag of locales) {
    const parts = tag.split("-");
    const fallbacks = [];
    while (parts.length > 1) {
      if (parts.length > 2 && parts[1].length === 4) fallbacks.push([parts[0], ...parts.slice(2)].join("-"));
      parts.pop();
      fallbacks.push(parts.join("-"));
    }
    for (const fallback of fallbacks) {
      if (localeData[fallback] === void 0) localeData[fallback] = localeData[tag];
      availableLocales.add(fallback);
    }
  }
}
memoize((...args) => new Intl.ListFormat(...args), { strategy: strategies.variadic });
function InitializeRelativeTimeFormat(rtf, locales, options, { getInternalSlots: getInternalSlots2, availableLocales, relevantExtensionKeys, localeData, getDefaultLocale }) {
  const internalSlots = getInternalSlots2(rtf);
  internalSlots.initializedRelativeTimeFormat = true;
  const requestedLocales = CanonicalizeLocaleList(locales);
  const opt = /* @__PURE__ */ Object.create(null);
  const opts = CoerceOptionsToObject(options);
  opt.localeMatcher = GetOption(opts, "localeMatcher", "string", ["best fit", "lookup"], "best fit");
  const numberingSystem = GetOption(opts, "numberingSystem", "string", void 0, void 0);
  if (numberingSystem !== void 0) {
    if (!IsUnicodeLocaleIdentifierType(numberingSystem)) throw new RangeError(`Invalid numbering system ${numberingSystem}`);
  }
  opt.nu = numberingSystem;
  const r = (0, import_intl_localematcher.ResolveLocale)(availableLocales, requestedLocales, opt, relevantExtensionKeys, localeData, getDefaultLocale);
  const { locale, nu } = r;
  internalSlots.locale = locale;
  internalSlots.style = GetOption(opts, "style", "string", [
    "long",
    "narrow",
    "short"
  ], "long");
  internalSlots.numeric = GetOption(opts, "numeric", "string", ["always", "auto"], "always");
  const fields = localeData[r.dataLocale];
  invariant(!!fields, `Missing locale data for ${r.dataLocale}`);
  internalSlots.fields = fields;
  const nfOptions = /* @__PURE__ */ Object.create(null);
  nfOptions.numberingSystem = nu;
  internalSlots.numberFormat = createMemoizedNumberFormat(locale, nfOptions);
  internalSlots.pluralRules = createMemoizedPluralRules(locale);
  internalSlots.numberingSystem = nu;
  return rtf;
}
function SingularRelativeTimeUnit(unit) {
  invariant(Type(unit) === "String", "unit must be a string");
  if (unit === "seconds") return "second";
  if (unit === "minutes") return "minute";
  if (unit === "hours") return "hour";
  if (unit === "days") return "day";
  if (unit === "weeks") return "week";
  if (unit === "months") return "month";
  if (unit === "quarters") return "quarter";
  if (unit === "years") return "year";
  if (unit !== "second" && unit !== "minute" && unit !== "hour" && unit !== "day" && unit !== "week" && unit !== "month" && unit !== "quarter" && unit !== "year") throw new RangeError("invalid unit");
  return unit;
}
function MakePartsList(pattern, unit, parts) {
  const patternParts = PartitionPattern(pattern);
  const result = [];
  for (const patternPart of patternParts) if (patternPart.type === "literal") result.push({
    type: "literal",
    value: patternPart.value
  });
  else {
    invariant(patternPart.type === "0", `Malformed pattern ${pattern}`);
    for (const part of parts) result.push({
      type: part.type,
      value: part.value,
      unit
    });
  }
  return result;
}
function PartitionRelativeTimePattern(rtf, value, unit, { getInternalSlots: getInternalSlots2 }) {
  invariant(Type(value) === "Number", `value must be number, instead got ${typeof value}`, TypeError);
  invariant(Type(unit) === "String", `unit must be number, instead got ${typeof value}`, TypeError);
  if (isNaN(value) || !isFinite(value)) throw new RangeError(`Invalid value ${value}`);
  const resolvedUnit = SingularRelativeTimeUnit(unit);
  const { fields, style, numeric, pluralRules, numberFormat } = getInternalSlots2(rtf);
  let entry = resolvedUnit;
  if (style === "short") entry = `${resolvedUnit}-short`;
  else if (style === "narrow") entry = `${resolvedUnit}-narrow`;
  if (!(entry in fields)) entry = resolvedUnit;
  const patterns = fields[entry];
  if (numeric === "auto") {
    if (ToString(value) in patterns) return [{
      type: "literal",
      value: patterns[ToString(value)]
    }];
  }
  let tl = "future";
  if (SameValue(value, -0) || value < 0) tl = "past";
  const po = patterns[tl];
  const fv = typeof numberFormat.formatToParts === "function" ? numberFormat.formatToParts(Math.abs(value)) : [{
    type: "literal",
    value: numberFormat.format(Math.abs(value)),
    unit
  }];
  return MakePartsList(po[pluralRules.select(value)] ?? po.other, resolvedUnit, fv);
}
var RelativeTimeFormat = (_a = class {
  constructor(locales, options) {
    return InitializeRelativeTimeFormat(this, locales, options, {
      getInternalSlots,
      availableLocales: _a.availableLocales,
      relevantExtensionKeys: _a.relevantExtensionKeys,
      localeData: _a.localeData,
      getDefaultLocale: _a.getDefaultLocale
    });
  }
  format(value, unit) {
    if (typeof this !== "object") throw new TypeError("format was called on a non-object");
    if (!getInternalSlots(this).initializedRelativeTimeFormat) throw new TypeError("format was called on a invalid context");
    return PartitionRelativeTimePattern(this, +value, ToString(unit), { getInternalSlots }).map((el) => el.value).join("");
  }
  formatToParts(value, unit) {
    if (typeof this !== "object") throw new TypeError("formatToParts was called on a non-object");
    if (!getInternalSlots(this).initializedRelativeTimeFormat) throw new TypeError("formatToParts was called on a invalid context");
    return PartitionRelativeTimePattern(this, +value, ToString(unit), { getInternalSlots });
  }
  resolvedOptions() {
    if (typeof this !== "object") throw new TypeError("resolvedOptions was called on a non-object");
    const internalSlots = getInternalSlots(this);
    if (!internalSlots.initializedRelativeTimeFormat) throw new TypeError("resolvedOptions was called on a invalid context");
    return {
      locale: internalSlots.locale,
      style: internalSlots.style,
      numeric: internalSlots.numeric,
      numberingSystem: internalSlots.numberingSystem
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
}, _a.localeData = {}, _a.availableLocales = /* @__PURE__ */ new Set(), _a.__defaultLocale = "", _a.relevantExtensionKeys = ["nu"], _a.polyfilled = true, _a);
try {
  if (typeof Symbol !== "undefined") Object.defineProperty(RelativeTimeFormat.prototype, Symbol.toStringTag, {
    value: "Intl.RelativeTimeFormat",
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(RelativeTimeFormat.prototype.constructor, "length", {
    value: 0,
    writable: false,
    enumerable: false,
    configurable: true
  });
  Object.defineProperty(RelativeTimeFormat.supportedLocalesOf, "length", {
    value: 1,
    writable: false,
    enumerable: false,
    configurable: true
  });
} catch {
}
defineProperty(ensureIntl(), "RelativeTimeFormat", { value: RelativeTimeFormat });
const buf = globalThis.__FORMATJS_RELATIVETIMEFORMAT_DATA__;
if (buf) {
  for (const d of buf) RelativeTimeFormat.__addLocaleData(d);
  delete globalThis.__FORMATJS_RELATIVETIMEFORMAT_DATA__;
}
