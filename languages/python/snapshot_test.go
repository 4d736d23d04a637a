package python_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Every guest starts from the same snapshot, yet each has its own entropy:
// random's state, os.urandom, uuid4, secrets and tempfile names differ in
// every one of 200 one-shot runs.
func TestSnapshotEntropyPerGuest(t *testing.T) {
	r := MustRunner(t)
	const n = 200
	code := "import uuid, random, os, secrets, tempfile, numpy\n" +
		"[uuid.uuid4().hex, random.random(), os.urandom(8).hex(), secrets.token_hex(8), tempfile.mktemp(), numpy.random.rand(), numpy.random.default_rng().random()]"
	cols := make([]map[string]bool, 7)
	for i := range cols {
		cols[i] = map[string]bool{}
	}
	for range n {
		res := MustRun(t, r, wasmexec.Request{Code: code})
		wantOutcome(t, res, wasmexec.Succeeded, "")
		var row []json.RawMessage
		if err := json.Unmarshal(res.Value, &row); err != nil || len(row) != len(cols) {
			t.Fatalf("value %s: %v", res.Value, err)
		}
		for i, v := range row {
			cols[i][string(v)] = true
		}
	}
	for i, name := range []string{"uuid4", "random.random", "os.urandom", "secrets.token_hex", "tempfile.mktemp", "numpy.random.rand", "numpy.random.default_rng"} {
		if len(cols[i]) != n {
			t.Errorf("%s: %d distinct values in %d runs", name, len(cols[i]), n)
		}
	}
}

// A guest's sys.modules is the snapshot's pre-imported set: nothing a
// previous guest imported, and the same set in every fresh guest.
func TestSnapshotModulesArePerGuest(t *testing.T) {
	r := MustRunner(t)
	listing := "import sys\nsorted(sys.modules)"
	var first []string
	if err := json.Unmarshal(MustRun(t, r, wasmexec.Request{Code: listing}).Value, &first); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"json", "re", "datetime", "collections", "math", "itertools", "functools",
		"decimal", "random", "dataclasses", "typing", "pathlib", "asyncio", "numpy"} {
		if !slices.Contains(first, m) {
			t.Errorf("%s is not pre-imported: %v", m, first)
		}
	}
	for _, m := range []string{"colorsys", "wasmexec_driver", "_wasmexec", "tempfile"} {
		if slices.Contains(first, m) {
			t.Errorf("%s is in a fresh guest's sys.modules", m)
		}
	}
	wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "import colorsys, sys\nsys.modules['leftover'] = colorsys"}), wasmexec.Succeeded, "")
	var again []string
	if err := json.Unmarshal(MustRun(t, r, wasmexec.Request{Code: listing}).Value, &again); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, again) {
		t.Errorf("sys.modules differs between fresh guests:\n%v\n%v", first, again)
	}
}

// Environment, argv, cwd and the clocks are the guest's own, not the
// snapshot's.
func TestSnapshotEnvArgvCwdClock(t *testing.T) {
	r := MustRunner(t)
	code := "import os, sys, time\n" +
		"[os.environ.get('A'), os.environ.get('B'), os.getenv('PWD'), os.getcwd(), sys.argv, time.time()]"
	for _, env := range []map[string]string{{"A": "1"}, {"B": "2"}} {
		before := float64(time.Now().UnixNano()) / 1e9
		res := MustRun(t, r, wasmexec.Request{Code: code, Env: env})
		wantOutcome(t, res, wasmexec.Succeeded, "")
		var v []any
		if err := json.Unmarshal(res.Value, &v); err != nil {
			t.Fatal(err)
		}
		wantA, wantB := any(nil), any(nil)
		if env["A"] != "" {
			wantA = env["A"]
		}
		if env["B"] != "" {
			wantB = env["B"]
		}
		if v[0] != wantA || v[1] != wantB || v[2] != "/workspace" || v[3] != "/workspace" {
			t.Errorf("env %v: got %v", env, v)
		}
		if argv, _ := v[4].([]any); len(argv) != 1 || argv[0] != "" {
			t.Errorf("argv %v", v[4])
		}
		if now, _ := v[5].(float64); now < before-1 || now > before+60 {
			t.Errorf("time.time() %f, host %f", now, before)
		}
	}
	res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "import sys, time\nt0 = time.monotonic()\nprint(sys.argv, time.monotonic() >= t0)", Args: []string{"x"}})
	if res.Stdout == nil || *res.Stdout != "['main.py', 'x'] True\n" {
		t.Errorf("execute argv/monotonic: %+v", res)
	}
}
