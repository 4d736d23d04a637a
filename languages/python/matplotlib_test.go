package python_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

// Ten typical charts drawn in the guest (testdata/charts.py) are the PNGs
// Debian's matplotlib 3.6.3 draws natively from the same code and fonts
// (testdata/charts/*.png): pixel-identical, or differing in at most 1% of
// the pixels (the test says which and by how much).
func TestMatplotlibChartsMatchNative(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	code, err := os.ReadFile("testdata/charts.py")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"line", "bar", "scatter", "histogram", "pie", "subplots", "logaxes", "annotations", "image", "pandas_plot"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			// One chart a run, under the default limits, as an agent draws.
			res := MustRun(t, r, wasmexec.Request{Code: string(code) + "\nrender([" + strconv.Quote(name) + "])[" + strconv.Quote(name) + "]\n"})
			wantOutcome(t, res, wasmexec.Succeeded, "")
			var b64 string
			if err := json.Unmarshal(res.Value, &b64); err != nil {
				t.Fatal(err)
			}
			data, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				t.Fatal(err)
			}
			g, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join("testdata", "charts", name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			diff, total := pixelDiff(g, n)
			if diff < 0 {
				t.Fatalf("size %v, native %v", g.Bounds(), n.Bounds())
			}
			if diff > 0 {
				t.Logf("%d of %d pixels differ (%.3f%%)", diff, total, 100*float64(diff)/float64(total))
				if os.Getenv("WASMEXEC_CHARTS_OUT") != "" {
					os.WriteFile(filepath.Join(os.Getenv("WASMEXEC_CHARTS_OUT"), name+".png"), data, 0o644)
				}
			}
			if diff*100 > total {
				t.Errorf("%d of %d pixels differ, over 1%%", diff, total)
			}
		})
	}
}

// pixelDiff counts the pixels whose RGBA differ; -1 if the sizes differ.
func pixelDiff(a, b image.Image) (diff, total int) {
	if a.Bounds() != b.Bounds() {
		return -1, 0
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	return diff, r.Dx() * r.Dy()
}

// Hostile matplotlib inputs are contained: results, never a host problem,
// and the runner goes on.
func TestMatplotlibHostileCalls(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	for _, tc := range []struct {
		name, code, want string
		limits           wasmexec.Limits
	}{
		// 50,000 x 50,000 RGBA is 10 GB, past wasm32's size_t: refused
		// (ValueError), as matplotlib refuses 2**16 pixels a side. 10,000 x
		// 10,000 (400 MB) fits size_t and not the memory limit: the C++
		// allocation fails, memory_limit.
		{"huge figure", "import matplotlib.pyplot as plt\nfig = plt.figure(figsize=(500, 500), dpi=100)\nfig.savefig('big.png')", wasmexec.CodeException, wasmexec.Limits{}},
		{"big figure", "import matplotlib.pyplot as plt\nfig = plt.figure(figsize=(100, 100), dpi=100)\nfig.savefig('big.png')", wasmexec.CodeMemoryLimit, wasmexec.Limits{}},
		{"savefig outside the workspace", "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig('/usr/local/lib/x.png')", wasmexec.CodeException, wasmexec.Limits{}},
		{"savefig into the stdlib by ..", "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig('../usr/local/lib/mpl-data/x.png')", wasmexec.CodeException, wasmexec.Limits{}},
		{"font file path", "import matplotlib.pyplot as plt\nfrom matplotlib.font_manager import FontProperties\nplt.text(0, 0, 'x', fontproperties=FontProperties(fname='/etc/passwd'))\nplt.savefig('f.png')", wasmexec.CodeException, wasmexec.Limits{}},
		{"junk font file", "open('junk.ttf', 'wb').write(b'\\0\\1\\0\\0' + b'\\xff' * 4000)\nimport matplotlib.pyplot as plt\nfrom matplotlib.font_manager import FontProperties\nplt.text(0, 0, 'x', fontproperties=FontProperties(fname='junk.ttf'))\nplt.savefig('f.png')", wasmexec.CodeExit, wasmexec.Limits{}},
		{"recursive __array__", "import numpy as np, matplotlib.pyplot as plt\nclass A:\n    def __array__(self, dtype=None):\n        return np.asarray(self)\nplt.plot(A())", wasmexec.CodeStackOverflow, wasmexec.Limits{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: tc.code, Limits: tc.limits})
			if res.Outcome != wasmexec.Failed || res.Error == nil || (tc.want != "" && res.Error.Code != tc.want) {
				t.Fatalf("got %s %+v, want failed %s", res.Outcome, res.Error, tc.want)
			}
			t.Logf("%s: %s", res.Error.Code, firstLine(res.Error.Message))
			res = MustRun(t, r, wasmexec.Request{Code: "import matplotlib.pyplot as plt, io\nplt.close('all')\nplt.plot([1, 2])\nb = io.BytesIO()\nplt.savefig(b, format='png')\nb.getvalue()[:4] == b'\\x89PNG'"})
			if res.Outcome != wasmexec.Succeeded || string(res.Value) != "true" {
				t.Fatalf("after %s: %s %+v %s", tc.name, res.Outcome, res.Error, res.Value)
			}
		})
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// The data stack imports in a fresh one-shot guest under the default
// limits, leaves nothing in the workspace (matplotlib's configuration and
// font list are the image's), and draws with Agg.
func TestDataStackImportsFresh(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: "import os, numpy, pandas, matplotlib.pyplot as plt\n" +
		"[numpy.__version__, pandas.__version__, plt.matplotlib.__version__, plt.get_backend(), os.listdir('/workspace')]"})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if got := string(res.Value); got != `["1.24.2","1.5.3","3.6.3","agg",[]]` {
		t.Fatalf("got %s", got)
	}
	// What pandas imports mmap for fails at the call, clearly.
	res = MustRun(t, r, wasmexec.Request{Code: "import pandas as pd\nopen('a.csv', 'w').write('x\\n1\\n')\npd.read_csv('a.csv', memory_map=True)"})
	if res.Outcome != wasmexec.Failed || res.Error == nil || !strings.Contains(res.Error.Message, "mmap is not available") {
		t.Fatalf("read_csv(memory_map=True): %s %+v", res.Outcome, res.Error)
	}
}
