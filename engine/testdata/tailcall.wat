;; tailcall.wat: the shape of GHSA-q8hx-mm92-4wvg (CVE-2024-47763). An
;; exported function tail-calls an imported host function that traps (send
;; with an out-of-bounds buffer); wasmtime 22–25.0.1 then panics while
;; capturing the trap's backtrace and the process aborts. The engine
;; disables the tail-call proposal, so this module is refused at load.
(module
  (import "wasmexec" "recv" (func $recv (param i32 i32) (result i32)))
  (import "wasmexec" "send" (func $send (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (call $recv (i32.const 0) (i32.const 0)))
    (return_call $send (i32.const -1) (i32.const 16))))
