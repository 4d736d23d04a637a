package python_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/pipeline"
)

// numpyRunner is MustRunner, checking that the image has numpy: it is part
// of every Python image (guest-images/python/numpy.sh), so an image
// without it is a failure, not a skip.
func numpyRunner(t *testing.T) *pipeline.Pipeline {
	t.Helper()
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: "import importlib.util\nimportlib.util.find_spec('numpy') is not None"})
	if string(res.Value) != "true" {
		t.Fatalf("the Python image has no numpy (%s %+v): rebuild it (guest-images/build-cached.sh python)", res.Value, res.Error)
	}
	return r
}

// numpy's compiled parts work in a one-shot guest: the core, lapack-lite,
// pocketfft and the Cython random modules (all linked into python.wasm).
func TestNumpyImportAndKernels(t *testing.T) {
	r := numpyRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `import numpy as np
a = np.arange(12.).reshape(3, 4)
x = np.linalg.solve(np.array([[3., 1.], [1., 2.]]), np.array([9., 8.]))
f = np.fft.fft(np.ones(8))
g = np.random.default_rng(0)
m = np.random.RandomState(1)
[np.__version__, float((a @ a.T)[2, 2]), [round(v, 9) for v in x], float(f[0].real), float(abs(f[1])),
 g.integers(0, 10, 5).tolist() == np.random.default_rng(0).integers(0, 10, 5).tolist(),
 str(np.longdouble(1) / 3)[:6], np.dtype(np.intp).itemsize]`})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if got, want := string(res.Value), `["1.24.2",366.0,[2.0,3.0],8.0,0.0,true,"0.3333",4]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// Hostile numpy calls end as results (exceptions or limits), and the next
// run in the same runner works.
func TestNumpyHostileCalls(t *testing.T) {
	r := numpyRunner(t)
	for _, tc := range []struct {
		name, code, code2 string
		limits            wasmexec.Limits
	}{
		// wasm32: 10**10 elements is past numpy's intp, a ValueError.
		{"huge shape", "import numpy as np\nnp.zeros(10**10)", wasmexec.CodeException, wasmexec.Limits{}},
		// 10**12 elements: past wasm32's 4 GiB, numpy's "array is too big",
		// which a 64-bit machine gives as MemoryError: memory_limit.
		{"huge 2-d shape", "import numpy as np\nnp.zeros((10**6, 10**6))", wasmexec.CodeMemoryLimit, wasmexec.Limits{}},
		// 1.5 GiB: malloc fails under the memory limit; MemoryError is memory_limit.
		{"over the memory limit", "import numpy as np\nnp.ones(2 * 10**8)", wasmexec.CodeMemoryLimit, wasmexec.Limits{}},
		{"long dot", "import numpy as np\na = np.ones((500, 500))\nwhile True:\n    a @ a", wasmexec.CodeCPULimit, wasmexec.Limits{Fuel: 2_000_000_000}},
		{"frompyfunc recursion", "import numpy as np\nf = np.frompyfunc(lambda x: f(x), 1, 1)\nf(1)", wasmexec.CodeStackOverflow, wasmexec.Limits{}},
		{"deep object array repr", "import numpy as np\nb = np.empty(1, object)\nfor i in range(100000):\n    c = np.empty(1, object); c[0] = b; b = c\nrepr(b)", wasmexec.CodeStackOverflow, wasmexec.Limits{}},
		{"huge print", "import numpy as np\nnp.set_printoptions(threshold=10**9)\nprint(np.arange(10**5))", wasmexec.CodeOutputLimit, wasmexec.Limits{OutputBytes: 10000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: tc.code, Limits: tc.limits})
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != tc.code2 {
				t.Fatalf("got %s %+v, want failed %s", res.Outcome, res.Error, tc.code2)
			}
			// negative strides read inside the guest's own memory only
			res = MustRun(t, r, wasmexec.Request{Code: "import numpy as np\nfrom numpy.lib.stride_tricks import as_strided\na = np.arange(10, dtype=np.int64)\nint(as_strided(a[9:], shape=(10,), strides=(-8,)).sum())"})
			if res.Outcome != wasmexec.Succeeded || !strings.HasPrefix(string(res.Value), "45") {
				t.Fatalf("after %s: %s %+v %s", tc.name, res.Outcome, res.Error, res.Value)
			}
		})
	}
}
