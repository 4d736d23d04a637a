package main

import (
	"container/heap"
	"time"

	"github.com/dop251/goja"
)

// eventLoop runs setTimeout/setInterval callbacks after the script, in due
// order, until none are left. Promise jobs (and queueMicrotask) are drained
// by goja after every callback. Sleeping goes through WASI poll_oneoff, which
// the host implements interruptibly, so a deadline ends a sleeping guest.
type eventLoop struct {
	vm      *goja.Runtime
	builtin *intrinsics
	timers  timerHeap
	byID    map[int64]*timer
	nextID  int64
	seq     int64
}

type timer struct {
	id       int64
	due      time.Time
	seq      int64 // FIFO among equal due times
	interval time.Duration
	repeat   bool
	fn       goja.Callable
	args     []goja.Value
	index    int
}

func newEventLoop(vm *goja.Runtime, builtin *intrinsics) *eventLoop {
	return &eventLoop{vm: vm, builtin: builtin, byID: map[int64]*timer{}}
}

func (l *eventLoop) install(g *goja.Object) {
	vm := l.vm
	add := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(call.Argument(0))
			if !ok {
				panic(vm.NewTypeError("callback must be a function"))
			}
			ms := call.Argument(1).ToFloat()
			if !(ms >= 1) { // also catches NaN
				ms = 1
			}
			var args []goja.Value
			if len(call.Arguments) > 2 {
				args = append(args, call.Arguments[2:]...)
			}
			return vm.ToValue(l.add(fn, time.Duration(ms*float64(time.Millisecond)), repeat, args))
		}
	}
	clear := func(call goja.FunctionCall) goja.Value {
		l.clear(call.Argument(0).ToInteger())
		return goja.Undefined()
	}
	must(g.Set("setTimeout", add(false)))
	must(g.Set("setInterval", add(true)))
	must(g.Set("clearTimeout", clear))
	must(g.Set("clearInterval", clear))
	// queueMicrotask is Promise.resolve().then(() => fn()), with the
	// driver's own Promise.resolve and then.
	must(g.Set("queueMicrotask", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback must be a function"))
		}
		job := vm.ToValue(func(goja.FunctionCall) goja.Value {
			if _, err := fn(goja.Undefined()); err != nil {
				panic(err)
			}
			return goja.Undefined()
		})
		p, err := l.builtin.resolve(l.builtin.promise)
		if err == nil {
			_, err = l.builtin.then(p, job)
		}
		if err != nil {
			panic(err)
		}
		return goja.Undefined()
	}))
}

func (l *eventLoop) add(fn goja.Callable, d time.Duration, repeat bool, args []goja.Value) int64 {
	l.nextID++
	l.seq++
	t := &timer{id: l.nextID, due: time.Now().Add(d), seq: l.seq, interval: d, repeat: repeat, fn: fn, args: args}
	l.byID[t.id] = t
	heap.Push(&l.timers, t)
	return t.id
}

func (l *eventLoop) clear(id int64) {
	if t, ok := l.byID[id]; ok {
		heap.Remove(&l.timers, t.index)
		delete(l.byID, id)
	}
}

// run fires timers until none remain or a callback throws.
func (l *eventLoop) run() error {
	for len(l.timers) > 0 {
		t := l.timers[0]
		if wait := time.Until(t.due); wait > 0 {
			flushOutput() // a reader sees what came before the pause now
			time.Sleep(wait)
		}
		if t.repeat {
			l.seq++
			t.due = time.Now().Add(t.interval)
			t.seq = l.seq
			heap.Fix(&l.timers, t.index)
		} else {
			heap.Pop(&l.timers)
			delete(l.byID, t.id)
		}
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			return err
		}
	}
	return nil
}

// reset drops timers left over by a failed request, so they can't fire
// during the next one.
func (l *eventLoop) reset() {
	l.timers = l.timers[:0]
	clear(l.byID)
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].due.Equal(h[j].due) {
		return h[i].seq < h[j].seq
	}
	return h[i].due.Before(h[j].due)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *timerHeap) Push(x any)   { t := x.(*timer); t.index = len(*h); *h = append(*h, t) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
