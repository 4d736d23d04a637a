package engine

import (
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
