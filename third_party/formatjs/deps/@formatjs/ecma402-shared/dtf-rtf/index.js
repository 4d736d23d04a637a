const { memoize } = require("@formatjs/ecma402-shared/all");
const { strategies } = require("@formatjs/ecma402-shared/all");
const { variadic } = require("@formatjs/ecma402-shared/all");
const createMemoizedNumberFormat = memoize((...args) => new Intl.NumberFormat(...args), { strategy: strategies.variadic });
module.exports = { createMemoizedNumberFormat };
