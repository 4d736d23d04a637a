function CanonicalizeLocaleList(locales) {
  return Intl.getCanonicalLocales(locales);
}
module.exports = { CanonicalizeLocaleList };
