var import_bigdecimal = require("@formatjs/bigdecimal");
var import_intl_localematcher = require("@formatjs/intl-localematcher");
const { memoize, isPrimitive, monadic, variadic, assemble, strategyDefault, strategyVariadic, strategyMonadic, serializerDefault, ObjectWithoutPrototypeCache, cacheDefault, strategies, defineProperty, ensureIntl } = require("@formatjs/ecma402-shared/all");
const { OrdinaryHasInstance } = require("@formatjs/ecma402-shared/nf-dtf");
const { IsCallable: IsCallable$1, ZERO } = require("@formatjs/ecma402-shared/nf-dtf-pr");
const { defaultContent, registerLocaleData } = require("@formatjs/ecma402-shared/nf-dtf-pr-lf");
const { explicitLocales } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf");
const { invariant: invariant$1 } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-loc");
const { CanonicalizeLocaleList } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-seg");
const { repeat, getPowerOf10, NEGATIVE_ZERO, negativeMapping, positiveMapping, GetUnsignedRoundingMode, ApplyUnsignedRoundingMode, ToRawFixedFn, findN1R1, findN2R2, ToRawFixed, findN1E1R1, findN2E2R2, ToRawPrecision, FormatNumericToString } = require("@formatjs/ecma402-shared/nf-pr");
const { createMemoizedPluralRules } = require("@formatjs/ecma402-shared/nf-rtf");
memoize((...args) => new Intl.NumberFormat(...args), { strategy: strategies.variadic });
memoize((...args) => new Intl.ListFormat(...args), { strategy: strategies.variadic });
function ComputeExponentForMagnitude(internalSlots, magnitude) {
  const { notation, dataLocaleData, numberingSystem } = internalSlots;
  switch (notation) {
    case "standard":
      return 0;
    case "scientific":
      return magnitude.toNumber();
    case "engineering":
      return magnitude.div(3).floor().times(3).toNumber();
    default: {
      invariant$1(notation === "compact", "Invalid notation");
      const { compactDisplay, style, currencyDisplay } = internalSlots;
      let thresholdMap;
      if (style === "currency" && currencyDisplay !== "name") thresholdMap = (dataLocaleData.numbers.currency[numberingSystem] || dataLocaleData.numbers.currency[dataLocaleData.numbers.nu[0]]).short;
      else {
        const decimal = dataLocaleData.numbers.decimal[numberingSystem] || dataLocaleData.numbers.decimal[dataLocaleData.numbers.nu[0]];
        thresholdMap = compactDisplay === "long" ? decimal.long : decimal.short;
      }
      if (!thresholdMap) return 0;
      const num = getPowerOf10(magnitude).toString();
      const thresholds = Object.keys(thresholdMap);
      if (num < thresholds[0]) return 0;
      if (num > thresholds[thresholds.length - 1]) {
        const magnitudeKey2 = thresholds[thresholds.length - 1];
        if (thresholdMap[magnitudeKey2].other === "0") return 0;
        return magnitudeKey2.length - thresholdMap[magnitudeKey2].other.match(/0+/)[0].length;
      }
      const i = thresholds.indexOf(num);
      if (i === -1) return 0;
      const magnitudeKey = thresholds[i];
      if (thresholdMap[magnitudeKey].other === "0") return 0;
      return magnitudeKey.length - thresholdMap[magnitudeKey].other.match(/0+/)[0].length;
    }
  }
}
function ComputeExponent(internalSlots, x) {
  if (x.isZero()) return [0, 0];
  if (x.isNegative()) x = x.negated();
  const xNum = x.toNumber();
  let magnitude;
  if (Number.isFinite(xNum) && Number.isSafeInteger(xNum) && xNum > 0 && xNum <= 999999) magnitude = new import_bigdecimal.Decimal(Math.floor(Math.log10(xNum)));
  else magnitude = x.log(10).floor();
  const exponent = ComputeExponentForMagnitude(internalSlots, magnitude);
  x = x.times(getPowerOf10(-exponent));
  const formatNumberResult = FormatNumericToString(internalSlots, x);
  if (formatNumberResult.roundedNumber.isZero()) return [exponent, magnitude.toNumber()];
  const roundedNum = formatNumberResult.roundedNumber.toNumber();
  let newMagnitude;
  if (Number.isFinite(roundedNum) && Number.isSafeInteger(roundedNum) && roundedNum > 0 && roundedNum <= 999999) newMagnitude = new import_bigdecimal.Decimal(Math.floor(Math.log10(roundedNum)));
  else newMagnitude = formatNumberResult.roundedNumber.log(10).floor();
  if (newMagnitude.eq(magnitude.minus(exponent))) return [exponent, magnitude.toNumber()];
  return [ComputeExponentForMagnitude(internalSlots, magnitude.plus(1)), magnitude.plus(1).toNumber()];
}
const S_UNICODE_REGEX = /[\$\+<->\^`\|~\xA2-\xA6\xA8\xA9\xAC\xAE-\xB1\xB4\xB8\xD7\xF7\u02C2-\u02C5\u02D2-\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\u0375\u0384\u0385\u03F6\u0482\u058D-\u058F\u0606-\u0608\u060B\u060E\u060F\u06DE\u06E9\u06FD\u06FE\u07F6\u07FE\u07FF\u0888\u09F2\u09F3\u09FA\u09FB\u0AF1\u0B70\u0BF3-\u0BFA\u0C7F\u0D4F\u0D79\u0E3F\u0F01-\u0F03\u0F13\u0F15-\u0F17\u0F1A-\u0F1F\u0F34\u0F36\u0F38\u0FBE-\u0FC5\u0FC7-\u0FCC\u0FCE\u0FCF\u0FD5-\u0FD8\u109E\u109F\u1390-\u1399\u166D\u17DB\u1940\u19DE-\u19FF\u1B61-\u1B6A\u1B74-\u1B7C\u1FBD\u1FBF-\u1FC1\u1FCD-\u1FCF\u1FDD-\u1FDF\u1FED-\u1FEF\u1FFD\u1FFE\u2044\u2052\u207A-\u207C\u208A-\u208C\u20A0-\u20C1\u2100\u2101\u2103-\u2106\u2108\u2109\u2114\u2116-\u2118\u211E-\u2123\u2125\u2127\u2129\u212E\u213A\u213B\u2140-\u2144\u214A-\u214D\u214F\u218A\u218B\u2190-\u2307\u230C-\u2328\u232B-\u2429\u2440-\u244A\u249C-\u24E9\u2500-\u2767\u2794-\u27C4\u27C7-\u27E5\u27F0-\u2982\u2999-\u29D7\u29DC-\u29FB\u29FE-\u2B73\u2B76-\u2BFF\u2CE5-\u2CEA\u2E50\u2E51\u2E80-\u2E99\u2E9B-\u2EF3\u2F00-\u2FD5\u2FF0-\u2FFF\u3004\u3012\u3013\u3020\u3036\u3037\u303E\u303F\u309B\u309C\u3190\u3191\u3196-\u319F\u31C0-\u31E5\u31EF\u3200-\u321E\u322A-\u3247\u3250\u3260-\u327F\u328A-\u32B0\u32C0-\u33FF\u4DC0-\u4DFF\uA490-\uA4C6\uA700-\uA716\uA720\uA721\uA789\uA78A\uA828-\uA82B\uA836-\uA839\uAA77-\uAA79\uAB5B\uAB6A\uAB6B\uFB29\uFBB2-\uFBD2\uFD40-\uFD4F\uFD90\uFD91\uFDC8-\uFDCF\uFDFC-\uFDFF\uFE62\uFE64-\uFE66\uFE69\uFF04\uFF0B\uFF1C-\uFF1E\uFF3E\uFF40\uFF5C\uFF5E\uFFE0-\uFFE6\uFFE8-\uFFEE\uFFFC\uFFFD]|\uD800[\uDD37-\uDD3F\uDD79-\uDD89\uDD8C-\uDD8E\uDD90-\uDD9C\uDDA0\uDDD0-\uDDFC]|\uD802[\uDC77\uDC78\uDEC8]|\uD803[\uDD8E\uDD8F\uDED1-\uDED8]|\uD805\uDF3F|\uD807[\uDFD5-\uDFF1]|\uD81A[\uDF3C-\uDF3F\uDF45]|\uD82F\uDC9C|\uD833[\uDC00-\uDCEF\uDCFA-\uDCFC\uDD00-\uDEB3\uDEBA-\uDED0\uDEE0-\uDEF0\uDF50-\uDFC3]|\uD834[\uDC00-\uDCF5\uDD00-\uDD26\uDD29-\uDD64\uDD6A-\uDD6C\uDD83\uDD84\uDD8C-\uDDA9\uDDAE-\uDDEA\uDE00-\uDE41\uDE45\uDF00-\uDF56]|\uD835[\uDEC1\uDEDB\uDEFB\uDF15\uDF35\uDF4F\uDF6F\uDF89\uDFA9\uDFC3]|\uD836[\uDC00-\uDDFF\uDE37-\uDE3A\uDE6D-\uDE74\uDE76-\uDE83\uDE85\uDE86]|\uD838[\uDD4F\uDEFF]|\uD83B[\uDCAC\uDCB0\uDD2E\uDEF0\uDEF1]|\uD83C[\uDC00-\uDC2B\uDC30-\uDC93\uDCA0-\uDCAE\uDCB1-\uDCBF\uDCC1-\uDCCF\uDCD1-\uDCF5\uDD0D-\uDDAD\uDDE6-\uDE02\uDE10-\uDE3B\uDE40-\uDE48\uDE50\uDE51\uDE60-\uDE65\uDF00-\uDFFF]|\uD83D[\uDC00-\uDED8\uDEDC-\uDEEC\uDEF0-\uDEFC\uDF00-\uDFD9\uDFE0-\uDFEB\uDFF0]|\uD83E[\uDC00-\uDC0B\uDC10-\uDC47\uDC50-\uDC59\uDC60-\uDC87\uDC90-\uDCAD\uDCB0-\uDCBB\uDCC0\uDCC1\uDCD0-\uDCD8\uDD00-\uDE57\uDE60-\uDE6D\uDE70-\uDE7C\uDE80-\uDE8A\uDE8E-\uDEC6\uDEC8\uDECD-\uDEDC\uDEDF-\uDEEA\uDEEF-\uDEF8\uDF00-\uDF92\uDF94-\uDFEF\uDFFA]/;
const digitMapping = {
  "adlm": [
    "\u{1E950}",
    "\u{1E951}",
    "\u{1E952}",
    "\u{1E953}",
    "\u{1E954}",
    "\u{1E955}",
    "\u{1E956}",
    "\u{1E957}",
    "\u{1E958}",
    "\u{1E959}"
  ],
  "ahom": [
    "\u{11730}",
    "\u{11731}",
    "\u{11732}",
    "\u{11733}",
    "\u{11734}",
    "\u{11735}",
    "\u{11736}",
    "\u{11737}",
    "\u{11738}",
    "\u{11739}"
  ],
  "arab": [
    "\u0660",
    "\u0661",
    "\u0662",
    "\u0663",
    "\u0664",
    "\u0665",
    "\u0666",
    "\u0667",
    "\u0668",
    "\u0669"
  ],
  "arabext": [
    "\u06F0",
    "\u06F1",
    "\u06F2",
    "\u06F3",
    "\u06F4",
    "\u06F5",
    "\u06F6",
    "\u06F7",
    "\u06F8",
    "\u06F9"
  ],
  "bali": [
    "\u1B50",
    "\u1B51",
    "\u1B52",
    "\u1B53",
    "\u1B54",
    "\u1B55",
    "\u1B56",
    "\u1B57",
    "\u1B58",
    "\u1B59"
  ],
  "beng": [
    "\u09E6",
    "\u09E7",
    "\u09E8",
    "\u09E9",
    "\u09EA",
    "\u09EB",
    "\u09EC",
    "\u09ED",
    "\u09EE",
    "\u09EF"
  ],
  "bhks": [
    "\u{11C50}",
    "\u{11C51}",
    "\u{11C52}",
    "\u{11C53}",
    "\u{11C54}",
    "\u{11C55}",
    "\u{11C56}",
    "\u{11C57}",
    "\u{11C58}",
    "\u{11C59}"
  ],
  "brah": [
    "\u{11066}",
    "\u{11067}",
    "\u{11068}",
    "\u{11069}",
    "\u{1106A}",
    "\u{1106B}",
    "\u{1106C}",
    "\u{1106D}",
    "\u{1106E}",
    "\u{1106F}"
  ],
  "cakm": [
    "\u{11136}",
    "\u{11137}",
    "\u{11138}",
    "\u{11139}",
    "\u{1113A}",
    "\u{1113B}",
    "\u{1113C}",
    "\u{1113D}",
    "\u{1113E}",
    "\u{1113F}"
  ],
  "cham": [
    "\uAA50",
    "\uAA51",
    "\uAA52",
    "\uAA53",
    "\uAA54",
    "\uAA55",
    "\uAA56",
    "\uAA57",
    "\uAA58",
    "\uAA59"
  ],
  "deva": [
    "\u0966",
    "\u0967",
    "\u0968",
    "\u0969",
    "\u096A",
    "\u096B",
    "\u096C",
    "\u096D",
    "\u096E",
    "\u096F"
  ],
  "diak": [
    "\u{11950}",
    "\u{11951}",
    "\u{11952}",
    "\u{11953}",
    "\u{11954}",
    "\u{11955}",
    "\u{11956}",
    "\u{11957}",
    "\u{11958}",
    "\u{11959}"
  ],
  "fullwide": [
    "\uFF10",
    "\uFF11",
    "\uFF12",
    "\uFF13",
    "\uFF14",
    "\uFF15",
    "\uFF16",
    "\uFF17",
    "\uFF18",
    "\uFF19"
  ],
  "gara": [
    "\u{10D40}",
    "\u{10D41}",
    "\u{10D42}",
    "\u{10D43}",
    "\u{10D44}",
    "\u{10D45}",
    "\u{10D46}",
    "\u{10D47}",
    "\u{10D48}",
    "\u{10D49}"
  ],
  "gong": [
    "\u{11DA0}",
    "\u{11DA1}",
    "\u{11DA2}",
    "\u{11DA3}",
    "\u{11DA4}",
    "\u{11DA5}",
    "\u{11DA6}",
    "\u{11DA7}",
    "\u{11DA8}",
    "\u{11DA9}"
  ],
  "gonm": [
    "\u{11D50}",
    "\u{11D51}",
    "\u{11D52}",
    "\u{11D53}",
    "\u{11D54}",
    "\u{11D55}",
    "\u{11D56}",
    "\u{11D57}",
    "\u{11D58}",
    "\u{11D59}"
  ],
  "gujr": [
    "\u0AE6",
    "\u0AE7",
    "\u0AE8",
    "\u0AE9",
    "\u0AEA",
    "\u0AEB",
    "\u0AEC",
    "\u0AED",
    "\u0AEE",
    "\u0AEF"
  ],
  "gukh": [
    "\u{16130}",
    "\u{16131}",
    "\u{16132}",
    "\u{16133}",
    "\u{16134}",
    "\u{16135}",
    "\u{16136}",
    "\u{16137}",
    "\u{16138}",
    "\u{16139}"
  ],
  "guru": [
    "\u0A66",
    "\u0A67",
    "\u0A68",
    "\u0A69",
    "\u0A6A",
    "\u0A6B",
    "\u0A6C",
    "\u0A6D",
    "\u0A6E",
    "\u0A6F"
  ],
  "hanidec": [
    "\u3007",
    "\u4E00",
    "\u4E8C",
    "\u4E09",
    "\u56DB",
    "\u4E94",
    "\u516D",
    "\u4E03",
    "\u516B",
    "\u4E5D"
  ],
  "hmng": [
    "\u{16B50}",
    "\u{16B51}",
    "\u{16B52}",
    "\u{16B53}",
    "\u{16B54}",
    "\u{16B55}",
    "\u{16B56}",
    "\u{16B57}",
    "\u{16B58}",
    "\u{16B59}"
  ],
  "hmnp": [
    "\u{1E140}",
    "\u{1E141}",
    "\u{1E142}",
    "\u{1E143}",
    "\u{1E144}",
    "\u{1E145}",
    "\u{1E146}",
    "\u{1E147}",
    "\u{1E148}",
    "\u{1E149}"
  ],
  "java": [
    "\uA9D0",
    "\uA9D1",
    "\uA9D2",
    "\uA9D3",
    "\uA9D4",
    "\uA9D5",
    "\uA9D6",
    "\uA9D7",
    "\uA9D8",
    "\uA9D9"
  ],
  "kali": [
    "\uA900",
    "\uA901",
    "\uA902",
    "\uA903",
    "\uA904",
    "\uA905",
    "\uA906",
    "\uA907",
    "\uA908",
    "\uA909"
  ],
  "kawi": [
    "\u{11F50}",
    "\u{11F51}",
    "\u{11F52}",
    "\u{11F53}",
    "\u{11F54}",
    "\u{11F55}",
    "\u{11F56}",
    "\u{11F57}",
    "\u{11F58}",
    "\u{11F59}"
  ],
  "khmr": [
    "\u17E0",
    "\u17E1",
    "\u17E2",
    "\u17E3",
    "\u17E4",
    "\u17E5",
    "\u17E6",
    "\u17E7",
    "\u17E8",
    "\u17E9"
  ],
  "knda": [
    "\u0CE6",
    "\u0CE7",
    "\u0CE8",
    "\u0CE9",
    "\u0CEA",
    "\u0CEB",
    "\u0CEC",
    "\u0CED",
    "\u0CEE",
    "\u0CEF"
  ],
  "krai": [
    "\u{16D70}",
    "\u{16D71}",
    "\u{16D72}",
    "\u{16D73}",
    "\u{16D74}",
    "\u{16D75}",
    "\u{16D76}",
    "\u{16D77}",
    "\u{16D78}",
    "\u{16D79}"
  ],
  "lana": [
    "\u1A80",
    "\u1A81",
    "\u1A82",
    "\u1A83",
    "\u1A84",
    "\u1A85",
    "\u1A86",
    "\u1A87",
    "\u1A88",
    "\u1A89"
  ],
  "lanatham": [
    "\u1A90",
    "\u1A91",
    "\u1A92",
    "\u1A93",
    "\u1A94",
    "\u1A95",
    "\u1A96",
    "\u1A97",
    "\u1A98",
    "\u1A99"
  ],
  "laoo": [
    "\u0ED0",
    "\u0ED1",
    "\u0ED2",
    "\u0ED3",
    "\u0ED4",
    "\u0ED5",
    "\u0ED6",
    "\u0ED7",
    "\u0ED8",
    "\u0ED9"
  ],
  "lepc": [
    "\u1C40",
    "\u1C41",
    "\u1C42",
    "\u1C43",
    "\u1C44",
    "\u1C45",
    "\u1C46",
    "\u1C47",
    "\u1C48",
    "\u1C49"
  ],
  "limb": [
    "\u1946",
    "\u1947",
    "\u1948",
    "\u1949",
    "\u194A",
    "\u194B",
    "\u194C",
    "\u194D",
    "\u194E",
    "\u194F"
  ],
  "mathbold": [
    "\u{1D7CE}",
    "\u{1D7CF}",
    "\u{1D7D0}",
    "\u{1D7D1}",
    "\u{1D7D2}",
    "\u{1D7D3}",
    "\u{1D7D4}",
    "\u{1D7D5}",
    "\u{1D7D6}",
    "\u{1D7D7}"
  ],
  "mathdbl": [
    "\u{1D7D8}",
    "\u{1D7D9}",
    "\u{1D7DA}",
    "\u{1D7DB}",
    "\u{1D7DC}",
    "\u{1D7DD}",
    "\u{1D7DE}",
    "\u{1D7DF}",
    "\u{1D7E0}",
    "\u{1D7E1}"
  ],
  "mathmono": [
    "\u{1D7F6}",
    "\u{1D7F7}",
    "\u{1D7F8}",
    "\u{1D7F9}",
    "\u{1D7FA}",
    "\u{1D7FB}",
    "\u{1D7FC}",
    "\u{1D7FD}",
    "\u{1D7FE}",
    "\u{1D7FF}"
  ],
  "mathsanb": [
    "\u{1D7EC}",
    "\u{1D7ED}",
    "\u{1D7EE}",
    "\u{1D7EF}",
    "\u{1D7F0}",
    "\u{1D7F1}",
    "\u{1D7F2}",
    "\u{1D7F3}",
    "\u{1D7F4}",
    "\u{1D7F5}"
  ],
  "mathsans": [
    "\u{1D7E2}",
    "\u{1D7E3}",
    "\u{1D7E4}",
    "\u{1D7E5}",
    "\u{1D7E6}",
    "\u{1D7E7}",
    "\u{1D7E8}",
    "\u{1D7E9}",
    "\u{1D7EA}",
    "\u{1D7EB}"
  ],
  "mlym": [
    "\u0D66",
    "\u0D67",
    "\u0D68",
    "\u0D69",
    "\u0D6A",
    "\u0D6B",
    "\u0D6C",
    "\u0D6D",
    "\u0D6E",
    "\u0D6F"
  ],
  "modi": [
    "\u{11650}",
    "\u{11651}",
    "\u{11652}",
    "\u{11653}",
    "\u{11654}",
    "\u{11655}",
    "\u{11656}",
    "\u{11657}",
    "\u{11658}",
    "\u{11659}"
  ],
  "mong": [
    "\u1810",
    "\u1811",
    "\u1812",
    "\u1813",
    "\u1814",
    "\u1815",
    "\u1816",
    "\u1817",
    "\u1818",
    "\u1819"
  ],
  "mroo": [
    "\u{16A60}",
    "\u{16A61}",
    "\u{16A62}",
    "\u{16A63}",
    "\u{16A64}",
    "\u{16A65}",
    "\u{16A66}",
    "\u{16A67}",
    "\u{16A68}",
    "\u{16A69}"
  ],
  "mtei": [
    "\uABF0",
    "\uABF1",
    "\uABF2",
    "\uABF3",
    "\uABF4",
    "\uABF5",
    "\uABF6",
    "\uABF7",
    "\uABF8",
    "\uABF9"
  ],
  "mymr": [
    "\u1040",
    "\u1041",
    "\u1042",
    "\u1043",
    "\u1044",
    "\u1045",
    "\u1046",
    "\u1047",
    "\u1048",
    "\u1049"
  ],
  "mymrepka": [
    "\u{116DA}",
    "\u{116DB}",
    "\u{116DC}",
    "\u{116DD}",
    "\u{116DE}",
    "\u{116DF}",
    "\u{116E0}",
    "\u{116E1}",
    "\u{116E2}",
    "\u{116E3}"
  ],
  "mymrpao": [
    "\u{116D0}",
    "\u{116D1}",
    "\u{116D2}",
    "\u{116D3}",
    "\u{116D4}",
    "\u{116D5}",
    "\u{116D6}",
    "\u{116D7}",
    "\u{116D8}",
    "\u{116D9}"
  ],
  "mymrshan": [
    "\u1090",
    "\u1091",
    "\u1092",
    "\u1093",
    "\u1094",
    "\u1095",
    "\u1096",
    "\u1097",
    "\u1098",
    "\u1099"
  ],
  "mymrtlng": [
    "\uA9F0",
    "\uA9F1",
    "\uA9F2",
    "\uA9F3",
    "\uA9F4",
    "\uA9F5",
    "\uA9F6",
    "\uA9F7",
    "\uA9F8",
    "\uA9F9"
  ],
  "nagm": [
    "\u{1E4F0}",
    "\u{1E4F1}",
    "\u{1E4F2}",
    "\u{1E4F3}",
    "\u{1E4F4}",
    "\u{1E4F5}",
    "\u{1E4F6}",
    "\u{1E4F7}",
    "\u{1E4F8}",
    "\u{1E4F9}"
  ],
  "newa": [
    "\u{11450}",
    "\u{11451}",
    "\u{11452}",
    "\u{11453}",
    "\u{11454}",
    "\u{11455}",
    "\u{11456}",
    "\u{11457}",
    "\u{11458}",
    "\u{11459}"
  ],
  "nkoo": [
    "\u07C0",
    "\u07C1",
    "\u07C2",
    "\u07C3",
    "\u07C4",
    "\u07C5",
    "\u07C6",
    "\u07C7",
    "\u07C8",
    "\u07C9"
  ],
  "olck": [
    "\u1C50",
    "\u1C51",
    "\u1C52",
    "\u1C53",
    "\u1C54",
    "\u1C55",
    "\u1C56",
    "\u1C57",
    "\u1C58",
    "\u1C59"
  ],
  "onao": [
    "\u{1E5F1}",
    "\u{1E5F2}",
    "\u{1E5F3}",
    "\u{1E5F4}",
    "\u{1E5F5}",
    "\u{1E5F6}",
    "\u{1E5F7}",
    "\u{1E5F8}",
    "\u{1E5F9}",
    "\u{1E5FA}"
  ],
  "orya": [
    "\u0B66",
    "\u0B67",
    "\u0B68",
    "\u0B69",
    "\u0B6A",
    "\u0B6B",
    "\u0B6C",
    "\u0B6D",
    "\u0B6E",
    "\u0B6F"
  ],
  "osma": [
    "\u{104A0}",
    "\u{104A1}",
    "\u{104A2}",
    "\u{104A3}",
    "\u{104A4}",
    "\u{104A5}",
    "\u{104A6}",
    "\u{104A7}",
    "\u{104A8}",
    "\u{104A9}"
  ],
  "outlined": [
    "\u{1CCF0}",
    "\u{1CCF1}",
    "\u{1CCF2}",
    "\u{1CCF3}",
    "\u{1CCF4}",
    "\u{1CCF5}",
    "\u{1CCF6}",
    "\u{1CCF7}",
    "\u{1CCF8}",
    "\u{1CCF9}"
  ],
  "rohg": [
    "\u{10D30}",
    "\u{10D31}",
    "\u{10D32}",
    "\u{10D33}",
    "\u{10D34}",
    "\u{10D35}",
    "\u{10D36}",
    "\u{10D37}",
    "\u{10D38}",
    "\u{10D39}"
  ],
  "saur": [
    "\uA8D0",
    "\uA8D1",
    "\uA8D2",
    "\uA8D3",
    "\uA8D4",
    "\uA8D5",
    "\uA8D6",
    "\uA8D7",
    "\uA8D8",
    "\uA8D9"
  ],
  "segment": [
    "\u{1FBF0}",
    "\u{1FBF1}",
    "\u{1FBF2}",
    "\u{1FBF3}",
    "\u{1FBF4}",
    "\u{1FBF5}",
    "\u{1FBF6}",
    "\u{1FBF7}",
    "\u{1FBF8}",
    "\u{1FBF9}"
  ],
  "shrd": [
    "\u{111D0}",
    "\u{111D1}",
    "\u{111D2}",
    "\u{111D3}",
    "\u{111D4}",
    "\u{111D5}",
    "\u{111D6}",
    "\u{111D7}",
    "\u{111D8}",
    "\u{111D9}"
  ],
  "sind": [
    "\u{112F0}",
    "\u{112F1}",
    "\u{112F2}",
    "\u{112F3}",
    "\u{112F4}",
    "\u{112F5}",
    "\u{112F6}",
    "\u{112F7}",
    "\u{112F8}",
    "\u{112F9}"
  ],
  "sinh": [
    "\u0DE6",
    "\u0DE7",
    "\u0DE8",
    "\u0DE9",
    "\u0DEA",
    "\u0DEB",
    "\u0DEC",
    "\u0DED",
    "\u0DEE",
    "\u0DEF"
  ],
  "sora": [
    "\u{110F0}",
    "\u{110F1}",
    "\u{110F2}",
    "\u{110F3}",
    "\u{110F4}",
    "\u{110F5}",
    "\u{110F6}",
    "\u{110F7}",
    "\u{110F8}",
    "\u{110F9}"
  ],
  "sund": [
    "\u1BB0",
    "\u1BB1",
    "\u1BB2",
    "\u1BB3",
    "\u1BB4",
    "\u1BB5",
    "\u1BB6",
    "\u1BB7",
    "\u1BB8",
    "\u1BB9"
  ],
  "sunu": [
    "\u{11BF0}",
    "\u{11BF1}",
    "\u{11BF2}",
    "\u{11BF3}",
    "\u{11BF4}",
    "\u{11BF5}",
    "\u{11BF6}",
    "\u{11BF7}",
    "\u{11BF8}",
    "\u{11BF9}"
  ],
  "takr": [
    "\u{116C0}",
    "\u{116C1}",
    "\u{116C2}",
    "\u{116C3}",
    "\u{116C4}",
    "\u{116C5}",
    "\u{116C6}",
    "\u{116C7}",
    "\u{116C8}",
    "\u{116C9}"
  ],
  "talu": [
    "\u19D0",
    "\u19D1",
    "\u19D2",
    "\u19D3",
    "\u19D4",
    "\u19D5",
    "\u19D6",
    "\u19D7",
    "\u19D8",
    "\u19D9"
  ],
  "tamldec": [
    "\u0BE6",
    "\u0BE7",
    "\u0BE8",
    "\u0BE9",
    "\u0BEA",
    "\u0BEB",
    "\u0BEC",
    "\u0BED",
    "\u0BEE",
    "\u0BEF"
  ],
  "telu": [
    "\u0C66",
    "\u0C67",
    "\u0C68",
    "\u0C69",
    "\u0C6A",
    "\u0C6B",
    "\u0C6C",
    "\u0C6D",
    "\u0C6E",
    "\u0C6F"
  ],
  "thai": [
    "\u0E50",
    "\u0E51",
    "\u0E52",
    "\u0E53",
    "\u0E54",
    "\u0E55",
    "\u0E56",
    "\u0E57",
    "\u0E58",
    "\u0E59"
  ],
  "tibt": [
    "\u0F20",
    "\u0F21",
    "\u0F22",
    "\u0F23",
    "\u0F24",
    "\u0F25",
    "\u0F26",
    "\u0F27",
    "\u0F28",
    "\u0F29"
  ],
  "tirh": [
    "\u{114D0}",
    "\u{114D1}",
    "\u{114D2}",
    "\u{114D3}",
    "\u{114D4}",
    "\u{114D5}",
    "\u{114D6}",
    "\u{114D7}",
    "\u{114D8}",
    "\u{114D9}"
  ],
  "tnsa": [
    "\u{16AC0}",
    "\u{16AC1}",
    "\u{16AC2}",
    "\u{16AC3}",
    "\u{16AC4}",
    "\u{16AC5}",
    "\u{16AC6}",
    "\u{16AC7}",
    "\u{16AC8}",
    "\u{16AC9}"
  ],
  "tols": [
    "\u{11DE0}",
    "\u{11DE1}",
    "\u{11DE2}",
    "\u{11DE3}",
    "\u{11DE4}",
    "\u{11DE5}",
    "\u{11DE6}",
    "\u{11DE7}",
    "\u{11DE8}",
    "\u{11DE9}"
  ],
  "vaii": [
    "\uA620",
    "\uA621",
    "\uA622",
    "\uA623",
    "\uA624",
    "\uA625",
    "\uA626",
    "\uA627",
    "\uA628",
    "\uA629"
  ],
  "wara": [
    "\u{118E0}",
    "\u{118E1}",
    "\u{118E2}",
    "\u{118E3}",
    "\u{118E4}",
    "\u{118E5}",
    "\u{118E6}",
    "\u{118E7}",
    "\u{118E8}",
    "\u{118E9}"
  ],
  "wcho": [
    "\u{1E2F0}",
    "\u{1E2F1}",
    "\u{1E2F2}",
    "\u{1E2F3}",
    "\u{1E2F4}",
    "\u{1E2F5}",
    "\u{1E2F6}",
    "\u{1E2F7}",
    "\u{1E2F8}",
    "\u{1E2F9}"
  ]
};
const CARET_S_UNICODE_REGEX = new RegExp(`^${S_UNICODE_REGEX.source}`);
const S_DOLLAR_UNICODE_REGEX = new RegExp(`${S_UNICODE_REGEX.source}$`);
const CLDR_NUMBER_PATTERN = /[#0](?:[.,][#0]+)*/g;
function formatToParts$1(numberResult, data, pl, options, approximately = false) {
  const { sign, exponent, magnitude } = numberResult;
  const { notation, style, numberingSystem } = options;
  const defaultNumberingSystem = data.numbers.nu[0];
  const symbols = data.numbers.symbols[numberingSystem] || data.numbers.symbols[defaultNumberingSystem];
  approximately = approximately && !!symbols.approximatelySign;
  let compactNumberPattern = null;
  if (notation === "compact" && magnitude) compactNumberPattern = getCompactDisplayPattern(numberResult, pl, data, style, options.compactDisplay, options.currencyDisplay, numberingSystem);
  let nonNameCurrencyPart;
  if (style === "currency" && options.currencyDisplay !== "name") {
    const byCurrencyDisplay = data.currencies[options.currency];
    if (byCurrencyDisplay) switch (options.currencyDisplay) {
      case "code":
        nonNameCurrencyPart = options.currency;
        break;
      case "symbol":
        nonNameCurrencyPart = byCurrencyDisplay.symbol;
        break;
      default:
        nonNameCurrencyPart = byCurrencyDisplay.narrow;
    }
    else nonNameCurrencyPart = options.currency;
  }
  let numberPattern;
  if (!compactNumberPattern) {
    if (style === "decimal" || style === "unit" || style === "currency" && options.currencyDisplay === "name") numberPattern = getPatternForSign((data.numbers.decimal[numberingSystem] || data.numbers.decimal[defaultNumberingSystem]).standard, sign, approximately);
    else if (style === "currency") numberPattern = getPatternForSign((data.numbers.currency[numberingSystem] || data.numbers.currency[defaultNumberingSystem])[options.currencySign], sign, approximately);
    else numberPattern = getPatternForSign(data.numbers.percent[numberingSystem] || data.numbers.percent[defaultNumberingSystem], sign, approximately);
  } else numberPattern = approximately ? insertApproximatelySign(compactNumberPattern, sign) : compactNumberPattern;
  const decimalNumberPattern = CLDR_NUMBER_PATTERN.exec(numberPattern)[0];
  numberPattern = numberPattern.replace(CLDR_NUMBER_PATTERN, "{0}").replace(/'(.)'/g, "$1");
  if (style === "currency" && options.currencyDisplay !== "name") {
    const currencyData = data.numbers.currency[numberingSystem] || data.numbers.currency[defaultNumberingSystem];
    const afterCurrency = currencyData.currencySpacing.afterInsertBetween;
    if (afterCurrency && !S_DOLLAR_UNICODE_REGEX.test(nonNameCurrencyPart)) numberPattern = numberPattern.replace("\xA4{0}", `\xA4${afterCurrency}{0}`);
    const beforeCurrency = currencyData.currencySpacing.beforeInsertBetween;
    if (beforeCurrency && !CARET_S_UNICODE_REGEX.test(nonNameCurrencyPart)) numberPattern = numberPattern.replace("{0}\xA4", `{0}${beforeCurrency}\xA4`);
  }
  const numberPatternParts = numberPattern.split(/({c:[^}]+}|\{approximatelySign\}|\{0\}|[¤%\-+])/g);
  const numberParts = [];
  for (const part of numberPatternParts) {
    if (!part) continue;
    switch (part) {
      case "{0}":
        numberParts.push(...partitionNumberIntoParts(symbols, numberResult, notation, exponent, numberingSystem, !compactNumberPattern && (options.useGrouping ?? true), decimalNumberPattern, data.numbers.minimumGroupingDigits ?? 1, style, options.roundingIncrement, GetUnsignedRoundingMode(options.roundingMode, sign === -1)));
        break;
      case "{approximatelySign}":
        numberParts.push({
          type: "approximatelySign",
          value: symbols.approximatelySign
        });
        break;
      case "-":
        numberParts.push({
          type: "minusSign",
          value: symbols.minusSign
        });
        break;
      case "+":
        numberParts.push({
          type: "plusSign",
          value: symbols.plusSign
        });
        break;
      case "%":
        numberParts.push({
          type: "percentSign",
          value: symbols.percentSign
        });
        break;
      case "\xA4":
        numberParts.push({
          type: "currency",
          value: nonNameCurrencyPart
        });
        break;
      default:
        if (part.startsWith("{c:")) numberParts.push({
          type: "compact",
          value: part.substring(3, part.length - 1)
        });
        else numberParts.push({
          type: "literal",
          value: part
        });
    }
  }
  switch (style) {
    case "currency":
      if (options.currencyDisplay === "name") {
        const unitPattern = (data.numbers.currency[numberingSystem] || data.numbers.currency[defaultNumberingSystem]).unitPattern;
        let unitName;
        const currencyNameData = data.currencies[options.currency];
        if (currencyNameData) unitName = selectPlural(pl, numberResult.roundedNumber.times(getPowerOf10(exponent)).toNumber(), currencyNameData.displayName);
        else unitName = options.currency;
        const unitPatternParts = unitPattern.split(/(\{[01]\})/g);
        const result = [];
        for (const part of unitPatternParts) switch (part) {
          case "{0}":
            result.push(...numberParts);
            break;
          case "{1}":
            result.push({
              type: "currency",
              value: unitName
            });
            break;
          default:
            if (part) result.push({
              type: "literal",
              value: part
            });
        }
        return result;
      } else return numberParts;
    case "unit": {
      const { unit, unitDisplay } = options;
      let unitData = data.units.simple[unit];
      let unitPattern;
      if (unitData) unitPattern = selectPlural(pl, numberResult.roundedNumber.times(getPowerOf10(exponent)).toNumber(), data.units.simple[unit][unitDisplay]);
      else {
        const [numeratorUnit, denominatorUnit] = unit.split("-per-");
        unitData = data.units.simple[numeratorUnit];
        const numeratorUnitPattern = selectPlural(pl, numberResult.roundedNumber.times(getPowerOf10(exponent)).toNumber(), data.units.simple[numeratorUnit][unitDisplay]);
        const perUnitPattern = data.units.simple[denominatorUnit].perUnit[unitDisplay];
        if (perUnitPattern) unitPattern = perUnitPattern.replace("{0}", numeratorUnitPattern);
        else {
          const perPattern = data.units.compound.per[unitDisplay];
          const denominatorPattern = selectPlural(pl, 1, data.units.simple[denominatorUnit][unitDisplay]);
          unitPattern = unitPattern = perPattern.replace("{0}", numeratorUnitPattern).replace("{1}", denominatorPattern.replace("{0}", ""));
        }
      }
      const result = [];
      for (const part of unitPattern.split(/(\s*\{0\}\s*)/)) {
        const interpolateMatch = /^(\s*)\{0\}(\s*)$/.exec(part);
        if (interpolateMatch) {
          if (interpolateMatch[1]) result.push({
            type: "literal",
            value: interpolateMatch[1]
          });
          result.push(...numberParts);
          if (interpolateMatch[2]) result.push({
            type: "literal",
            value: interpolateMatch[2]
          });
        } else if (part) result.push({
          type: "unit",
          value: part
        });
      }
      return result;
    }
    default:
      return numberParts;
  }
}
function partitionNumberIntoParts(symbols, numberResult, notation, exponent, numberingSystem, useGrouping, decimalNumberPattern, minimumGroupingDigits, style, roundingIncrement, unsignedRoundingMode) {
  const result = [];
  let { formattedString: n, roundedNumber: x } = numberResult;
  if (x.isNaN()) return [{
    type: "nan",
    value: n
  }];
  else if (!x.isFinite()) return [{
    type: "infinity",
    value: n
  }];
  const asciiDecimalSepIndex = n.indexOf(".");
  const integerDigitCount = asciiDecimalSepIndex < 0 ? n.length : asciiDecimalSepIndex;
  const digitReplacementTable = digitMapping[numberingSystem];
  if (digitReplacementTable) n = n.replace(/\d/g, (digit) => digitReplacementTable[+digit] || digit);
  const decimalSepIndex = n.indexOf(".");
  let integer;
  let fraction;
  if (decimalSepIndex > 0) {
    integer = n.slice(0, decimalSepIndex);
    fraction = n.slice(decimalSepIndex + 1);
  } else integer = n;
  const patternGroups = decimalNumberPattern.split(".")[0].split(",");
  const primaryGroupingSize = patternGroups.length > 1 ? patternGroups[patternGroups.length - 1].length : 3;
  const secondaryGroupingSize = patternGroups.length > 2 ? patternGroups[patternGroups.length - 2].length : primaryGroupingSize;
  if (Boolean(useGrouping) && (useGrouping === "always" || integerDigitCount >= primaryGroupingSize + (useGrouping === "min2" ? 2 : minimumGroupingDigits))) {
    const groupSepSymbol = style === "currency" && symbols.currencyGroup != null ? symbols.currencyGroup : symbols.group;
    const groups = [];
    const codePoints = integer.length === integerDigitCount ? void 0 : Array.from(integer);
    let end = integerDigitCount;
    let groupSize = primaryGroupingSize;
    while (end > 0) {
      const start = Math.max(0, end - groupSize);
      groups.push(codePoints ? codePoints.slice(start, end).join("") : integer.slice(start, end));
      end = start;
      groupSize = secondaryGroupingSize;
    }
    while (groups.length > 0) {
      const integerGroup = groups.pop();
      result.push({
        type: "integer",
        value: integerGroup
      });
      if (groups.length > 0) result.push({
        type: "group",
        value: groupSepSymbol
      });
    }
  } else result.push({
    type: "integer",
    value: integer
  });
  if (fraction !== void 0) {
    const decimalSepSymbol = style === "currency" && symbols.currencyDecimal != null ? symbols.currencyDecimal : symbols.decimal;
    result.push({
      type: "decimal",
      value: decimalSepSymbol
    }, {
      type: "fraction",
      value: fraction
    });
  }
  if ((notation === "scientific" || notation === "engineering") && x.isFinite()) {
    result.push({
      type: "exponentSeparator",
      value: symbols.exponential
    });
    if (exponent < 0) {
      result.push({
        type: "exponentMinusSign",
        value: symbols.minusSign
      });
      exponent = -exponent;
    }
    const exponentResult = ToRawFixed(new import_bigdecimal.Decimal(exponent), 0, 0, roundingIncrement, unsignedRoundingMode);
    result.push({
      type: "exponentInteger",
      value: exponentResult.formattedString
    });
  }
  return result;
}
function getPatternForSign(pattern, sign, approximately = false) {
  if (pattern.indexOf(";") < 0) pattern = `${pattern};-${pattern}`;
  const [zeroPattern, negativePattern] = pattern.split(";");
  if (sign === 0 && approximately && negativePattern.includes("-")) return negativePattern.replace("-", "{approximatelySign}");
  let signedPattern = zeroPattern;
  if (sign === -1) signedPattern = negativePattern;
  else if (sign === 1) signedPattern = negativePattern.includes("-") ? negativePattern.replace(/-/g, "+") : `+${zeroPattern}`;
  return approximately ? insertApproximatelySign(signedPattern, sign) : signedPattern;
}
function insertApproximatelySign(pattern, sign) {
  const symbol = sign === 1 ? "+" : "-";
  const index = sign === 0 ? -1 : pattern.indexOf(symbol);
  return index < 0 ? `{approximatelySign}${pattern}` : `${pattern.slice(0, index)}{approximatelySign}${pattern.slice(index)}`;
}
function getCompactDisplayPattern(numberResult, pl, data, style, compactDisplay, currencyDisplay, numberingSystem) {
  const { roundedNumber, sign, magnitude } = numberResult;
  let magnitudeKey = String(10 ** magnitude);
  const defaultNumberingSystem = data.numbers.nu[0];
  let pattern;
  if (style === "currency" && currencyDisplay !== "name") {
    const byNumberingSystem = data.numbers.currency;
    const currencyData = byNumberingSystem[numberingSystem] || byNumberingSystem[defaultNumberingSystem];
    let compactPluralRules = currencyData.short?.[magnitudeKey];
    if (!compactPluralRules) {
      const thresholds = Object.keys(currencyData.short || {});
      if (thresholds.length > 0 && magnitudeKey > thresholds[thresholds.length - 1]) {
        magnitudeKey = thresholds[thresholds.length - 1];
        compactPluralRules = currencyData.short?.[magnitudeKey];
      }
    }
    if (!compactPluralRules) return null;
    pattern = selectPlural(pl, roundedNumber.toNumber(), compactPluralRules);
  } else {
    const byNumberingSystem = data.numbers.decimal;
    const byCompactDisplay = byNumberingSystem[numberingSystem] || byNumberingSystem[defaultNumberingSystem];
    let compactPlaralRule = byCompactDisplay[compactDisplay][magnitudeKey];
    if (!compactPlaralRule) {
      const thresholds = Object.keys(byCompactDisplay[compactDisplay]);
      if (thresholds.length > 0 && magnitudeKey > thresholds[thresholds.length - 1]) {
        magnitudeKey = thresholds[thresholds.length - 1];
        compactPlaralRule = byCompactDisplay[compactDisplay][magnitudeKey];
      }
    }
    if (!compactPlaralRule) return null;
    pattern = selectPlural(pl, roundedNumber.toNumber(), compactPlaralRule);
  }
  if (pattern === "0") return null;
  pattern = getPatternForSign(pattern, sign).replace(/([^\s;\-+\d¤]+)/g, "{c:$1}").replace(/0+/, "0");
  return pattern;
}
function selectPlural(pl, x, rules) {
  return rules[pl.select(x)] || rules.other;
}
function PartitionNumberPattern(internalSlots, _x, approximately = false) {
  let x = _x;
  let magnitude = 0;
  const { pl, dataLocaleData, numberingSystem } = internalSlots;
  const symbols = dataLocaleData.numbers.symbols[numberingSystem] || dataLocaleData.numbers.symbols[dataLocaleData.numbers.nu[0]];
  let exponent = 0;
  let n;
  if (x.isNaN()) n = symbols.nan;
  else if (!x.isFinite()) n = symbols.infinity;
  else {
    if (!x.isZero()) {
      invariant$1(x.isFinite(), "Input must be a mathematical value");
      if (internalSlots.style == "percent") x = x.times(100);
      [exponent, magnitude] = ComputeExponent(internalSlots, x);
      x = x.times(getPowerOf10(-exponent));
    }
    const formatNumberResult = FormatNumericToString(internalSlots, x);
    n = formatNumberResult.formattedString;
    x = formatNumberResult.roundedNumber;
  }
  let sign;
  const signDisplay = internalSlots.signDisplay;
  switch (signDisplay) {
    case "never":
      sign = 0;
      break;
    case "auto":
      if (x.isPositive() || x.isNaN()) sign = 0;
      else sign = -1;
      break;
    case "always":
      if (x.isPositive() || x.isNaN()) sign = 1;
      else sign = -1;
      break;
    case "exceptZero":
      if (x.isZero() || x.isNaN()) sign = 0;
      else if (x.isNegative()) sign = -1;
      else sign = 1;
      break;
    default:
      invariant$1(signDisplay === "negative", 'signDisplay must be "negative"');
      if (x.isNegative() && !x.isZero()) sign = -1;
      else sign = 0;
  }
  return formatToParts$1({
    roundedNumber: x,
    formattedString: n,
    exponent,
    magnitude,
    sign
  }, internalSlots.dataLocaleData, pl, internalSlots, approximately);
}
function FormatNumeric(internalSlots, x) {
  return PartitionNumberPattern(internalSlots, x).map((p) => p.value).join("");
}
const AFFIX_TYPES = /* @__PURE__ */ new Set([
  "unit",
  "minusSign",
  "plusSign",
  "percentSign",
  "currency",
  "literal"
]);
const DIGIT_TYPES = /* @__PURE__ */ new Set([
  "integer",
  "fraction",
  "exponentInteger"
]);
function affixLength(parts, fromEnd) {
  let length = 0;
  while (length < parts.length) {
    const part = parts[fromEnd ? parts.length - length - 1 : length];
    if (!AFFIX_TYPES.has(part.type)) break;
    length++;
  }
  return length;
}
function canCollapse(a, b, sharedSuffix = false) {
  return a.length === b.length && a.some((part) => part.type !== "literal") && a.every((part, i) => part.type === b[i].type && part.value === b[i].value) && (Array.from(a.map((part) => part.value).join("")).length > 1 || sharedSuffix && a.length === 1 && (a[0].type === "plusSign" || a[0].type === "minusSign"));
}
function CollapseNumberRange(_numberFormat, result, _options) {
  const separatorIndex = result.findIndex((part) => part.source === "shared");
  if (separatorIndex < 0) return result;
  const start = result.slice(0, separatorIndex);
  const end = result.slice(separatorIndex + 1);
  const separator = { ...result[separatorIndex] };
  const prefix = [];
  const suffix = [];
  const startPrefix = start.slice(0, affixLength(start, false));
  const endPrefix = end.slice(0, affixLength(end, false));
  const startSuffixLength = affixLength(start, true);
  const endSuffixLength = affixLength(end, true);
  const startSuffix = start.slice(start.length - startSuffixLength);
  const collapseSuffix = canCollapse(startSuffix, end.slice(end.length - endSuffixLength));
  if (canCollapse(startPrefix, endPrefix, collapseSuffix && startSuffix.some((part) => part.type === "currency" || part.type === "unit" || part.type === "percentSign"))) {
    prefix.push(...start.splice(0, startPrefix.length));
    end.splice(0, endPrefix.length);
  }
  if (collapseSuffix) {
    start.splice(start.length - startSuffixLength);
    suffix.push(...end.splice(end.length - endSuffixLength));
  }
  for (const part of [...prefix, ...suffix]) part.source = "shared";
  if (start.length && end.length && (!DIGIT_TYPES.has(start[start.length - 1].type) || !DIGIT_TYPES.has(end[0].type))) {
    if (!separator.value || separator.value.charAt(0).trim()) separator.value = ` ${separator.value}`;
    if (separator.value.charAt(separator.value.length - 1).trim()) separator.value += " ";
  }
  return [
    ...prefix,
    ...start,
    separator,
    ...end,
    ...suffix
  ];
}
function FormatApproximately(internalSlots, x) {
  return PartitionNumberPattern(internalSlots, x, true);
}
function PartitionNumberRangePattern(numberFormat, x, y, { getInternalSlots: getInternalSlots2 }) {
  invariant$1(!x.isNaN() && !y.isNaN(), "Input must be a number", RangeError);
  const internalSlots = getInternalSlots2(numberFormat);
  const xResult = PartitionNumberPattern(internalSlots, x);
  const yResult = PartitionNumberPattern(internalSlots, y);
  if (xResult.map((part) => part.value).join("") === yResult.map((part) => part.value).join("")) {
    const appxResult = FormatApproximately(internalSlots, x);
    appxResult.forEach((el) => {
      el.source = "shared";
    });
    return appxResult;
  }
  let result = [];
  xResult.forEach((el) => {
    el.source = "startRange";
    result.push(el);
  });
  const rangeSeparator = internalSlots.dataLocaleData.numbers.symbols[internalSlots.numberingSystem].rangeSign;
  result.push({
    type: "literal",
    value: rangeSeparator,
    source: "shared"
  });
  yResult.forEach((el) => {
    el.source = "endRange";
    result.push(el);
  });
  return CollapseNumberRange(numberFormat, result, { getInternalSlots: getInternalSlots2 });
}
function FormatNumericRange(numberFormat, x, y, { getInternalSlots: getInternalSlots2 }) {
  return PartitionNumberRangePattern(numberFormat, x, y, { getInternalSlots: getInternalSlots2 }).map((part) => part.value).join("");
}
function FormatNumericRangeToParts(numberFormat, x, y, { getInternalSlots: getInternalSlots2 }) {
  return PartitionNumberRangePattern(numberFormat, x, y, { getInternalSlots: getInternalSlots2 }).map((part) => ({
    type: part.type,
    value: part.value,
    source: part.source
  }));
}
function ArrayCreate(len) {
  return Array.from({ length: len });
}
function FormatNumericToParts(nf, x, implDetails) {
  const parts = PartitionNumberPattern(implDetails.getInternalSlots(nf), x);
  const result = ArrayCreate(0);
  for (const part of parts) result.push({
    type: part.type,
    value: part.value
  });
  return result;
}
function IsUnicodeLocaleIdentifierType(value) {
  return /^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*(?![\s\S])/i.test(value);
}
function ToObject(arg) {
  if (arg == null) throw new TypeError("undefined/null cannot be converted to object");
  return Object(arg);
}
function CoerceOptionsToObject(options) {
  if (typeof options === "undefined") return /* @__PURE__ */ Object.create(null);
  return ToObject(options);
}
function ToString(o) {
  if (typeof o === "symbol") throw TypeError("Cannot convert a Symbol value to a string");
  return String(o);
}
function GetOption(opts, prop, type, values, fallback) {
  if (opts === null || typeof opts !== "object" && typeof opts !== "function") throw new TypeError("Options must be an object");
  let value = opts[prop];
  if (value !== void 0) {
    if (type !== "boolean" && type !== "string") throw new TypeError("invalid type");
    if (type === "boolean") value = Boolean(value);
    if (type === "string") value = ToString(value);
    if (values !== void 0 && !values.filter((val) => val == value).length) throw new RangeError(`${value} is not within ${values.join(", ")}`);
    return value;
  }
  return fallback;
}
function GetStringOrBooleanOption(opts, prop, values, trueValue, falsyValue, fallback) {
  let value = opts[prop];
  if (value === void 0) return fallback;
  if (value === true) return trueValue;
  if (Boolean(value) === false) return falsyValue;
  value = ToString(value);
  if (value === "true" || value === "false") return fallback;
  if ((values || []).indexOf(value) === -1) throw new RangeError(`Invalid value ${value}`);
  return value;
}
function HasOwnProperty(o, prop) {
  return Object.prototype.hasOwnProperty.call(o, prop);
}
function CurrencyDigits(c, { currencyDigitsData: currencyDigitsData2 }) {
  return HasOwnProperty(currencyDigitsData2, c) ? currencyDigitsData2[c] : 2;
}
function DefaultNumberOption(inputVal, min, max, fallback) {
  if (inputVal === void 0) return fallback;
  const val = +inputVal;
  if (isNaN(val) || val < min || val > max) throw new RangeError(`${val} is outside of range [${min}, ${max}]`);
  return Math.floor(val);
}
function GetNumberOption(options, property, minimum, maximum, fallback) {
  const val = options[property];
  return DefaultNumberOption(val, minimum, maximum, fallback);
}
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
  invariant$1(VALID_ROUNDING_INCREMENTS.has(roundingIncrement), `Invalid rounding increment value: ${roundingIncrement}.
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
        invariant$1(mxfd !== void 0, "maximumFractionDigits must be defined");
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
    invariant$1(internalSlots.roundingType === "fractionDigits", "Invalid roundingType", TypeError);
    invariant$1(internalSlots.maximumFractionDigits === internalSlots.minimumFractionDigits, "With roundingIncrement > 1, maximumFractionDigits and minimumFractionDigits must be equal.", RangeError);
  }
}
function toUpperCase(str) {
  return str.replace(/([a-z])/g, (_, c) => c.toUpperCase());
}
const NOT_A_Z_REGEX = /[^A-Z]/;
function IsWellFormedCurrencyCode(currency) {
  currency = toUpperCase(currency);
  if (currency.length !== 3) return false;
  if (NOT_A_Z_REGEX.test(currency)) return false;
  return true;
}
const SANCTIONED_UNITS = [
  "angle-degree",
  "area-acre",
  "area-hectare",
  "concentr-percent",
  "digital-bit",
  "digital-byte",
  "digital-gigabit",
  "digital-gigabyte",
  "digital-kilobit",
  "digital-kilobyte",
  "digital-megabit",
  "digital-megabyte",
  "digital-petabyte",
  "digital-terabit",
  "digital-terabyte",
  "duration-day",
  "duration-hour",
  "duration-microsecond",
  "duration-millisecond",
  "duration-minute",
  "duration-month",
  "duration-nanosecond",
  "duration-second",
  "duration-week",
  "duration-year",
  "length-centimeter",
  "length-foot",
  "length-inch",
  "length-kilometer",
  "length-meter",
  "length-mile-scandinavian",
  "length-mile",
  "length-millimeter",
  "length-yard",
  "mass-gram",
  "mass-kilogram",
  "mass-ounce",
  "mass-pound",
  "mass-stone",
  "temperature-celsius",
  "temperature-fahrenheit",
  "volume-fluid-ounce",
  "volume-gallon",
  "volume-liter",
  "volume-milliliter"
];
function removeUnitNamespace(unit) {
  return unit.slice(unit.indexOf("-") + 1);
}
const SIMPLE_UNITS = SANCTIONED_UNITS.map(removeUnitNamespace);
function IsSanctionedSimpleUnitIdentifier(unitIdentifier) {
  return SIMPLE_UNITS.indexOf(unitIdentifier) > -1;
}
function IsWellFormedUnitIdentifier(unit) {
  if (IsSanctionedSimpleUnitIdentifier(unit)) return true;
  const units = unit.split("-per-");
  if (units.length !== 2) return false;
  const [numerator, denominator] = units;
  if (!IsSanctionedSimpleUnitIdentifier(numerator) || !IsSanctionedSimpleUnitIdentifier(denominator)) return false;
  return true;
}
function SetNumberFormatUnitOptions(internalSlots, options = /* @__PURE__ */ Object.create(null)) {
  const style = GetOption(options, "style", "string", [
    "decimal",
    "percent",
    "currency",
    "unit"
  ], "decimal");
  internalSlots.style = style;
  const currency = GetOption(options, "currency", "string", void 0, void 0);
  invariant$1(currency === void 0 || IsWellFormedCurrencyCode(currency), "Malformed currency code", RangeError);
  invariant$1(style !== "currency" || currency !== void 0, "currency cannot be undefined", TypeError);
  const currencyDisplay = GetOption(options, "currencyDisplay", "string", [
    "code",
    "symbol",
    "narrowSymbol",
    "name"
  ], "symbol");
  const currencySign = GetOption(options, "currencySign", "string", ["standard", "accounting"], "standard");
  const unit = GetOption(options, "unit", "string", void 0, void 0);
  invariant$1(unit === void 0 || IsWellFormedUnitIdentifier(unit), "Invalid unit argument for Intl.NumberFormat()", RangeError);
  invariant$1(style !== "unit" || unit !== void 0, "unit cannot be undefined", TypeError);
  const unitDisplay = GetOption(options, "unitDisplay", "string", [
    "short",
    "narrow",
    "long"
  ], "short");
  if (style === "currency") {
    internalSlots.currency = currency.toUpperCase();
    internalSlots.currencyDisplay = currencyDisplay;
    internalSlots.currencySign = currencySign;
  }
  if (style === "unit") {
    internalSlots.unit = unit;
    internalSlots.unitDisplay = unitDisplay;
  }
}
function InitializeNumberFormat(nf, locales, opts, { getInternalSlots: getInternalSlots2, localeData, availableLocales, getDefaultLocale, currencyDigitsData: currencyDigitsData2 }) {
  const requestedLocales = CanonicalizeLocaleList(locales);
  const options = CoerceOptionsToObject(opts);
  const opt = /* @__PURE__ */ Object.create(null);
  opt.localeMatcher = GetOption(options, "localeMatcher", "string", ["lookup", "best fit"], "best fit");
  const numberingSystem = GetOption(options, "numberingSystem", "string", void 0, void 0);
  if (numberingSystem !== void 0 && !IsUnicodeLocaleIdentifierType(numberingSystem)) throw RangeError(`Invalid numberingSystems: ${numberingSystem}`);
  opt.nu = numberingSystem;
  const r = (0, import_intl_localematcher.ResolveLocale)(Array.from(availableLocales), requestedLocales, opt, ["nu"], localeData, getDefaultLocale);
  const dataLocaleData = localeData[r.dataLocale];
  invariant$1(!!dataLocaleData, `Missing locale data for ${r.dataLocale}`);
  const internalSlots = getInternalSlots2(nf);
  internalSlots.locale = r.locale;
  internalSlots.dataLocale = r.dataLocale;
  internalSlots.numberingSystem = r.nu;
  internalSlots.dataLocaleData = dataLocaleData;
  SetNumberFormatUnitOptions(internalSlots, options);
  const style = internalSlots.style;
  const notation = GetOption(options, "notation", "string", [
    "standard",
    "scientific",
    "engineering",
    "compact"
  ], "standard");
  internalSlots.notation = notation;
  let mnfdDefault;
  let mxfdDefault;
  if (style === "currency" && notation === "standard") {
    const currency = internalSlots.currency;
    const cDigits = CurrencyDigits(currency, { currencyDigitsData: currencyDigitsData2 });
    mnfdDefault = cDigits;
    mxfdDefault = cDigits;
  } else {
    mnfdDefault = 0;
    mxfdDefault = style === "percent" ? 0 : 3;
  }
  SetNumberFormatDigitOptions(internalSlots, options, mnfdDefault, mxfdDefault, notation);
  const compactDisplay = GetOption(options, "compactDisplay", "string", ["short", "long"], "short");
  let defaultUseGrouping = "auto";
  if (notation === "compact") {
    internalSlots.compactDisplay = compactDisplay;
    defaultUseGrouping = "min2";
  }
  internalSlots.useGrouping = GetStringOrBooleanOption(options, "useGrouping", [
    "min2",
    "auto",
    "always"
  ], "always", false, defaultUseGrouping);
  internalSlots.signDisplay = GetOption(options, "signDisplay", "string", [
    "auto",
    "never",
    "always",
    "exceptZero",
    "negative"
  ], "auto");
  return nf;
}
function SupportedLocales(availableLocales, requestedLocales, options) {
  let matcher = "best fit";
  if (options !== void 0) {
    options = ToObject(options);
    matcher = GetOption(options, "localeMatcher", "string", ["lookup", "best fit"], "best fit");
  }
  if (matcher === "best fit") return (0, import_intl_localematcher.LookupSupportedLocales)(Array.from(availableLocales), requestedLocales);
  return (0, import_intl_localematcher.LookupSupportedLocales)(Array.from(availableLocales), requestedLocales);
}
function invariant(condition, message, Err = Error) {
  if (!condition) throw new Err(message);
}
function IsCallable(fn) {
  return typeof fn === "function";
}
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
        invariant(preferredType === "number", 'preferredType must be "string" or "number"');
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
const currencyDigitsData = {
  "ADP": 0,
  "AFN": 0,
  "ALL": 0,
  "AMD": 2,
  "BHD": 3,
  "BIF": 0,
  "BYN": 2,
  "BYR": 0,
  "CAD": 2,
  "CHF": 2,
  "CLF": 4,
  "CLP": 0,
  "COP": 0,
  "CRC": 2,
  "CZK": 2,
  "DEFAULT": 2,
  "DJF": 0,
  "DKK": 2,
  "ESP": 0,
  "GNF": 0,
  "GYD": 2,
  "HUF": 0,
  "IDR": 0,
  "IQD": 0,
  "IRR": 0,
  "ISK": 0,
  "ITL": 0,
  "JOD": 3,
  "JPY": 0,
  "KMF": 0,
  "KPW": 0,
  "KRW": 0,
  "KWD": 3,
  "LAK": 0,
  "LBP": 0,
  "LUF": 0,
  "LYD": 3,
  "MGA": 0,
  "MGF": 0,
  "MMK": 0,
  "MNT": 2,
  "MRO": 0,
  "MUR": 2,
  "NOK": 2,
  "OMR": 3,
  "PKR": 0,
  "PYG": 0,
  "RSD": 2,
  "RWF": 0,
  "SEK": 2,
  "SLE": 2,
  "SLL": 0,
  "SOS": 0,
  "STD": 0,
  "SYP": 0,
  "TMM": 0,
  "TND": 3,
  "TRL": 0,
  "TWD": 2,
  "TZS": 2,
  "UGX": 0,
  "UYI": 0,
  "UYW": 4,
  "UZS": 2,
  "VEF": 2,
  "VND": 0,
  "VUV": 0,
  "XAD": 2,
  "XAF": 0,
  "XAU": 2,
  "XOF": 0,
  "XPF": 0,
  "YER": 0,
  "ZMK": 0,
  "ZWD": 0
};
const internalSlotMap = /* @__PURE__ */ new WeakMap();
function getInternalSlots(x, initialize = false) {
  let internalSlots = internalSlotMap.get(x);
  if (!internalSlots && initialize) {
    internalSlots = /* @__PURE__ */ Object.create(null);
    internalSlotMap.set(x, internalSlots);
  }
  if (!internalSlots) throw new TypeError("Receiver is not an initialized Intl.NumberFormat");
  return internalSlots;
}
const RESOLVED_OPTIONS_KEYS = [
  "locale",
  "numberingSystem",
  "style",
  "currency",
  "currencyDisplay",
  "currencySign",
  "unit",
  "unitDisplay",
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "useGrouping",
  "notation",
  "compactDisplay",
  "signDisplay",
  "roundingIncrement",
  "roundingMode"
];
const NumberFormat = function(locales, options) {
  if (!this || !OrdinaryHasInstance(NumberFormat, this)) return new NumberFormat(locales, options);
  InitializeNumberFormat(this, locales, options, {
    getInternalSlots: (nf) => getInternalSlots(nf, true),
    localeData: NumberFormat.localeData,
    availableLocales: NumberFormat.availableLocales,
    getDefaultLocale: NumberFormat.getDefaultLocale,
    currencyDigitsData
  });
  const internalSlots = getInternalSlots(this);
  const dataLocale = internalSlots.dataLocale;
  const dataLocaleData = NumberFormat.localeData[dataLocale];
  invariant$1(dataLocaleData !== void 0, `Cannot load locale-dependent data for ${dataLocale}.`);
  internalSlots.pl = createMemoizedPluralRules(dataLocale, Object.assign(/* @__PURE__ */ Object.create(null), {
    minimumFractionDigits: internalSlots.minimumFractionDigits,
    maximumFractionDigits: internalSlots.maximumFractionDigits,
    minimumIntegerDigits: internalSlots.minimumIntegerDigits,
    minimumSignificantDigits: internalSlots.minimumSignificantDigits,
    maximumSignificantDigits: internalSlots.maximumSignificantDigits
  }));
  return this;
};
const { formatToParts, formatRange, formatRangeToParts } = {
  formatToParts(x) {
    getInternalSlots(this);
    return FormatNumericToParts(this, ToIntlMathematicalValue(x), { getInternalSlots });
  },
  formatRange(start, end) {
    getInternalSlots(this);
    if (start === void 0 || end === void 0) throw new TypeError("Range endpoints must not be undefined");
    return FormatNumericRange(this, ToIntlMathematicalValue(start), ToIntlMathematicalValue(end), { getInternalSlots });
  },
  formatRangeToParts(start, end) {
    getInternalSlots(this);
    if (start === void 0 || end === void 0) throw new TypeError("Range endpoints must not be undefined");
    return FormatNumericRangeToParts(this, ToIntlMathematicalValue(start), ToIntlMathematicalValue(end), { getInternalSlots });
  }
};
defineProperty(NumberFormat.prototype, "formatToParts", { value: formatToParts });
defineProperty(NumberFormat.prototype, "formatRange", { value: formatRange });
defineProperty(NumberFormat.prototype, "formatRangeToParts", { value: formatRangeToParts });
const { resolvedOptions } = { resolvedOptions() {
  const internalSlots = getInternalSlots(this);
  const ro = {};
  for (const key of RESOLVED_OPTIONS_KEYS) {
    const value = internalSlots[key];
    if (value !== void 0) ro[key] = value;
  }
  if (internalSlots.roundingType === "morePrecision") ro.roundingPriority = "morePrecision";
  else if (internalSlots.roundingType === "lessPrecision") ro.roundingPriority = "lessPrecision";
  else ro.roundingPriority = "auto";
  ro.trailingZeroDisplay = internalSlots.trailingZeroDisplay;
  return ro;
} };
defineProperty(NumberFormat.prototype, "resolvedOptions", { value: resolvedOptions });
const formatDescriptor = {
  enumerable: false,
  configurable: true,
  get() {
    const internalSlots = getInternalSlots(this);
    let boundFormat = internalSlots.boundFormat;
    if (boundFormat === void 0) {
      boundFormat = (value) => FormatNumeric(internalSlots, ToIntlMathematicalValue(value));
      try {
        Object.defineProperty(boundFormat, "name", {
          configurable: true,
          enumerable: false,
          writable: false,
          value: ""
        });
      } catch {
      }
      internalSlots.boundFormat = boundFormat;
    }
    return boundFormat;
  }
};
try {
  Object.defineProperty(formatDescriptor.get, "name", {
    configurable: true,
    enumerable: false,
    writable: false,
    value: "get format"
  });
} catch {
}
Object.defineProperty(NumberFormat.prototype, "format", formatDescriptor);
const { supportedLocalesOf } = { supportedLocalesOf(locales, options) {
  return SupportedLocales(NumberFormat.availableLocales, CanonicalizeLocaleList(locales), options);
} };
defineProperty(NumberFormat, "supportedLocalesOf", { value: supportedLocalesOf });
NumberFormat.__addLocaleData = function __addLocaleData(...data) {
  for (const { data: source, locale } of data) {
    const d = source.numbers.aliases ? {
      ...source,
      numbers: {
        ...source.numbers,
        symbols: { ...source.numbers.symbols },
        decimal: { ...source.numbers.decimal },
        percent: { ...source.numbers.percent },
        currency: { ...source.numbers.currency }
      }
    } : source;
    for (const system of Object.keys(source.numbers.aliases || {})) {
      const target = source.numbers.aliases[system];
      d.numbers.symbols[system] = d.numbers.symbols[target];
      d.numbers.decimal[system] = d.numbers.decimal[target];
      d.numbers.percent[system] = d.numbers.percent[target];
      d.numbers.currency[system] = d.numbers.currency[target];
    }
    registerLocaleData(locale, d, NumberFormat.localeData, NumberFormat.availableLocales);
    if (!NumberFormat.__defaultLocale) NumberFormat.__defaultLocale = locale;
  }
};
NumberFormat.__addUnitData = function __addUnitData(locale, unitsData) {
  const { [locale]: existingData } = NumberFormat.localeData;
  if (!existingData) throw new Error(`Locale data for "${locale}" has not been loaded in NumberFormat. 
Please __addLocaleData before adding additional unit data`);
  for (const unit in unitsData.simple) existingData.units.simple[unit] = unitsData.simple[unit];
  for (const unit in unitsData.compound) existingData.units.compound[unit] = unitsData.compound[unit];
};
NumberFormat.__defaultLocale = "";
NumberFormat.localeData = {};
NumberFormat.availableLocales = /* @__PURE__ */ new Set();
NumberFormat.getDefaultLocale = () => {
  return NumberFormat.__defaultLocale;
};
NumberFormat.polyfilled = true;
try {
  if (typeof Symbol !== "undefined") Object.defineProperty(NumberFormat.prototype, Symbol.toStringTag, {
    configurable: true,
    enumerable: false,
    writable: false,
    value: "Intl.NumberFormat"
  });
  Object.defineProperty(NumberFormat.prototype.constructor, "length", {
    configurable: true,
    enumerable: false,
    writable: false,
    value: 0
  });
  Object.defineProperty(NumberFormat.supportedLocalesOf, "length", {
    configurable: true,
    enumerable: false,
    writable: false,
    value: 1
  });
  Object.defineProperty(NumberFormat, "prototype", {
    configurable: false,
    enumerable: false,
    writable: false,
    value: NumberFormat.prototype
  });
} catch {
}
function toLocaleString(x, locales, options) {
  return new NumberFormat(locales, options).format(x);
}
defineProperty(ensureIntl(), "NumberFormat", { value: NumberFormat });
defineProperty(Number.prototype, "toLocaleString", { value: function toLocaleString$1(locales, options) {
  return toLocaleString(this, locales, options);
} });
if (typeof BigInt !== "undefined") defineProperty(BigInt.prototype, "toLocaleString", { value: function toLocaleString$2(locales, options) {
  return toLocaleString(this, locales, options);
} });
const buf = globalThis.__FORMATJS_NUMBERFORMAT_DATA__;
if (buf) {
  for (const d of buf) NumberFormat.__addLocaleData(d);
  delete globalThis.__FORMATJS_NUMBERFORMAT_DATA__;
}
