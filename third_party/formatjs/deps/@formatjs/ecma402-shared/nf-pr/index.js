const { Decimal } = require("@formatjs/bigdecimal");
const { ZERO } = require("@formatjs/ecma402-shared/nf-dtf-pr");
const { invariant } = require("@formatjs/ecma402-shared/nf-dtf-pr-rtf-lf-loc");
const { memoize } = require("@formatjs/ecma402-shared/all");
function repeat(s, times) {
  if (typeof s.repeat === "function") return s.repeat(times);
  const arr = Array.from({ length: times });
  for (let i = 0; i < arr.length; i++) arr[i] = s;
  return arr.join("");
}
const getPowerOf10 = memoize((exponent) => {
  return Decimal.pow(10, exponent);
});
const NEGATIVE_ZERO = new Decimal(-0);
const negativeMapping = {
  ceil: "zero",
  floor: "infinity",
  expand: "infinity",
  trunc: "zero",
  halfCeil: "half-zero",
  halfFloor: "half-infinity",
  halfExpand: "half-infinity",
  halfTrunc: "half-zero",
  halfEven: "half-even"
};
const positiveMapping = {
  ceil: "infinity",
  floor: "zero",
  expand: "infinity",
  trunc: "zero",
  halfCeil: "half-infinity",
  halfFloor: "half-zero",
  halfExpand: "half-infinity",
  halfTrunc: "half-zero",
  halfEven: "half-even"
};
function GetUnsignedRoundingMode(roundingMode, isNegative) {
  if (isNegative) return negativeMapping[roundingMode];
  return positiveMapping[roundingMode];
}
function ApplyUnsignedRoundingMode(x, r1, r2, unsignedRoundingMode) {
  if (x.eq(r1) || r1.eq(r2)) return r1;
  if (x.eq(r2)) return r2;
  invariant(r1.lessThan(x) && x.lessThan(r2), `x should be between r1 and r2 but x=${x}, r1=${r1}, r2=${r2}`);
  if (unsignedRoundingMode === "zero") return r1;
  if (unsignedRoundingMode === "infinity") return r2;
  const d1 = x.minus(r1);
  const d2 = r2.minus(x);
  if (d1.lessThan(d2)) return r1;
  if (d2.lessThan(d1)) return r2;
  invariant(d1.eq(d2), "d1 should be equal to d2");
  if (unsignedRoundingMode === "half-zero") return r1;
  if (unsignedRoundingMode === "half-infinity") return r2;
  invariant(unsignedRoundingMode === "half-even", "unsignedRoundingMode should be half-even");
  if (r1.div(r2.minus(r1)).mod(2).isZero()) return r1;
  return r2;
}
function ToRawFixedFn(n, f) {
  return n.times(getPowerOf10(-f));
}
function findN1R1(x, f, roundingIncrement) {
  const n1 = x.times(getPowerOf10(f)).floor().div(roundingIncrement).floor().times(roundingIncrement);
  return {
    n1,
    r1: ToRawFixedFn(n1, f)
  };
}
function findN2R2(x, f, roundingIncrement) {
  const n2 = x.times(getPowerOf10(f)).ceil().div(roundingIncrement).ceil().times(roundingIncrement);
  return {
    n2,
    r2: ToRawFixedFn(n2, f)
  };
}
function ToRawFixed(x, minFraction, maxFraction, roundingIncrement, unsignedRoundingMode) {
  const f = maxFraction;
  const { n1, r1 } = findN1R1(x, f, roundingIncrement);
  const { n2, r2 } = findN2R2(x, f, roundingIncrement);
  const r = ApplyUnsignedRoundingMode(x, r1, r2, unsignedRoundingMode);
  let n, xFinal;
  let m;
  if (r.eq(r1)) {
    n = n1;
    xFinal = r1;
  } else {
    n = n2;
    xFinal = r2;
  }
  if (n.isZero()) m = "0";
  else m = n.toString();
  let int;
  if (f !== 0) {
    let k = m.length;
    if (k <= f) {
      m = repeat("0", f - k + 1) + m;
      k = f + 1;
    }
    const a = m.slice(0, k - f);
    const b = m.slice(m.length - f);
    m = a + "." + b;
    int = a.length;
  } else int = m.length;
  let cut = maxFraction - minFraction;
  while (cut > 0 && m[m.length - 1] === "0") {
    m = m.slice(0, m.length - 1);
    cut--;
  }
  if (m[m.length - 1] === ".") m = m.slice(0, m.length - 1);
  return {
    formattedString: m,
    roundedNumber: xFinal,
    integerDigitsCount: int,
    roundingMagnitude: -f
  };
}
function findN1E1R1(x, p) {
  const maxN1 = getPowerOf10(p);
  const minN1 = getPowerOf10(p - 1);
  let e1 = x.log(10).floor();
  const divisor = getPowerOf10(e1.minus(p).plus(1));
  let n1 = x.div(divisor).floor();
  let r1 = n1.times(divisor);
  if (n1.greaterThanOrEqualTo(maxN1)) {
    e1 = e1.plus(1);
    const newDivisor = getPowerOf10(e1.minus(p).plus(1));
    n1 = x.div(newDivisor).floor();
    r1 = n1.times(newDivisor);
  } else if (n1.lessThan(minN1)) {
    e1 = e1.minus(1);
    const newDivisor = getPowerOf10(e1.minus(p).plus(1));
    n1 = x.div(newDivisor).floor();
    r1 = n1.times(newDivisor);
  }
  if (r1.lessThanOrEqualTo(x) && n1.lessThan(maxN1) && n1.greaterThanOrEqualTo(minN1)) return {
    n1,
    e1,
    r1
  };
  let currentE1 = x.div(minN1).log(10).plus(p).minus(1).ceil();
  while (true) {
    const currentDivisor = getPowerOf10(currentE1.minus(p).plus(1));
    let currentN1 = x.div(currentDivisor).floor();
    if (currentN1.lessThan(maxN1) && currentN1.greaterThanOrEqualTo(minN1)) {
      const currentR1 = currentN1.times(currentDivisor);
      if (currentR1.lessThanOrEqualTo(x)) return {
        n1: currentN1,
        e1: currentE1,
        r1: currentR1
      };
    }
    currentE1 = currentE1.minus(1);
  }
}
function findN2E2R2(x, p) {
  const maxN2 = getPowerOf10(p);
  const minN2 = getPowerOf10(p - 1);
  let e2 = x.log(10).floor();
  const divisor = getPowerOf10(e2.minus(p).plus(1));
  let n2 = x.div(divisor).ceil();
  let r2 = n2.times(divisor);
  if (n2.greaterThanOrEqualTo(maxN2)) {
    e2 = e2.plus(1);
    const newDivisor = getPowerOf10(e2.minus(p).plus(1));
    n2 = x.div(newDivisor).ceil();
    r2 = n2.times(newDivisor);
  } else if (n2.lessThan(minN2)) {
    e2 = e2.minus(1);
    const newDivisor = getPowerOf10(e2.minus(p).plus(1));
    n2 = x.div(newDivisor).ceil();
    r2 = n2.times(newDivisor);
  }
  if (r2.greaterThanOrEqualTo(x) && n2.lessThan(maxN2) && n2.greaterThanOrEqualTo(minN2)) return {
    n2,
    e2,
    r2
  };
  let currentE2 = x.div(maxN2).log(10).plus(p).minus(1).floor();
  while (true) {
    const currentDivisor = getPowerOf10(currentE2.minus(p).plus(1));
    let currentN2 = x.div(currentDivisor).ceil();
    if (currentN2.lessThan(maxN2) && currentN2.greaterThanOrEqualTo(minN2)) {
      const currentR2 = currentN2.times(currentDivisor);
      if (currentR2.greaterThanOrEqualTo(x)) return {
        n2: currentN2,
        e2: currentE2,
        r2: currentR2
      };
    }
    currentE2 = currentE2.plus(1);
  }
}
function ToRawPrecision(x, minPrecision, maxPrecision, unsignedRoundingMode) {
  const p = maxPrecision;
  let m;
  let e;
  let xFinal;
  if (x.isZero()) {
    m = repeat("0", p);
    e = 0;
    xFinal = ZERO;
  } else {
    const { n1, e1, r1 } = findN1E1R1(x, p);
    const { n2, e2, r2 } = findN2E2R2(x, p);
    let r = ApplyUnsignedRoundingMode(x, r1, r2, unsignedRoundingMode);
    let n;
    if (r.eq(r1)) {
      n = n1;
      e = e1.toNumber();
      xFinal = r1;
    } else {
      n = n2;
      e = e2.toNumber();
      xFinal = r2;
    }
    m = n.toString();
  }
  let int;
  if (e >= p - 1) {
    m = m + repeat("0", e - p + 1);
    int = e + 1;
  } else if (e >= 0) {
    m = m.slice(0, e + 1) + "." + m.slice(m.length - (p - (e + 1)));
    int = e + 1;
  } else {
    invariant(e < 0, "e should be less than 0");
    m = "0." + repeat("0", -e - 1) + m;
    int = 1;
  }
  if (m.includes(".") && maxPrecision > minPrecision) {
    let cut = maxPrecision - minPrecision;
    while (cut > 0 && m[m.length - 1] === "0") {
      m = m.slice(0, m.length - 1);
      cut--;
    }
    if (m[m.length - 1] === ".") m = m.slice(0, m.length - 1);
  }
  return {
    formattedString: m,
    roundedNumber: xFinal,
    integerDigitsCount: int,
    roundingMagnitude: e - p + 1
  };
}
function FormatNumericToString(intlObject, _x) {
  let x = _x;
  let sign;
  if (x.isZero() && x.isNegative()) {
    sign = "negative";
    x = ZERO;
  } else {
    invariant(x.isFinite(), "NumberFormatDigitInternalSlots value is not finite");
    if (x.lessThan(0)) sign = "negative";
    else sign = "positive";
    if (sign === "negative") x = x.negated();
  }
  let result;
  const roundingType = intlObject.roundingType;
  const unsignedRoundingMode = GetUnsignedRoundingMode(intlObject.roundingMode, sign === "negative");
  switch (roundingType) {
    case "significantDigits":
      result = ToRawPrecision(x, intlObject.minimumSignificantDigits, intlObject.maximumSignificantDigits, unsignedRoundingMode);
      break;
    case "fractionDigits":
      result = ToRawFixed(x, intlObject.minimumFractionDigits, intlObject.maximumFractionDigits, intlObject.roundingIncrement, unsignedRoundingMode);
      break;
    default:
      let sResult = ToRawPrecision(x, intlObject.minimumSignificantDigits, intlObject.maximumSignificantDigits, unsignedRoundingMode);
      let fResult = ToRawFixed(x, intlObject.minimumFractionDigits, intlObject.maximumFractionDigits, intlObject.roundingIncrement, unsignedRoundingMode);
      if (intlObject.roundingType === "morePrecision") {
        if (sResult.roundingMagnitude <= fResult.roundingMagnitude) result = sResult;
        else result = fResult;
      } else {
        invariant(intlObject.roundingType === "lessPrecision", "Invalid roundingType");
        if (sResult.roundingMagnitude <= fResult.roundingMagnitude) result = fResult;
        else result = sResult;
      }
  }
  x = result.roundedNumber;
  let string = result.formattedString;
  if (intlObject.trailingZeroDisplay === "stripIfInteger" && x.isInteger()) {
    let i = string.indexOf(".");
    if (i > -1) string = string.slice(0, i);
  }
  const int = result.integerDigitsCount;
  const minInteger = intlObject.minimumIntegerDigits;
  if (int < minInteger) string = repeat("0", minInteger - int) + string;
  if (sign === "negative") {
    if (x.isZero()) x = NEGATIVE_ZERO;
    else x = x.negated();
  }
  return {
    roundedNumber: x,
    formattedString: string
  };
}
module.exports = { repeat, getPowerOf10, NEGATIVE_ZERO, negativeMapping, positiveMapping, GetUnsignedRoundingMode, ApplyUnsignedRoundingMode, ToRawFixedFn, findN1R1, findN2R2, ToRawFixed, findN1E1R1, findN2E2R2, ToRawPrecision, FormatNumericToString };
