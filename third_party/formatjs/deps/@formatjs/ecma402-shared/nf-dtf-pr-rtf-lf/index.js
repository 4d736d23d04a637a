const explicitLocales = /* @__PURE__ */ new WeakMap();
module.exports = { explicitLocales };
