const { GetOption } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
const { LookupSupportedLocales } = require("@formatjs/intl-localematcher");
const { ToObject } = require("@formatjs/ecma402-shared/dtf-pr-rtf-lf-seg-loc");
function SupportedLocales(availableLocales, requestedLocales, options) {
  let matcher = "best fit";
  if (options !== void 0) {
    options = ToObject(options);
    matcher = GetOption(options, "localeMatcher", "string", ["lookup", "best fit"], "best fit");
  }
  if (matcher === "best fit") return LookupSupportedLocales(Array.from(availableLocales), requestedLocales);
  return LookupSupportedLocales(Array.from(availableLocales), requestedLocales);
}
module.exports = { SupportedLocales };
