package engine_test

import (
	"context"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// A guest's resident bytes count the pages it maps, not its grown size;
// trimming gives back the image pages it only read and keeps every page
// it wrote, so its state survives the trim, a capture after it (which
// skips the pages the page map shows untouched) and a restore.
func TestResidentTrimAndCaptureKeepState(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lang  wasmexec.Language
		setup string
		check string
		want  string
	}{
		{name: "javascript", lang: wasmexec.JavaScript,
			setup: "globalThis.big = new Uint8Array(6 << 20); for (let i = 0; i < big.length; i += 4096) big[i] = (i >> 12) & 255; globalThis.s = 'kept'; 0",
			check: "(() => { let sum = 0; for (let i = 0; i < big.length; i += 4096) sum += big[i]; return s + sum })()", want: `"kept195840"`},
		{name: "python", lang: wasmexec.Python,
			setup: "big = bytearray(6 << 20)\nfor i in range(0, len(big), 4096): big[i] = (i >> 12) & 255\ns = 'kept'\n0",
			check: "s + str(sum(big[i] for i in range(0, len(big), 4096)))", want: `"kept195840"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hibRunner(t, tc.lang)
			g, _ := keptGuest(t, r, tc.lang)
			evalIn(t, r, g, tc.lang, tc.setup)
			total, private := g.Resident()
			if private < 6<<20 || total < private || total > 512<<20 {
				t.Fatalf("resident %d, private %d: want at least the 6 MiB written, far less than the memory limit", total, private)
			}
			trimmed := g.Trim()
			total2, private2 := g.Resident()
			t.Logf("before the trim: %d resident, %d private; trimmed %d; after: %d resident, %d private", total, private, trimmed, total2, private2)
			if trimmed <= 0 || total2 != total-trimmed || private2 != private {
				t.Fatalf("after a trim of %d: resident %d → %d, private %d → %d; want only shared pages gone", trimmed, total, total2, private, private2)
			}
			if got := evalIn(t, r, g, tc.lang, tc.check); got != tc.want {
				t.Fatalf("after the trim: %s, want %s", got, tc.want)
			}
			g.Trim()
			st, err := g.Capture(context.Background(), true)
			if err != nil {
				t.Fatal(err)
			}
			if got := evalIn(t, r, restored(t, r, tc.lang, st), tc.lang, tc.check); got != tc.want {
				t.Fatalf("restored from a capture after a trim: %s, want %s", got, tc.want)
			}
			if got := evalIn(t, r, g, tc.lang, tc.check); got != tc.want {
				t.Fatalf("the captured guest after its capture: %s, want %s", got, tc.want)
			}
		})
	}
}
