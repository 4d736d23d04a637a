// The SDK against a real server: WASMEXEC_URL (clients/clients_test.go
// starts one and runs these with node --test).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import { Sandbox, WasmexecError } from "../dist/index.js";

const url = process.env.WASMEXEC_URL;
const skip = url ? false : "WASMEXEC_URL is not set: these tests run against a real server (clients/clients_test.go starts one)";
const sb = new Sandbox({ url });
const name = () => "ts-" + randomUUID().slice(0, 12);

const OFFLINE = ["dial tcp", "no such host", "connection refused", "network is unreachable", "i/o timeout", "tls handshake"];
const offline = (t, r) => {
  if (r.outcome !== "succeeded" && r.error && OFFLINE.some((s) => r.error.message.toLowerCase().includes(s))) {
    t.skip(`the package registry is unreachable: ${r.error.message}`);
    return true;
  }
  return false;
};

/** A fetch that cuts the first response whose path ends in suffix right
 * after its first output event, as a network would. */
function dropFirst(suffix) {
  let done = false;
  return async (input, init) => {
    const resp = await fetch(input, init);
    if (done || !new URL(String(input)).pathname.endsWith(suffix)) return resp;
    done = true;
    const reader = resp.body.getReader();
    let seen = "";
    const dec = new TextDecoder();
    const enc = new TextEncoder();
    const body = new ReadableStream({
      async pull(ctrl) {
        const { value, done } = await reader.read();
        if (done) return ctrl.close();
        const before = seen.length;
        seen += dec.decode(value, { stream: true });
        const i = seen.indexOf("event: output");
        const j = i >= 0 ? seen.indexOf("\n\n", i) : -1;
        if (j >= 0) {
          ctrl.enqueue(enc.encode(seen.slice(before, j + 2)));
          reader.cancel();
          ctrl.error(new TypeError("connection reset (by the test)"));
          return;
        }
        ctrl.enqueue(value);
      },
    });
    return new Response(body, { status: resp.status, headers: resp.headers });
  };
}

