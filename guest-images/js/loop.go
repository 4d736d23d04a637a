package main

import (
	"container/heap"
	"errors"
	"time"

	"github.com/dop251/goja"
)

// eventLoop runs setTimeout/setInterval/setImmediate callbacks after the
// script, in due order, until no timer that keeps the loop alive is left.
// Promise jobs (and queueMicrotask) are drained by goja after every
// callback. Sleeping goes through WASI poll_oneoff, which the host
// implements interruptibly, so a deadline ends a sleeping guest.
//
// As in Node, a timer is an object (Timeout) with ref, unref, hasRef,
// refresh and close, whose primitive value is its id: packages call
// setTimeout(...).unref() and expect it to work, and an unref'd timer (an
// AbortSignal.timeout, a library's idle timer) must not hold the run open.
type eventLoop struct {
	vm      *goja.Runtime
	builtin *intrinsics
	timers  timerHeap
	byID    map[int64]*timer
	byObj   map[*goja.Object]*timer
	nextID  int64
	seq     int64
	// refs counts the timers in the heap that keep the loop alive.
	refs int
	// proto is Timeout.prototype (and Immediate's); idKey the symbol its
	// objects keep their id under.
	proto *goja.Object
	idKey *goja.Symbol
}

type timer struct {
	id       int64
	due      time.Time
	seq      int64 // FIFO among equal due times
	interval time.Duration
	repeat   bool
	unref    bool
	fn       goja.Callable
	args     []goja.Value
	obj      *goja.Object
	index    int
}

// timeoutMax is Node's TIMEOUT_MAX (2^31-1 ms): a longer delay is 1 ms.
const timeoutMax = 1<<31 - 1

func newEventLoop(vm *goja.Runtime, builtin *intrinsics) *eventLoop {
	return &eventLoop{vm: vm, builtin: builtin, byID: map[int64]*timer{}, byObj: map[*goja.Object]*timer{}}
}

func (l *eventLoop) install(g *goja.Object, process *goja.Object) {
	vm := l.vm
	l.idKey = goja.NewSymbol("timerId")
	l.proto = l.timeoutProto()
	callback := func(v goja.Value) goja.Callable {
		fn, ok := goja.AssertFunction(v)
		if !ok {
			panic(l.typeError("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function. Received "+describe(v)))
		}
		return fn
	}
	add := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			fn := callback(call.Argument(0))
			ms := call.Argument(1).ToFloat()
			if !(ms >= 1 && ms <= timeoutMax) { // also catches NaN
				ms = 1
			}
			var args []goja.Value
			if len(call.Arguments) > 2 {
				args = append(args, call.Arguments[2:]...)
			}
			return l.add(fn, time.Duration(ms*float64(time.Millisecond)), repeat, args).obj
		}
	}
	clear := func(call goja.FunctionCall) goja.Value {
		l.clearValue(call.Argument(0))
		return goja.Undefined()
	}
	must(g.Set("setTimeout", add(false)))
	must(g.Set("setInterval", add(true)))
	must(g.Set("clearTimeout", clear))
	must(g.Set("clearInterval", clear))
	// setImmediate runs fn once the current callback and its promise jobs
	// are done, before any timer that is not yet due.
	must(g.Set("setImmediate", func(call goja.FunctionCall) goja.Value {
		fn := callback(call.Argument(0))
		var args []goja.Value
		if len(call.Arguments) > 1 {
			args = append(args, call.Arguments[1:]...)
		}
		return l.add(fn, 0, false, args).obj
	}))
	must(g.Set("clearImmediate", clear))
	// queueMicrotask is Promise.resolve().then(() => fn()), with the
	// driver's own Promise.resolve and then.
	must(g.Set("queueMicrotask", func(call goja.FunctionCall) goja.Value {
		l.microtask(callback(call.Argument(0)), nil)
		return goja.Undefined()
	}))
	// process.nextTick is a microtask too: Node runs its queue before the
	// promise jobs, which only code that mixes the two can tell.
	must(process.Set("nextTick", func(call goja.FunctionCall) goja.Value {
		fn := callback(call.Argument(0))
		var args []goja.Value
		if len(call.Arguments) > 1 {
			args = append(args, call.Arguments[1:]...)
		}
		l.microtask(fn, args)
		return goja.Undefined()
	}))
	_ = vm
}

