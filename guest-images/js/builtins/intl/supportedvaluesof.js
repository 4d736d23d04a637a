// Intl.supportedValuesOf of @formatjs/intl-supportedvaluesof, as its
// polyfill-force.js installs it, from the package's index.js (deps/).
var { supportedValuesOf } = require("@formatjs/intl-supportedvaluesof");
if (typeof Intl === "undefined") Object.defineProperty(globalThis, "Intl", { configurable: true, enumerable: false, writable: true, value: {} });
Object.defineProperty(Intl, "supportedValuesOf", { configurable: true, enumerable: false, writable: true, value: supportedValuesOf });
