package engine

// The pages runs from a template write (GuestOptions.Template, Ahead).
//
// A run from a template maps the template's state copy-on-write, and every
// page it writes is copied by the kernel at its first write: a Python run
// of sympy.solve from a 47 MB template writes ~1,500 of them (the driver's
// start, the refcounts of every object the run touches), ~3 µs each on the
// build machine, page allocation and copy included. A guest in a context
// wrote them long ago. Populating the same pages writable ahead
// (MADV_POPULATE_WRITE) costs as much CPU per page as the faults do, so it
// only pays in a guest made ahead of its run, off the run's path (a
// template's spare guest): then the run finds them written.
//
// Which pages: those the last measured run wrote. A guest restored
// without them populated reports, when its store is freed after a run,
// the pages of its mapped ranges it made its own (/proc/self/pagemap:
// present and anonymous). A guest made ahead with them populated can't
// tell its run's writes from the population, so it reports nothing, and
// every relearnEvery'th guest made ahead is left unpopulated to measure
// again: the set follows what the template's runs do, and never grows
// past what one run wrote.

import (
	"os"
	"sync"
)

const (
	// relearnEvery: one guest in this many made ahead measures again.
	relearnEvery = 8
	// maxLearned bounds the states remembered (a state is a template
	// generation's file); past it they are all forgotten, and learned
	// again by their next runs.
	maxLearned = 1024
)

// stateID names a state by its file and offset: a template's record is
// never written in place (replaced by rename), so a new generation is a
// new inode.
type stateID struct {
	dev, ino uint64
	off      int64
}

// learnedWrites is what runs from one state wrote.
type learnedWrites struct {
	mu    sync.Mutex
	runs  []pageRun // nil: not measured yet
	ahead int       // guests made ahead since the state was first seen
}

// learnedStates is an engine's record of what runs from each state wrote.
type learnedStates struct {
	mu sync.Mutex
	m  map[stateID]*learnedWrites
}

// learnedFor returns the record of f's state at off, nil when f can't be
// named.
func (e *Engine) learnedFor(f *os.File, off int64) *learnedWrites {
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	dev, ino, ok := fileID(fi)
	if !ok {
		return nil
	}
	id := stateID{dev: dev, ino: ino, off: off}
	s := &e.learned
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.m[id]
	if l == nil {
		if s.m == nil || len(s.m) >= maxLearned {
			s.m = map[stateID]*learnedWrites{}
		}
		l = &learnedWrites{}
		s.m[id] = l
	}
	return l
}

// learnOrPopulate runs after a template's state was mapped into mem:
// a guest made ahead populates the pages earlier runs wrote; any other
// (and one in relearnEvery made ahead) measures what its run writes.
func (g *Guest) learnOrPopulate(mem []byte, f *os.File, off int64) {
	l := g.img.engine.learnedFor(f, off)
	if l == nil {
		return
	}
	l.mu.Lock()
	runs := l.runs
	if g.opts.Ahead {
		l.ahead++
		if l.ahead%relearnEvery == 0 {
			runs = nil
		}
	}
	l.mu.Unlock()
	if g.opts.Ahead && runs != nil {
		prefault(mem, runs)
		return
	}
	g.learn = l
}

// learnWrites records the pages of the mapped ranges g wrote, when it
// measures them and a run was made in it. Its store is about to be freed.
func (g *Guest) learnWrites() {
	if g.learn == nil || !g.called.Load() || g.mem == nil {
		return
	}
	w, err := writtenPages(g.mem.UnsafeData(g.store))
	if err != nil {
		return
	}
	runs := insideRanges(w, g.mappedFrom)
	g.learn.mu.Lock()
	g.learn.runs = runs
	g.learn.mu.Unlock()
}

// insideRanges is the parts of runs inside the (sorted) ranges.
func insideRanges(runs []pageRun, ranges []memRange) []pageRun {
	out := []pageRun{}
	for _, r := range runs {
		for _, m := range ranges {
			mf, me := int(m.mem/statePage), int((m.mem+m.n)/statePage)
			if f, e := max(r.first, mf), min(r.first+r.n, me); f < e {
				out = append(out, pageRun{first: f, n: e - f})
			}
		}
	}
	return out
}
