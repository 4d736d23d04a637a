// node:tty for wasmexec: the guest's streams are never terminals (output
// goes to the host as events), so isatty is false and color libraries
// stay plain. Hand-written, part of wasmexec.
'use strict';
function isatty() { return false; }
class ReadStream { constructor() { this.isTTY = false; } setRawMode() { return this; } }
class WriteStream {
  constructor() { this.isTTY = false; this.columns = 80; this.rows = 24; }
  getColorDepth() { return 1; }
  hasColors() { return false; }
  getWindowSize() { return [this.columns, this.rows]; }
}
module.exports = { isatty, ReadStream, WriteStream };
