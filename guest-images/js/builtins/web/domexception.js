// wasmexec: DOMException (WebIDL), as Node has it: an Error whose name is
// given and whose code is the legacy code of that name (0 for newer names).
// Hand-written, part of wasmexec.
'use strict';

const legacy = [
  ['IndexSizeError', 'INDEX_SIZE_ERR'], ['DOMStringSizeError', 'DOMSTRING_SIZE_ERR'],
  ['HierarchyRequestError', 'HIERARCHY_REQUEST_ERR'], ['WrongDocumentError', 'WRONG_DOCUMENT_ERR'],
  ['InvalidCharacterError', 'INVALID_CHARACTER_ERR'], ['NoDataAllowedError', 'NO_DATA_ALLOWED_ERR'],
  ['NoModificationAllowedError', 'NO_MODIFICATION_ALLOWED_ERR'], ['NotFoundError', 'NOT_FOUND_ERR'],
  ['NotSupportedError', 'NOT_SUPPORTED_ERR'], ['InUseAttributeError', 'INUSE_ATTRIBUTE_ERR'],
  ['InvalidStateError', 'INVALID_STATE_ERR'], ['SyntaxError', 'SYNTAX_ERR'],
  ['InvalidModificationError', 'INVALID_MODIFICATION_ERR'], ['NamespaceError', 'NAMESPACE_ERR'],
  ['InvalidAccessError', 'INVALID_ACCESS_ERR'], ['ValidationError', 'VALIDATION_ERR'],
  ['TypeMismatchError', 'TYPE_MISMATCH_ERR'], ['SecurityError', 'SECURITY_ERR'],
  ['NetworkError', 'NETWORK_ERR'], ['AbortError', 'ABORT_ERR'],
  ['URLMismatchError', 'URL_MISMATCH_ERR'], ['QuotaExceededError', 'QUOTA_EXCEEDED_ERR'],
  ['TimeoutError', 'TIMEOUT_ERR'], ['InvalidNodeTypeError', 'INVALID_NODE_TYPE_ERR'],
  ['DataCloneError', 'DATA_CLONE_ERR'],
];
const codes = Object.create(null);
legacy.forEach(([name], i) => { codes[name] = i + 1; });

class DOMException extends Error {
  #name;
  constructor(message = '', options = 'Error') {
    super(String(message));
    let name = 'Error';
    if (options !== null && typeof options === 'object') {
      if ('name' in options) name = String(options.name);
      if ('cause' in options) {
        Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
      }
    } else {
      name = String(options);
    }
    this.#name = name;
  }
  get name() { return this.#name; }
  get code() { return codes[this.#name] || 0; }
}
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
legacy.forEach(([, constant], i) => {
  const d = { value: i + 1, enumerable: true };
  Object.defineProperty(DOMException, constant, d);
  Object.defineProperty(DOMException.prototype, constant, d);
});

module.exports = { DOMException };
