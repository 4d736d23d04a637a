package python_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

// pandas' compiled parts and its pure-Python dependencies (dateutil, pytz,
// tzdata from the bundled layer; openpyxl and tabulate for Excel and
// Markdown) give, on a workspace CSV, what Debian's pandas 1.5.3 gives
// natively: read_csv, groupby, pivot_table, merge, resample, rolling,
// to_datetime with zones, describe, to_markdown/to_string,
// to_excel/read_excel, to_json.
func TestPandasTasks(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	code, err := os.ReadFile("testdata/pandas_tasks.py")
	if err != nil {
		t.Fatal(err)
	}
	native, err := os.ReadFile("testdata/pandas_tasks.native.json")
	if err != nil {
		t.Fatal(err)
	}
	res := MustRun(t, r, wasmexec.Request{Code: string(code)})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	var s string
	if err := json.Unmarshal(res.Value, &s); err != nil {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	var got, want map[string]any
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(native, &want); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s: guest %v, native %v", k, got[k], w)
		}
	}
}

// Hostile pandas calls end as results, and the runner goes on.
func TestPandasHostileCalls(t *testing.T) {
	r := MustRunner(t)
	for _, tc := range []struct {
		name, code, want string
		limits           wasmexec.Limits
	}{
		// 10**9 rows of float64: 8 GB, past wasm32's 4 GiB and the limit.
		{"billion-row frame", "import pandas as pd, numpy as np\npd.DataFrame({'a': np.zeros(10**9)})", wasmexec.CodeMemoryLimit, wasmexec.Limits{}},
		{"billion-row range frame", "import pandas as pd\npd.DataFrame({'a': range(10**9)})", wasmexec.CodeMemoryLimit, wasmexec.Limits{}},
		{"endless groupby.apply", "import pandas as pd\ndf = pd.DataFrame({'k': [1, 2], 'v': [1, 2]})\ndef f(g):\n    while True:\n        pass\ndf.groupby('k').apply(f)", wasmexec.CodeCPULimit, wasmexec.Limits{Fuel: 2_000_000_000}},
		{"recursive apply", "import pandas as pd\ndf = pd.DataFrame({'v': [1]})\ndef f(x):\n    return df.apply(f)\ndf.apply(f)", wasmexec.CodeStackOverflow, wasmexec.Limits{}},
		{"huge to_string", "import pandas as pd\nprint(pd.DataFrame({'a': range(10**5)}).to_string())", wasmexec.CodeOutputLimit, wasmexec.Limits{OutputBytes: 10000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: tc.code, Limits: tc.limits})
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != tc.want {
				t.Fatalf("got %s %+v, want failed %s", res.Outcome, res.Error, tc.want)
			}
			res = MustRun(t, r, wasmexec.Request{Code: "import pandas as pd\nint(pd.Series([1, 2, 3]).sum())"})
			if res.Outcome != wasmexec.Succeeded || !strings.HasPrefix(string(res.Value), "6") {
				t.Fatalf("after %s: %s %+v %s", tc.name, res.Outcome, res.Error, res.Value)
			}
		})
	}
}

// pandas reads the bundled tzdata's version (PEP 440, as PyPI's tzdata
// numbers it) without complaint: a zoneinfo zone leaves stderr empty.
func TestPandasZoneinfoQuiet(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: "import zoneinfo, pandas as pd, tzdata\n" +
		"ts = pd.Timestamp('2024-06-01 12:00', tz=zoneinfo.ZoneInfo('Europe/Oslo'))\n[str(ts.tz_convert('UTC')), tzdata.__version__.split('.')[0]]"})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if got := string(res.Value); !strings.HasPrefix(got, `["2024-06-01 10:00:00+00:00","20`) || (res.Stderr != nil && *res.Stderr != "") {
		t.Fatalf("value %s, stderr %v", got, res.Stderr)
	}
}

// A pandas warning points at the caller's line, as natively: pandas
// walks the stack past its own files, which it recognizes by its
// package's path (the zip's, in the guest).
func TestPandasWarningPointsAtCaller(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: "import warnings, pandas as pd\n" +
		"with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    pd.DataFrame({'a': [1.0, 2.0]}).mad()\n" +
		"[w[0].filename, w[0].lineno, pd.__file__.startswith('/usr/local/lib/python311.zip/')]"})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if got := string(res.Value); got != `["main.py",4,true]` {
		t.Fatalf("got %s", got)
	}
}
