// safe-buffer for the embedded string_decoder: the embedded buffer module
// already is safe (Buffer.alloc, Buffer.from). Part of wasmexec.
module.exports = require('buffer');
