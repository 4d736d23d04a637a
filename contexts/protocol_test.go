package contexts_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// A driver that breaks the control protocol is stopped by the host: the run
// fails with code internal (a ProtocolError, whatever it answered) and the
// context replaces the guest (contextReset) instead of failing until a
// reset. A call lasts until the driver is back in recv, so what a driver
// does after answering belongs to the run that it answered.
func TestProtocolViolationReplacesTheGuest(t *testing.T) {
	spin := []byte{opLoop, 0x40, opBr, 0, opEnd}
	for _, tc := range []struct {
		name string
		body []byte // _start, after its first recv
		want string // in the error message
	}{
		{"second send for one request", loopBody(callRecv(), callSend(), callSend()), "a second send for one request"},
		{"recv before answering", loopBody(callRecv(), callRecv(), []byte{opDrop}), "recv before the current request was answered"},
		{"running on after answering", loopBody(callRecv(), callSend(), spin), "did not come back for the next request"},
		{"sleeping after answering", loopBody(callRecv(), callSend(), callSleep(), []byte{opDrop}), "slept after answering"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := wasmexec.Language("violator")
			img := loadWasmGuest(t, "violator-"+strings.ReplaceAll(tc.name, " ", "-"), tc.body)
			r := testenv.Runner(t, testenv.RunnerConfig{
				Images:    map[string]*engine.Image{img.Spec.Name: img},
				Languages: map[wasmexec.Language]wasmexec.LanguageDriver{lang: passthrough{img.Spec.Name, "v"}},
			})
			m := MustManager(t, contexts.Config{Runner: r}, 0)
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: "v", Language: lang})
			for i := range 2 {
				res := MustRun(t, m, "v", wasmexec.Request{Language: lang, Code: "x", Limits: wasmexec.Limits{Fuel: 20_000_000}})
				if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeInternal || res.Error.Name != "ProtocolError" ||
					!strings.Contains(res.Error.Message, tc.want) || res.Value != nil || !res.ContextReset {
					t.Fatalf("run %d: %s %+v value %s contextReset=%v", i, res.Outcome, res.Error, res.Value, res.ContextReset)
				}
			}
			if d := mustGet(t, m, "v"); d.State == wasmexec.ContextFailed || d.Resets == 0 {
				t.Fatalf("descriptor: %+v", d)
			}
		})
	}
	t.Run("send before the first request", func(t *testing.T) {
		img := loadWasmGuest(t, "violator-early-send", append(callSend(), loopBody(callRecv(), callSend())...))
		_, err := img.Start(context.Background(), engine.GuestOptions{})
		if err == nil || !strings.Contains(err.Error(), "send before the first request") {
			t.Fatalf("start: %v", err)
		}
	})
}

// --- a minimal hand-assembled guest ---------------------------------------

const (
	opDrop     = 0x1a
	opCall     = 0x10
	opI32Const = 0x41
	opI32LtS   = 0x48
	opBrIf     = 0x0d
	opBr       = 0x0c
	opBlock    = 0x02
	opLoop     = 0x03
	opEnd      = 0x0b
	recvFunc   = 0 // imported functions come first
	sendFunc   = 1
	pollFunc   = 2 // wasi poll_oneoff
	startFunc  = 3
	replyAt    = 0
	sleepAt    = 512 // a poll_oneoff clock subscription: an hour
	eventAt    = 768
	bufferAt   = 1024
	bufferCap  = 60000
)

var reply = []byte(`{"status":"ok","hasValue":true,"value":1}`)

func i32(v int32) []byte { return append([]byte{opI32Const}, sleb(int64(v))...) }

func callRecv() []byte {
	b := append(i32(bufferAt), i32(bufferCap)...)
	return append(b, opCall, recvFunc)
}

func callSend() []byte {
	b := append(i32(replyAt), i32(int32(len(reply)))...)
	return append(b, opCall, sendFunc)
}

