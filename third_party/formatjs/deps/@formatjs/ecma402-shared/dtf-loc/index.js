const { defineProperty } = require("@formatjs/ecma402-shared/all");
function createDataProperty(target, name, value) {
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: true,
    writable: true,
    value
  });
}
module.exports = { createDataProperty };
