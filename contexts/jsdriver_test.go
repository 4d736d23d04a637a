package contexts_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/exec"
)

// The JavaScript driver keeps one guest per context, so everything a run
// leaves in the driver must be reset or guarded: these are the ways one run
// could reach into the next (issue 11, item 3).

// Each run reads its own stdin: not what the previous run left unread, and
// not the previous run's EOF.
func TestJSStdinIsPerRun(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, exec.ContextSpec{ContextID: "in"})
	run := func(code, stdin string) *exec.Result {
		t.Helper()
		return MustRun(t, m, "in", exec.Request{Code: code, Stdin: stdin})
	}
	wantValue(t, run("stdin.readLine()", "first\nsecret\n"), `"first"`)
	wantValue(t, run("stdin.readLine()", "second\n"), `"second"`)
	wantValue(t, run("[stdin.read(), stdin.readLine()]", "all of it"), `["all of it",null]`)
	wantValue(t, run("stdin.read()", "after EOF"), `"after EOF"`)
	wantValue(t, run("stdin.readLine()", "x\ny"), `"x"`)
	wantValue(t, run("[stdin.readLine(), stdin.read()]", ""), `[null,""]`)
}

// What user code does while the driver serializes a value (a getter, a
// toJSON, a promise job after the script) is the outcome of that run, and
// the next run starts clean.
func TestJSOutcomeStaysInItsRun(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	for i, tc := range []struct {
		name, code string
		exit       int    // want a failed/exit with this status, or
		errName    string // a failed/exception with this name
		errMessage string
	}{
		{name: "getter exits", exit: 7, code: "const o = {}; Object.defineProperty(o, 'a', {get: process.exit.bind(null, 7), enumerable: true}); o"},
		{name: "toJSON exits", exit: 7, code: "({toJSON: process.exit.bind(null, 7)})"},
		{name: "JS getter exits", exit: 5, code: "({get a() { process.exit(5); return 1 }, b: 2})"},
		{name: "nested getter exits", exit: 6, code: "[1, {x: {get y() { process.exit(6) }}}]"},
		{name: "promise job exits after the script", exit: 9, code: "Promise.resolve(9).then(process.exit); 1"},
		{name: "map entry getter exits", exit: 4, code: "new Map([['k', {get v() { process.exit(4) }}]])"},
		{name: "getter throws", errName: "Error", errMessage: "from a getter", code: "({get a() { throw new Error('from a getter') }})"},
		{name: "toJSON throws", errName: "TypeError", errMessage: "from toJSON", code: "({toJSON() { throw new TypeError('from toJSON') }})"},
		{name: "thrown value's getter exits", exit: 3, code: "throw {get message() { process.exit(3) }}"},
		{name: "thrown value's getter throws", errName: "Custom", errMessage: "[object]", code: "throw {name: 'Custom', get message() { throw 1 }, toString() { throw 2 }}"},
		{name: "rejection's getter exits", exit: 2, code: "await Promise.reject({get name() { process.exit(2) }})"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := fmt.Sprintf("o%d", i)
			MustCreate(t, m, exec.ContextSpec{ContextID: id})
			res := MustRun(t, m, id, exec.Request{Code: tc.code})
			if tc.exit != 0 {
				if res.Outcome != exec.Failed || res.Error == nil || res.Error.Code != exec.CodeExit || res.ExitCode != tc.exit {
					t.Fatalf("got %s exit %d %+v value %s, want exit %d", res.Outcome, res.ExitCode, res.Error, res.Value, tc.exit)
				}
			} else if res.Outcome != exec.Failed || res.Error == nil || res.Error.Code != exec.CodeException || res.Error.Name != tc.errName || res.Error.Message != tc.errMessage {
				t.Fatalf("got %s %+v value %s, want exception %s: %s", res.Outcome, res.Error, res.Value, tc.errName, tc.errMessage)
			}
			if res.ContextReset {
				t.Fatalf("the guest was replaced: %+v", res)
			}
			for range 2 {
				wantValue(t, MustRun(t, m, id, exec.Request{Code: "1+1"}), "2")
			}
		})
	}
}

// The driver uses its own built-ins, captured before any user code ran: a
// run that replaces JSON.parse, Object.freeze, Promise.prototype.then or the
// fs global neither sees nor changes what later runs get.
func TestJSDriverKeepsItsOwnBuiltins(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, exec.ContextSpec{ContextID: "b"})
	MustRun(t, m, "b", exec.Request{Code: `
		globalThis.seen = [];
		JSON.parse = s => { seen.push(s); return {apiKey: 'forged'} };
		Object.freeze = o => { seen.push(o); return o };
		Object.isFrozen = () => true;
		Object.keys = () => [];
		Object.defineProperty(Object.prototype, 'apiKey', {set(v) { seen.push(v) }, configurable: true});
		Array.from = () => ['forged'];
		Set.prototype[Symbol.iterator] = function* () { yield 'forged' };
		Map.prototype.forEach = () => seen.push('map');
		Promise.prototype.then = function () { seen.push('then'); return this };
		fs = {forged: true};
		1`})
	inputs := json.RawMessage(`{"apiKey": "k-123", "nested": {"list": [1, {"deep": true}]}}`)
	wantValue(t, MustRun(t, m, "b", exec.Request{Code: `
		'use strict';
		const tries = [];
		for (const f of [() => { inputs.apiKey = 'x' }, () => { inputs.nested.list.push(2) }, () => { inputs.nested.list[1].deep = false }, () => { inputs.added = 1 }]) {
			try { f(); tries.push('changed') } catch (e) { tries.push(e.name) }
		}
		[inputs.apiKey, inputs.nested.list[1].deep, inputs.nested.list.length, tries]`, Inputs: inputs}),
		`["k-123",true,2,["TypeError","TypeError","TypeError","TypeError"]]`)
	wantValue(t, MustRun(t, m, "b", exec.Request{Code: "queueMicrotask(() => { globalThis.ran = true }); new Set([1, 2])"}),
		`{"$type":"Set","entries":[1,2]}`)
	wantValue(t, MustRun(t, m, "b", exec.Request{Code: "[ran, seen.length, new Map([['k', 1]])]"}),
		`[true,0,{"$type":"Map","entries":[["k",1]]}]`)
	wantValue(t, MustRun(t, m, "b", exec.Request{Format: "commonjs", Code: "module.exports = [require('fs') === fs, typeof require('fs').existsSync]"}),
		`[false,"function"]`)
}

// A run without cwd starts in the workspace, whatever the previous run's was.
func TestJSCwdIsPerRun(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, exec.ContextSpec{ContextID: "cwd"})
	MustRun(t, m, "cwd", exec.Request{Code: "fs.mkdirSync('sub'); fs.writeFileSync('sub/a.txt', 'in sub'); fs.writeFileSync('a.txt', 'at the root')"})
	wantValue(t, MustRun(t, m, "cwd", exec.Request{Code: "[__dirname, fs.readFileSync('a.txt', 'utf8')]", Cwd: "sub"}), `["/workspace/sub","in sub"]`)
	wantValue(t, MustRun(t, m, "cwd", exec.Request{Code: "[__dirname, fs.readFileSync('a.txt', 'utf8')]"}), `["/workspace","at the root"]`)
}