describe("a real server", { skip }, () => {
  test("runCode: values, output, failures", async () => {
    let r = await sb.runCode("console.log('hi'); 6 * 7", { language: "javascript" });
    assert.equal(r.outcome, "succeeded");
    assert.equal(r.value, 42);
    assert.equal(r.stdout, "hi\n");
    r = await sb.runCode("inputs['n'] * 2", { inputs: { n: 21 } });
    assert.equal(r.value, 42);
    r = await sb.execute("import sys\nprint(sys.argv[1:], input())\nsys.exit(3)", { args: ["a"], stdin: "line\n" });
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, "['a'] line\n");
    r = await sb.runCode("const x: number = 1; x + 1", { language: "typescript" });
    assert.equal(r.value, 2);
    r = await sb.runCode("throw new Error('boom')", { language: "javascript" });
    assert.equal(r.outcome, "failed");
    assert.equal(r.error.code, "exception");
    r = await sb.runCode("import sys\nsys.stdout.buffer.write(b'\\xff\\x00')\nsys.stdout.flush()");
    assert.deepEqual(r.stdout, new Uint8Array([0xff, 0]));
  });

  test("errors are one type", async () => {
    await assert.rejects(sb.runCode("1", { language: "cobol" }), (e) => e instanceof WasmexecError && e.code === "invalid_argument" && e.status === 400 && e.message.length > 0);
    await assert.rejects(sb.contexts.get("no-such-context"), (e) => e.code === "context_not_found" && e.status === 404);
    await assert.rejects(new Sandbox({ url: "http://127.0.0.1:1" }).runCode("1"), (e) => e.code === "connection_error" && e.status === undefined);
  });

  test("callbacks see the output", async () => {
    const out = [];
    const err = [];
    const results = [];
    const r = await sb.execute("console.log('a'); console.error('b'); console.log('c')", {
      language: "javascript",
      onStdout: (e) => out.push(e.text),
      onStderr: async (e) => err.push(e.text),
      onResult: (r) => results.push(r),
    });
    assert.equal(out.join(""), "a\nc\n");
    assert.equal(out.join(""), r.stdout);
    assert.equal(err.join(""), "b\n");
    assert.deepEqual(results, [r]);
  });

  test("a streamed run delivers output before the result", async (t) => {
    const resp = await fetch(url + "/v1/evaluate", { method: "POST", headers: { Accept: "text/event-stream" }, body: JSON.stringify({ language: "javascript", code: "1" }) });
    await resp.text();
    const ct = resp.headers.get("content-type") ?? "";
    if (!ct.startsWith("text/event-stream")) {
      t.skip(`the server answers a run asking for text/event-stream with ${ct}: streamed runs are not in this server yet`);
      return;
    }
    const chunks = [];
    const r = await sb.runCode("console.log('first'); await new Promise(r => setTimeout(r, 100)); console.log('second'); 7", {
      language: "javascript",
      onStdout: (e) => chunks.push(e.text),
    });
    assert.deepEqual(chunks, ["first\n", "second\n"]);
    assert.equal(r.value, 7);
  });

  test("a context: state, files, fork, hibernate, reset", async () => {
    const id = name();
    const ctx = await sb.contexts.create({ language: "python", contextId: id });
    try {
      assert.equal(ctx.id, id);
      await ctx.runCode("x = 41");
      assert.equal((await ctx.runCode("x + 1")).value, 42);
      const e = await ctx.files.write("dir/a.txt", "hello");
      assert.equal(e.size, 5);
      assert.equal(await ctx.files.readText("dir/a.txt"), "hello");
      assert.deepEqual((await ctx.files.list("dir")).map((e) => e.path), ["dir/a.txt"]);
      assert.ok((await sb.contexts.list()).some((c) => c.id === id));

      const fork = await ctx.fork(id + "-f");
      assert.equal((await fork.runCode("x")).value, 41);
      assert.equal(await fork.files.readText("dir/a.txt"), "hello");
      await fork.delete();

      assert.equal((await ctx.hibernate()).hibernated, true);
      assert.equal((await ctx.runCode("x")).value, 41);
      assert.ok((await ctx.refresh()).restoredAtMs);

      await ctx.files.delete("dir/a.txt");
      await assert.rejects(ctx.files.read("dir/a.txt"), (e) => e.code === "not_found");
      await ctx.reset();
      assert.equal((await ctx.runCode("'x' in globals()")).value, false);
      assert.equal((await ctx.executions({ limit: 1 })).executions[0].contextId, id);
    } finally {
      await ctx.delete();
    }
    await assert.rejects(sb.contexts.get(id), (e) => e.code === "context_not_found");
  });

  test("installs", async (t) => {
    const js = await sb.contexts.create({ language: "javascript", contextId: name() });
    try {
      const r = await js.npmInstall(["is-number@7.0.0"]);
      if (offline(t, r)) return;
      assert.equal(r.outcome, "succeeded");
      assert.equal(r.installed[0].version, "7.0.0");
      assert.equal((await js.runCode("require('is-number')(5)")).value, true);
      assert.equal((await js.npmInstall(["this-package-does-not-exist-wasmexec-0"])).outcome, "failed");
    } finally {
      await js.delete();
    }
    const py = await sb.contexts.create({ language: "python", contextId: name() });
    try {
      const r = await py.pipInstall(["tabulate==0.9.0"]);
      if (offline(t, r)) return;
      assert.equal(r.installed[0].name, "tabulate");
      assert.equal((await py.runCode("import tabulate\ntabulate.__version__")).value, "0.9.0");
    } finally {
      await py.delete();
    }
  });

  test("a process: list, stdin, replay, wait, stream", async () => {
    const p = await sb.processes.spawn("import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)\nprint('bye')");
    assert.ok((await sb.processes.list()).some((q) => q.pid === p.pid));
    await p.writeStdin("one\n");
    await p.writeStdin(new TextEncoder().encode("two\n"));
    let text = "";
    let after;
    for (const deadline = Date.now() + 30000; text !== "ONE\nTWO\n" && Date.now() < deadline; ) {
      const page = await p.output({ after, maxBytes: 4 });
      text += page.events.map((e) => e.text).join("");
      after = page.nextCursor;
      if (!page.events.length) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(text, "ONE\nTWO\n");
    assert.equal(await p.wait(100), undefined);
    await p.closeStdin();
    const ex = await p.wait(30000);
    assert.equal(ex.outcome, "exited");
    assert.equal(ex.exitCode, 0);
    const items = [];
    for await (const i of await p.stream()) items.push(i);
    assert.equal(items.filter((i) => i.type === "output").map((i) => i.text).join(""), "ONE\nTWO\nbye\n");
    assert.equal(items.at(-1).type, "exit");
  });

  test("follow calls back until the exit; signals", async () => {
    const p = await sb.processes.spawn("let i = 0; const t = setInterval(() => { console.log('tick ' + ++i); if (i === 3) { console.error('done'); clearInterval(t) } }, 20)", { language: "javascript" });
    const out = [];
    const err = [];
    const ex = await p.follow({ onStdout: (e) => out.push(e.text), onStderr: (e) => err.push(e.text) });
    assert.deepEqual(out, ["tick 1\n", "tick 2\n", "tick 3\n"]);
    assert.deepEqual(err, ["done\n"]);
    assert.equal(ex.outcome, "exited");
    const q = await sb.processes.spawn("while True: pass");
    await q.kill();
    assert.equal((await q.wait(30000)).outcome, "signalled");
  });

  test("a stream resumes after its connection drops", async () => {
    const c = new Sandbox({ url, fetch: dropFirst("/output/stream") });
    const p = await c.processes.spawn("let i = 0; const t = setInterval(() => { console.log('line ' + ++i); if (i === 5) clearInterval(t) }, 30)", { language: "javascript" });
    const s = await p.stream();
    const lines = [];
    for await (const i of s) if (i.type === "output") lines.push(i.text.trim());
    assert.deepEqual(lines, ["line 1", "line 2", "line 3", "line 4", "line 5"]);
    assert.equal(s.connections, 2);
    assert.equal(s.lastEventId, "c5");
  });

  test("a stream gives up when the server stays away", async () => {
    const c = new Sandbox({ url: "http://127.0.0.1:1", streamRetries: 2, backoffMs: 5 });
    await assert.rejects(c.events(), (e) => e.code === "connection_error");
  });

  test("executions: get with code, replay, pages, delete", async () => {
    const r = await sb.runCode("print('kept')", { output: { retainEvents: true } });
    const rec = await sb.executions.get(r.executionId, { includeCode: true });
    assert.equal(rec.code, "print('kept')");
    const page = await sb.executions.output(r.executionId);
    assert.deepEqual(page.events.map((e) => e.text), ["kept\n"]);
    const list = await sb.executions.list({ language: "python", limit: 1 });
    assert.equal(list.executions.length, 1);
    assert.equal(list.hasMore, true);
    const ids = [];
    for await (const x of sb.executions.iter({ limit: 2 })) {
      ids.push(x.executionId);
      if (ids.length === 5) break;
    }
    assert.equal(new Set(ids).size, 5);
    await sb.executions.delete(r.executionId);
    await assert.rejects(sb.executions.get(r.executionId), (e) => e.code === "not_found");
  });

  test("typescript check", async () => {
    const r = await sb.typescript.check({ files: { "/a.ts": "export const n: number = 1", "/main.ts": "import { n } from './a'\nconst s: string = n" }, filePath: "/main.ts" });
    assert.equal(r.outcome, "succeeded");
    assert.equal(r.hasErrors, true);
    assert.equal(r.diagnostics[0].code, 2322);
    assert.equal(r.diagnostics[0].line, 2);
    await assert.rejects(sb.typescript.check({ code: "1", compilerOptions: { baseUrl: "." } }), (e) => e.code === "invalid_argument");
    assert.equal((await sb.typescript.info()).default, "7");
  });

  test("lifecycle events", async () => {
    const id = name();
    const s = await sb.events({ contextId: id });
    const ctx = await sb.contexts.create({ language: "javascript", contextId: id });
    await ctx.runCode("1");
    await ctx.delete();
    const seen = [];
    for await (const e of s) {
      assert.ok(e.id);
      seen.push(e.type);
      if (e.type === "context.deleted") break;
    }
    assert.deepEqual(seen, ["context.created", "execution.started", "execution.completed", "context.deleted"]);
  });

  test("an API key opens a server with keys", async (t) => {
    const keyedUrl = process.env.WASMEXEC_KEYED_URL;
    if (!keyedUrl) {
      t.skip("WASMEXEC_KEYED_URL is not set: no server with keys to test against");
      return;
    }
    const ok = new Sandbox({ url: keyedUrl, apiKey: process.env.WASMEXEC_KEYED_KEY });
    assert.equal((await ok.runCode("1 + 1")).value, 2);
    for (const apiKey of ["", "another-key-0123456789"]) {
      await assert.rejects(new Sandbox({ url: keyedUrl, apiKey }).contexts.list(), (e) => e.code === "unauthorized" && e.status === 401);
    }
  });
});