// microtask queues fn(...args) as a promise job. What fn throws fails
// the run, as an uncaught exception ends a Node process: as a promise
// job's throw it would only reject a promise nobody sees.
func (l *eventLoop) microtask(fn goja.Callable, args []goja.Value) {
	job := l.vm.ToValue(func(goja.FunctionCall) goja.Value {
		if _, err := fn(goja.Undefined(), args...); err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				l.report(ex.Value())
				return goja.Undefined()
			}
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
}

// report fails the run with the thrown value v once the current callback
// and its promise jobs are done: a timer due now that throws it.
func (l *eventLoop) report(v goja.Value) {
	thrower, _ := goja.AssertFunction(l.vm.ToValue(func(goja.FunctionCall) goja.Value { panic(v) }))
	l.add(thrower, 0, false, nil)
}

// timeoutProto makes Timeout.prototype: ref, unref, hasRef, refresh,
// close and Symbol.toPrimitive (the id, so clearTimeout(+t) and keys of
// t work).
func (l *eventLoop) timeoutProto() *goja.Object {
	vm := l.vm
	p := vm.NewObject()
	self := func(call goja.FunctionCall) *timer { // nil once fired or cleared
		if o, ok := call.This.(*goja.Object); ok {
			return l.byObj[o]
		}
		return nil
	}
	must(p.Set("ref", func(call goja.FunctionCall) goja.Value {
		if t := self(call); t != nil && t.unref {
			t.unref = false
			l.refs++
		}
		return call.This
	}))
	must(p.Set("unref", func(call goja.FunctionCall) goja.Value {
		if t := self(call); t != nil && !t.unref {
			t.unref = true
			l.refs--
		}
		return call.This
	}))
	must(p.Set("hasRef", func(call goja.FunctionCall) goja.Value {
		t := self(call)
		return vm.ToValue(t != nil && !t.unref)
	}))
	// refresh restarts an active timer's delay from now (a timer that has
	// fired or was cleared stays as it is).
	must(p.Set("refresh", func(call goja.FunctionCall) goja.Value {
		if t := self(call); t != nil {
			l.seq++
			t.due, t.seq = time.Now().Add(t.interval), l.seq
			heap.Fix(&l.timers, t.index)
		}
		return call.This
	}))
	must(p.Set("close", func(call goja.FunctionCall) goja.Value {
		l.clearValue(call.This)
		return call.This
	}))
	toPrim := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if o, ok := call.This.(*goja.Object); ok {
			return o.GetSymbol(l.idKey)
		}
		return goja.Undefined()
	})
	must(p.DefineDataPropertySymbol(goja.SymToPrimitive, toPrim, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(p.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Timeout"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	return p
}

func (l *eventLoop) typeError(code, msg string) *goja.Object {
	e := l.vm.NewTypeError(msg)
	_ = e.Set("code", code)
	return e
}

func (l *eventLoop) add(fn goja.Callable, d time.Duration, repeat bool, args []goja.Value) *timer {
	l.nextID++
	l.seq++
	t := &timer{id: l.nextID, due: time.Now().Add(d), seq: l.seq, interval: d, repeat: repeat, fn: fn, args: args}
	t.obj = l.vm.CreateObject(l.proto)
	_ = t.obj.DefineDataPropertySymbol(l.idKey, l.vm.ToValue(t.id), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	l.byID[t.id] = t
	l.byObj[t.obj] = t
	l.refs++
	heap.Push(&l.timers, t)
	return t
}

// clearValue clears the timer v is (a Timeout) or names (its id).
func (l *eventLoop) clearValue(v goja.Value) {
	if o, ok := v.(*goja.Object); ok {
		if t := l.byObj[o]; t != nil {
			l.remove(t)
		}
		return
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return
	}
	if t, ok := l.byID[v.ToInteger()]; ok {
		l.remove(t)
	}
}

func (l *eventLoop) remove(t *timer) {
	heap.Remove(&l.timers, t.index)
	l.forget(t)
}

func (l *eventLoop) forget(t *timer) {
	delete(l.byID, t.id)
	delete(l.byObj, t.obj)
	if !t.unref {
		l.refs--
	}
}

// run fires timers until none that keeps the loop alive remains or a
// callback throws.
func (l *eventLoop) run() error {
	for l.refs > 0 {
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
			l.forget(t)
		}
		if _, err := t.fn(t.obj, t.args...); err != nil {
			return err
		}
	}
	return nil
}

// reset drops timers left over by a failed request (or unref'd ones a
// finished request left), so they can't fire during the next one.
func (l *eventLoop) reset() {
	l.timers = l.timers[:0]
	clear(l.byID)
	clear(l.byObj)
	l.refs = 0
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
