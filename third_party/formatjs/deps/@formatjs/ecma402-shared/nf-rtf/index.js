const { memoize } = require("@formatjs/ecma402-shared/all");
const { strategies } = require("@formatjs/ecma402-shared/all");
const { variadic } = require("@formatjs/ecma402-shared/all");
const createMemoizedPluralRules = memoize((...args) => new Intl.PluralRules(...args), { strategy: strategies.variadic });
module.exports = { createMemoizedPluralRules };