// callSleep is poll_oneoff(sleepAt, eventAt, 1, eventAt+64), leaving its
// errno on the stack.
func callSleep() []byte {
	b := append(i32(sleepAt), i32(eventAt)...)
	b = append(b, i32(1)...)
	b = append(b, i32(eventAt+64)...)
	return append(b, opCall, pollFunc)
}

// sleepSubscription is a relative clock subscription (monotonic) of an
// hour, in poll_oneoff's layout.
func sleepSubscription() []byte {
	sub := make([]byte, 48)
	sub[8] = 0                                                 // tag: clock
	binary.LittleEndian.PutUint32(sub[16:], 1)                 // monotonic
	binary.LittleEndian.PutUint64(sub[24:], uint64(time.Hour)) // timeout, ns
	return sub
}

// loopBody is _start: loop { if first < 0 { return }; rest... } where first
// is a recv leaving its result on the stack.
func loopBody(first []byte, rest ...[]byte) []byte {
	b := []byte{opBlock, 0x40, opLoop, 0x40}
	b = append(b, first...)
	b = append(b, i32(0)...)
	b = append(b, opI32LtS, opBrIf, 1)
	for _, r := range rest {
		b = append(b, r...)
	}
	return append(b, opBr, 0, opEnd, opEnd, opEnd)
}

// loadWasmGuest writes a guest image whose _start is body (with imports
// wasmexec.recv, wasmexec.send and poll_oneoff, one page of memory holding
// the reply and a sleep subscription) and loads it.
func loadWasmGuest(tb testing.TB, name string, body []byte) *engine.Image {
	tb.Helper()
	vec := func(items ...[]byte) []byte {
		out := uleb(uint64(len(items)))
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	str := func(s string) []byte { return append(uleb(uint64(len(s))), s...) }
	section := func(id byte, payload []byte) []byte {
		return append(append([]byte{id}, uleb(uint64(len(payload)))...), payload...)
	}
	const i32t = 0x7f
	types := vec(
		[]byte{0x60, 2, i32t, i32t, 1, i32t},             // recv(ptr, cap) -> n
		[]byte{0x60, 2, i32t, i32t, 0},                   // send(ptr, len)
		[]byte{0x60, 0, 0},                               // _start
		[]byte{0x60, 4, i32t, i32t, i32t, i32t, 1, i32t}, // poll_oneoff
	)
	imports := vec(
		append(append(str("wasmexec"), str("recv")...), 0x00, 0),
		append(append(str("wasmexec"), str("send")...), 0x00, 1),
		append(append(str("wasi_snapshot_preview1"), str("poll_oneoff")...), 0x00, 3),
	)
	code := append([]byte{0}, body...) // no locals
	segment := func(at int32, b []byte) []byte {
		seg := append([]byte{0x00}, i32(at)...)
		return append(append(seg, opEnd), append(uleb(uint64(len(b))), b...)...)
	}
	mod := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	mod = append(mod, section(1, types)...)
	mod = append(mod, section(2, imports)...)
	mod = append(mod, section(3, vec([]byte{2}))...)
	mod = append(mod, section(5, vec([]byte{0x00, 1}))...)
	mod = append(mod, section(7, vec(
		append(str("memory"), 0x02, 0),
		append(str("_start"), 0x00, startFunc),
	))...)
	mod = append(mod, section(10, vec(append(uleb(uint64(len(code))), code...)))...)
	mod = append(mod, section(11, vec(segment(replyAt, reply), segment(sleepAt, sleepSubscription())))...)

	dir := tb.TempDir()
	spec, _ := json.Marshal(map[string]any{"name": name, "wasm": "guest.wasm", "argv": []string{name}})
	if err := os.WriteFile(filepath.Join(dir, "guest.json"), spec, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guest.wasm"), mod, 0o644); err != nil {
		tb.Fatal(err)
	}
	img, err := testenv.Engine(tb).LoadImage(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

func uleb(v uint64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			c |= 0x80
		}
		b = append(b, c)
		if v == 0 {
			return b
		}
	}
}

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
