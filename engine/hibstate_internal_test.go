package engine

import (
	"errors"
	"os"
	"slices"
	"testing"
)

func TestMergeRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []pageRun
		want []pageRun
	}{
		{"empty", nil, nil, []pageRun{}},
		{"one side", []pageRun{{1, 2}}, nil, []pageRun{{1, 2}}},
		{"apart", []pageRun{{0, 1}}, []pageRun{{10, 2}}, []pageRun{{0, 1}, {10, 2}}},
		{"within the gap", []pageRun{{0, 1}}, []pageRun{{5, 2}}, []pageRun{{0, 7}}},
		{"overlapping", []pageRun{{0, 10}, {40, 1}}, []pageRun{{3, 2}, {8, 5}}, []pageRun{{0, 13}, {40, 1}}},
		{"contained", []pageRun{{2, 3}}, []pageRun{{0, 100}}, []pageRun{{0, 100}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeRuns(tc.a, tc.b); !slices.Equal(got, tc.want) {
				t.Fatalf("mergeRuns(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// Frames cut runs into pieces of framePages pages, in order, covering every
// page once.
func TestFrameSpans(t *testing.T) {
	runs := []pageRun{{0, 5}, {10, 30}, {100, 1}}
	spans := frameSpans(runs)
	var pages []int
	for i, sp := range spans {
		n := 0
		for _, r := range sp {
			for p := r.first; p < r.first+r.n; p++ {
				pages = append(pages, p)
			}
			n += r.n
		}
		if n != framePages && i != len(spans)-1 {
			t.Fatalf("frame %d holds %d pages", i, n)
		}
	}
	var want []int
	for _, r := range runs {
		for p := r.first; p < r.first+r.n; p++ {
			want = append(want, p)
		}
	}
	if !slices.Equal(pages, want) {
		t.Fatalf("frames cover %v, want %v", pages, want)
	}
}

// A guest maps at most maxGuestMaps ranges, the largest, each of at least
// mapMinBytes; all guests together at most maxMappedRanges; and none when
// the state's raw frames are not page-aligned in its file.
func TestPlannedMapsBounds(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "state")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// 40 runs of 80 pages (320 KiB) and 40 of 8 pages, a page apart: the
	// state of a fragmented heap, all stored raw from offset 8192.
	var runs []pageRun
	for i := range 80 {
		n := 80
		if i%2 == 1 {
			n = 8
		}
		first := 0
		if k := len(runs) - 1; k >= 0 {
			first = runs[k].first + runs[k].n + 1
		}
		runs = append(runs, pageRun{first: first, n: n})
	}
	spans := frameSpans(runs)
	state := func(fileOff int64) *decodedState {
		d := &decodedState{runs: runs, file: f, fileOff: fileOff}
		off := 8192
		for _, sp := range spans {
			d.frames = append(d.frames, stateFrame{off: off})
			off += spanBytes(sp)
		}
		return d
	}
	before := mappedRanges.Load()
	got := state(0).plannedMaps(spans)
	if len(got) != maxGuestMaps {
		t.Fatalf("%d ranges planned, want %d", len(got), maxGuestMaps)
	}
	for i, r := range got {
		if r.n != 80*statePage || (i > 0 && r.mem <= got[i-1].mem) {
			t.Fatalf("range %d: %+v (want the 320 KiB ones, in memory order)", i, r)
		}
	}
	if mappedRanges.Load() != before+maxGuestMaps {
		t.Fatalf("the budget holds %d, want %d", mappedRanges.Load(), before+maxGuestMaps)
	}
	mappedRanges.Add(-maxGuestMaps)
	if got := state(100).plannedMaps(spans); got != nil {
		t.Fatalf("unaligned raw frames planned %v", got)
	}
	mappedRanges.Add(maxMappedRanges - 3)
	defer mappedRanges.Add(-(maxMappedRanges - 3))
	if got := state(0).plannedMaps(spans); got != nil || mappedRanges.Load() != before+maxMappedRanges-3 {
		t.Fatalf("over the budget: planned %d ranges, budget %d", len(got), mappedRanges.Load())
	}
}

func TestRunsOutside(t *testing.T) {
	r := func(first, n int) memRange { return memRange{mem: int64(first) * statePage, n: int64(n) * statePage} }
	for _, tc := range []struct {
		name   string
		runs   []pageRun
		ranges []memRange
		want   []pageRun
	}{
		{"none mapped", []pageRun{{0, 4}}, nil, []pageRun{{0, 4}}},
		{"all mapped", []pageRun{{0, 4}}, []memRange{r(0, 4)}, nil},
		{"middle", []pageRun{{0, 10}}, []memRange{r(3, 2)}, []pageRun{{0, 3}, {5, 5}}},
		{"two runs, two ranges", []pageRun{{0, 4}, {10, 10}}, []memRange{r(2, 2), r(12, 3)}, []pageRun{{0, 2}, {10, 2}, {15, 5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runsOutside(tc.runs, tc.ranges); !slices.Equal(got, tc.want) {
				t.Fatalf("runsOutside = %v, want %v", got, tc.want)
			}
		})
	}
}

// A state's file cut short under its mapping raises SIGBUS at the next
// read of a lost page: contain turns it into an error instead of a crash,
// on the caller's goroutine and on parallel's, and a restore refuses the
// state for it.
func TestContainOnTruncatedFile(t *testing.T) {
	if !canMapFile {
		t.Skip("no mapping on this system")
	}
	f, err := os.CreateTemp(t.TempDir(), "state")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	view, unmap, err := mapView(f, 0, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer unmap()
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	var got error
	contain(&got, func() { faultSink = view[32<<10] })
	var fe *faultError
	if !errors.As(got, &fe) || !IsStateRefused(faultRefuses(got)) {
		t.Fatalf("reading a truncated mapping: %v", got)
	}
	defer SetStateWorkers(SetStateWorkers(2))
	err = parallel(16, parallelBytes, func(i int) { faultSink = view[i<<12] })
	if !errors.As(err, &fe) {
		t.Fatalf("reading a truncated mapping on parallel's goroutines: %v", err)
	}
}

var faultSink byte // a read the compiler can't drop
