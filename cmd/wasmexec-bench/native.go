package main

import (
	"time"

	"github.com/dop251/goja"
)

// nativeGojaFib27 runs the same fib(27) in goja on the host (no wasm, no
// fuel): the baseline of the guest CPU ratio. Median of three, in ms.
func nativeGojaFib27() float64 {
	var ms []float64
	for i := 0; i < 3; i++ {
		vm := goja.New()
		t0 := time.Now()
		if _, err := vm.RunString("function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(27)"); err != nil {
			return 0
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	return pct(ms, 50)
}
