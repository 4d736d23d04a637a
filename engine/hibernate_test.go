package engine_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pipeline"
)

// hibRunner runs the languages given (JavaScript, Python).
func hibRunner(tb testing.TB, langs ...wasmexec.Language) *pipeline.Pipeline {
	tb.Helper()
	cfg := testenv.RunnerConfig{Images: map[string]*engine.Image{}, Languages: map[wasmexec.Language]wasmexec.LanguageDriver{}}
	for _, l := range langs {
		switch l {
		case wasmexec.JavaScript:
			cfg.Images[js.ImageName] = testenv.Image(tb, js.ImageName)
			cfg.Languages[l] = js.Driver{}
		case wasmexec.Python:
			cfg.Images[python.ImageName] = testenv.Image(tb, python.ImageName)
			cfg.Languages[l] = python.Driver{}
		}
	}
	return testenv.Runner(tb, cfg)
}

func keptGuest(tb testing.TB, r *pipeline.Pipeline, lang wasmexec.Language) (*engine.Guest, string) {
	tb.Helper()
	ws := tb.TempDir()
	g, err := r.StartGuest(context.Background(), wasmexec.GuestSpec{Language: lang, Workspace: ws})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(g.Close)
	return g.(*engine.Guest), ws
}

func restored(tb testing.TB, r *pipeline.Pipeline, lang wasmexec.Language, state []byte) *engine.Guest {
	tb.Helper()
	g, err := r.RestoreGuest(context.Background(), wasmexec.GuestSpec{Language: lang, Workspace: tb.TempDir()}, state)
	if err != nil {
		tb.Fatalf("restore: %v", err)
	}
	tb.Cleanup(g.Close)
	return g.(*engine.Guest)
}

// evalIn evaluates code in a kept guest and returns its value as JSON.
func evalIn(tb testing.TB, r *pipeline.Pipeline, g wasmexec.Guest, lang wasmexec.Language, code string) string {
	tb.Helper()
	res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: lang, Code: code}, wasmexec.RunOptions{Guest: g})
	if err != nil {
		tb.Fatalf("run %q: %v", code, err)
	}
	if res.Outcome != wasmexec.Succeeded {
		tb.Fatalf("run %q: %s %+v", code, res.Outcome, res.Error)
	}
	return string(res.Value)
}

func TestCaptureRestoreState(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lang  wasmexec.Language
		setup string
		step  string // changes the state, returns a value that shows it
		want  []string
	}{
		{
			name: "javascript bindings, closures and globals",
			lang: wasmexec.JavaScript,
			setup: `let n = 40; const counter = (() => { let k = 0; return () => ++k })();
				globalThis.tag = "t"; var big = "x".repeat(1 << 20); 1`,
			step: `n++; [n, counter(), tag, big.length].join(",")`,
			want: []string{`"41,1,t,1048576"`, `"42,2,t,1048576"`, `"43,3,t,1048576"`},
		},
		{
			name: "python globals, imported modules and open generators",
			lang: wasmexec.Python,
			setup: `import json, collections
n = 40
gen = (i * i for i in range(100))
counts = collections.Counter()`,
			step: `n += 1
counts["a"] += 1
json.dumps([n, next(gen), counts["a"]])`,
			want: []string{`"[41, 0, 1]"`, `"[42, 1, 2]"`, `"[43, 4, 3]"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hibRunner(t, tc.lang)
			g, _ := keptGuest(t, r, tc.lang)
			evalIn(t, r, g, tc.lang, tc.setup)
			if got := evalIn(t, r, g, tc.lang, tc.step); got != tc.want[0] {
				t.Fatalf("before: %s, want %s", got, tc.want[0])
			}
			// A capture that keeps the guest: it goes on serving.
			kept, err := g.Capture(context.Background(), true)
			if err != nil {
				t.Fatal(err)
			}
			if got := evalIn(t, r, g, tc.lang, tc.step); got != tc.want[1] {
				t.Fatalf("after a kept capture: %s, want %s", got, tc.want[1])
			}
			// Hibernation: the guest is gone, its state comes back.
			state, err := g.Capture(context.Background(), false)
			if err != nil {
				t.Fatal(err)
			}
			if g.Alive() {
				t.Fatal("a hibernated guest is still alive")
			}
			back := restored(t, r, tc.lang, state)
			if got := evalIn(t, r, back, tc.lang, tc.step); got != tc.want[2] {
				t.Fatalf("restored: %s, want %s", got, tc.want[2])
			}
			// The earlier state restores too, independently of the other.
			fork := restored(t, r, tc.lang, kept)
			if got := evalIn(t, r, fork, tc.lang, tc.step); got != tc.want[1] {
				t.Fatalf("fork of the first capture: %s, want %s", got, tc.want[1])
			}
			if got := evalIn(t, r, back, tc.lang, tc.step); got == tc.want[2] {
				t.Fatalf("the restored guest did not advance: %s", got)
			}
			info, err := engine.ReadStateInfo(state)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes of state for %d MiB of memory, %d pages in %d frames (%d compressed), tables %v", tc.lang, len(state), info.MemoryBytes>>20, info.Pages, info.Frames, info.Compressed, info.Tables)
		})
	}
}

// Restored guests draw fresh entropy: two restores of one state don't
// produce the same random numbers.
func TestRestoreFreshEntropy(t *testing.T) {
	for _, tc := range []struct {
		lang wasmexec.Language
		code string
	}{
		{wasmexec.JavaScript, `String(Math.random())`},
		{wasmexec.Python, "import random, os\nstr(random.random()) + os.urandom(8).hex()"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			r := hibRunner(t, tc.lang)
			g, _ := keptGuest(t, r, tc.lang)
			evalIn(t, r, g, tc.lang, "1")
			state, err := g.Capture(context.Background(), false)
			if err != nil {
				t.Fatal(err)
			}
			a := evalIn(t, r, restored(t, r, tc.lang, state), tc.lang, tc.code)
			b := evalIn(t, r, restored(t, r, tc.lang, state), tc.lang, tc.code)
			if a == b {
				t.Fatalf("two restores drew the same numbers: %s", a)
			}
		})
	}
}

// A corrupt, truncated or foreign state is refused with a reason, never a
// crash, and the guest it came from is unaffected.
func TestRestoreRefusesBadStates(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript, wasmexec.Python)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, "globalThis.v = 7")
	state, err := g.Capture(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	py, _ := keptGuest(t, r, wasmexec.Python)
	pyState, err := py.Capture(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := append([]byte(nil), state...)
		b[i] ^= 0x5a
		return b
	}
	// A forged state: bytes changed and the checksum made to match, so
	// the decompressor is the one that finds it out.
	forged := func(i int) []byte {
		b := flip(i)
		body := b[:len(b)-4]
		binary.LittleEndian.PutUint32(b[len(body):], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		return b
	}
	for _, tc := range []struct {
		name  string
		state []byte
	}{
		{"empty", nil},
		{"not a state", []byte(`{"hello": "world"} and more bytes than a header needs`)},
		{"flipped magic", flip(0)},
		{"flipped header", flip(20)},
		{"flipped payload", flip(len(state) / 2)},
		{"flipped checksum", flip(len(state) - 1)},
		{"truncated", state[:len(state)/2]},
		{"truncated to the header", state[:40]},
		{"another image's state", pyState},
		{"forged payload (early)", forged(len(state) - 4 - 100)},
		{"forged payload (middle)", forged(len(state) / 2)},
		{"forged header", forged(30)},
		{"an older format", func() []byte { b := append([]byte(nil), state...); binary.LittleEndian.PutUint32(b[8:], 1); return b }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.RestoreGuest(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir()}, tc.state)
			if !engine.IsStateRefused(err) {
				t.Fatalf("err = %v, want a refused state", err)
			}
			t.Log(err)
		})
	}
	if got := evalIn(t, r, g, wasmexec.JavaScript, "v"); got != "7" {
		t.Fatalf("the captured guest: v = %s", got)
	}
	var v any
	if err := json.Unmarshal([]byte(evalIn(t, r, restored(t, r, wasmexec.JavaScript, state), wasmexec.JavaScript, "v")), &v); err != nil || v != float64(7) {
		t.Fatalf("the good state: v = %v (%v)", v, err)
	}
}

// BenchmarkHibernate measures capturing a kept guest between runs (suspend,
// diff, compress, resume) and restoring one (instantiate, write memory and
// globals, the driver's per-guest start), for a JS guest holding 20 MiB of
// random (incompressible) data and a Python guest with a few modules imported.
func BenchmarkHibernate(b *testing.B) {
	js20 := `globalThis.data = new Uint8Array(20 << 20);
			const crypto = require("crypto"); for (let i = 0; i < 320; i++) crypto.getRandomValues(data.subarray(i << 16, (i + 1) << 16)); data.length`
	for _, tc := range []struct {
		name    string
		lang    wasmexec.Language
		setup   string
		workers int // goroutines per state; 0: the default
	}{
		{"js-20MiB", wasmexec.JavaScript, js20, 0},
		// The same on one goroutine: what the parallel frames buy, and cost
		// in CPU, on this machine.
		{"js-20MiB-1worker", wasmexec.JavaScript, js20, 1},
		{"python", wasmexec.Python, "import json, re, collections\nstate = {i: str(i) for i in range(1000)}\nlen(state)", 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.workers > 0 {
				defer engine.SetStateWorkers(engine.SetStateWorkers(tc.workers))
			}
			r := hibRunner(b, tc.lang)
			g, _ := keptGuest(b, r, tc.lang)
			evalIn(b, r, g, tc.lang, tc.setup)
			ws := b.TempDir()
			dir := b.TempDir()
			var size int64
			// What a server does: a snapshot is CaptureTo into a new record
			// file (without its fsync, which is the disk's), a wake restores
			// from that file (a large state's raw pages mapped). Capture
			// and Restore through memory are the fallbacks (no data dir).
			var snapshot, wake, capture, restore []float64
			ms := func(t0 time.Time) float64 { return float64(time.Since(t0).Microseconds()) / 1000 }
			cpu0 := testenv.CPUTime()
			for i := 0; i < b.N; i++ {
				rf, err := os.Create(filepath.Join(dir, fmt.Sprintf("record-%d", i)))
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if size, err = g.CaptureTo(context.Background(), true, rf); err != nil {
					b.Fatal(err)
				}
				snapshot = append(snapshot, ms(t0))
				t0 = time.Now()
				back, err := r.RestoreGuestFile(context.Background(), wasmexec.GuestSpec{Language: tc.lang, Workspace: ws}, rf, 0)
				if err != nil {
					b.Fatal(err)
				}
				wake = append(wake, ms(t0))
				back.Close()
				rf.Close()
				os.Remove(rf.Name())

				t0 = time.Now()
				st, err := g.Capture(context.Background(), true)
				if err != nil {
					b.Fatal(err)
				}
				capture = append(capture, ms(t0))
				t0 = time.Now()
				back, err = r.RestoreGuest(context.Background(), wasmexec.GuestSpec{Language: tc.lang, Workspace: ws}, st)
				if err != nil {
					b.Fatal(err)
				}
				restore = append(restore, ms(t0))
				back.Close()
			}
			b.ReportMetric(testenv.Median(snapshot), "ms/snapshot-to-file-p50")
			b.ReportMetric(testenv.Median(wake), "ms/restore-from-file-p50")
			b.ReportMetric(float64(size), "snapshot-bytes")
			b.ReportMetric(testenv.Median(capture), "ms/capture-in-memory-p50")
			b.ReportMetric(testenv.Median(restore), "ms/restore-from-memory-p50")
			// CPU of the whole process per capture and restore: the frames are
			// worked on by several goroutines on a machine of few cores.
			b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// A capture records the sizes of the guest's tables; a restore grows the
// tables to them (new entries null), and a state whose table layout
// doesn't fit the image is refused with a reason.
func TestRestoreTableSizes(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, "globalThis.v = 7")
	state, err := g.Capture(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	info, err := engine.ReadStateInfo(state)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Tables) == 0 || info.Tables[0] == 0 {
		t.Fatalf("the state records no table sizes: %v", info.Tables)
	}
	size := info.Tables[0]
	withTables := func(sizes ...any) []byte {
		return engine.EditStateHeader(state, func(h map[string]any) { h["tables"] = sizes })
	}
	// A state whose table had grown (by a grow with null entries): the
	// restored guest's table has that size, runs, and captures it again.
	grown := restored(t, r, wasmexec.JavaScript, withTables(size+10))
	if got := evalIn(t, r, grown, wasmexec.JavaScript, "v + 1"); got != "8" {
		t.Fatalf("the guest restored with a grown table: v + 1 = %s", got)
	}
	again, err := grown.Capture(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := engine.ReadStateInfo(again); err != nil || len(info.Tables) != 1 || info.Tables[0] != size+10 {
		t.Fatalf("the grown table's size did not round-trip: %v (%v), want %d", info.Tables, err, size+10)
	}
	for _, tc := range []struct {
		name  string
		state []byte
		want  string
	}{
		{"smaller than the image's", withTables(size - 1), "smaller than the image's"},
		{"another number of tables", withTables(size, size), "2 tables, the image has 1"},
		{"no tables", withTables(), "0 tables, the image has 1"},
		{"grown past any guest", withTables(size + 1<<24), "more than a guest's table grows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.RestoreGuest(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir()}, tc.state)
			if !engine.IsStateRefused(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a refused state saying %q", err, tc.want)
			}
		})
	}
}

// A state over the size worked on in parallel (4 MiB), of random data that
// is stored raw, comes back byte for byte.
func TestCaptureRestoreLargeRandomState(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, `globalThis.data = new Uint8Array(6 << 20);
		const crypto = require("crypto"); for (let i = 0; i < 96; i++) crypto.getRandomValues(data.subarray(i << 16, (i + 1) << 16));
		globalThis.digest = () => { let h = 0; for (let i = 0; i < data.length; i += 509) h = (h * 31 + data[i]) >>> 0; return h + ":" + data.length }; 0`)
	want := evalIn(t, r, g, wasmexec.JavaScript, "digest()")
	state, err := g.Capture(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	info, err := engine.ReadStateInfo(state)
	if err != nil {
		t.Fatal(err)
	}
	if raw := info.Frames - info.Compressed; raw*16*4096 < 6<<20 {
		t.Fatalf("%d of %d frames stored raw: random data should not be compressed", raw, info.Frames)
	}
	if got := evalIn(t, r, restored(t, r, wasmexec.JavaScript, state), wasmexec.JavaScript, "digest()"); got != want {
		t.Fatalf("restored data digest %s, want %s", got, want)
	}
	t.Logf("%d bytes of state, %d frames (%d compressed)", len(state), info.Frames, info.Compressed)
}

// CaptureTo writes a state straight into a file, at an offset: it restores
// like one Capture returns.
func TestCaptureToFile(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, `globalThis.data = new Uint8Array(6 << 20);
		const crypto = require("crypto"); for (let i = 0; i < 96; i++) crypto.getRandomValues(data.subarray(i << 16, (i + 1) << 16));
		globalThis.n = 1; 0`)
	f, err := os.Create(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// At an offset, as in a record file after its head.
	n, err := g.CaptureTo(context.Background(), true, io.NewOffsetWriter(f, 100))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != 100+n {
		t.Fatalf("file of %d bytes, want 100 + %d", len(b), n)
	}
	state := b[100:]
	info, err := engine.ReadStateInfo(state)
	if err != nil || info.Frames == 0 || info.Frames == info.Compressed {
		t.Fatalf("the state in the file: %+v, %v", info, err)
	}
	evalIn(t, r, g, wasmexec.JavaScript, "n = 2")
	if got := evalIn(t, r, restored(t, r, wasmexec.JavaScript, state), wasmexec.JavaScript, "[n, data.length].join()"); got != `"1,6291456"` {
		t.Fatalf("restored from the file: %s", got)
	}
}

// A restored JS guest registers its output tick again (it runs in a new
// store): output computed between lines still reaches the host in more
// than one chunk.
func TestOutputTickAfterRestore(t *testing.T) {
	chunks := make(chan int, 4)
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
		Store: testenv.StoreFunc(func(_ context.Context, r *wasmexec.Result, events []wasmexec.Event, _ bool) error {
			if r.EventsRetained {
				chunks <- len(events)
			}
			return nil
		}),
	})
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, "1") // no events retained: no chunks sent
	state, err := g.Capture(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	back := restored(t, r, wasmexec.JavaScript, state)
	code := `function spin(ms) { const t = Date.now(); while (Date.now() - t < ms) {} }
console.log('a'); spin(40); console.log('b'); spin(40); console.log('c'); console.log('d')`
	res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.JavaScript, Code: code,
		Output: wasmexec.OutputOptions{RetainEvents: true}}, wasmexec.RunOptions{Guest: back})
	if err != nil || res.Outcome != wasmexec.Succeeded || res.Stdout == nil || *res.Stdout != "a\nb\nc\nd\n" {
		t.Fatalf("run: %v %+v", err, res)
	}
	if n := <-chunks; n < 2 {
		t.Fatalf("%d output chunk(s) for lines computed 40 ms apart, want more than one", n)
	}
}

// A refused state is an error and no guest: never an wasmexec.Guest holding a
// nil *Guest, which a context would take for a live guest and call.
func TestRefusedRestoreIsNoGuest(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	for _, tc := range []struct {
		name    string
		restore func() (wasmexec.Guest, error)
	}{
		{"from memory", func() (wasmexec.Guest, error) {
			return r.RestoreGuest(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir()}, []byte("not a state"))
		}},
		{"from a file", func() (wasmexec.Guest, error) {
			f, err := os.CreateTemp(t.TempDir(), "state")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.WriteString("not a state either")
			return r.RestoreGuestFile(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir()}, f, 0)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.restore()
			if err == nil || !r.StateRefused(err) {
				t.Fatalf("restore of garbage: %v, want a refusal", err)
			}
			if g != nil {
				t.Fatalf("a refused restore returned a guest interface (%#v)", g)
			}
		})
	}
}

// A Python guest that drew text with matplotlib (its fonts read through
// open files, cached) can be captured once the run has ended: the run's
// end drops the font caches, so hibernation and templates work for the
// guests agents chart in.
func TestCaptureAfterMatplotlibText(t *testing.T) {
	r := hibRunner(t, wasmexec.Python)
	g, _ := keptGuest(t, r, wasmexec.Python)
	code := "import io, matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 3, 2])\nax.set_title('text')\nax.text(0.5, 0.5, r'$\\alpha^2$')\n" +
		"b = io.BytesIO()\nfig.savefig(b, format='png')\nplt.close(fig)\nlen(b.getvalue()) > 1000"
	if got := evalIn(t, r, g, wasmexec.Python, code); got != "true" {
		t.Fatalf("chart: %s", got)
	}
	state, err := g.Capture(context.Background(), true)
	if err != nil {
		t.Fatalf("capture after a chart: %v", err)
	}
	back := restored(t, r, wasmexec.Python, state)
	if got := evalIn(t, r, back, wasmexec.Python, code); got != "true" {
		t.Fatalf("chart after the restore: %s", got)
	}
}
