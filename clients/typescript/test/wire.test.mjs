// The streamed-run protocol against a scripted server (a fetch that
// answers from the script): the real server's part is tested in
// sandbox.test.mjs once it streams runs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Sandbox, WasmexecError } from "../dist/index.js";

const RESULT = { executionId: "exe_1", outcome: "succeeded", value: 7, exitCode: 0, stdout: "a\nb\n", stderr: "e\n", durationMs: 1 };

function sse(events) {
  let out = ": a streamed run\r\n\r\n";
  events.forEach(([name, data], i) => {
    out += (name === "output" ? `id: c${i + 1}\n` : "") + `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  });
  return out;
}

// Bytes one at a time, so the parser meets every split.
function trickle(text) {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (i < bytes.length) ctrl.enqueue(bytes.slice(i, ++i));
      else ctrl.close();
    },
  });
}

const scripted = (events, check = () => {}) => async (input, init) => {
  check(input, init);
  return new Response(trickle(sse(events)), { status: 200, headers: { "Content-Type": "text/event-stream" } });
};

test("a streamed run calls back in order, then resolves to the result", async () => {
  const seen = [];
  const sb = new Sandbox({
    url: "http://wasmexec.test",
    fetch: scripted(
      [
        ["output", { sequence: 1, channel: "stdout", chunk: "a\n", timestampMs: 1 }],
        ["output", { sequence: 2, channel: "stderr", chunk: "ZQo=", encoding: "base64", timestampMs: 2 }],
        ["output", { sequence: 3, channel: "stdout", chunk: "b\n", timestampMs: 3 }],
        ["result", RESULT],
      ],
      (_, init) => assert.equal(init.headers.Accept, "text/event-stream"),
    ),
  });
  const r = await sb.runCode("x", {
    onStdout: (e) => seen.push(["out", e.chunk, e.id]),
    onStderr: (e) => seen.push(["err", e.text, e.chunk instanceof Uint8Array]),
    onResult: (r) => seen.push(["result", r.value]),
  });
  assert.deepEqual(seen, [["out", "a\n", "c1"], ["err", "e\n", true], ["out", "b\n", "c3"], ["result", 7]]);
  assert.equal(r.stdout, "a\nb\n");
});

test("an error event rejects with its code", async () => {
  const sb = new Sandbox({ url: "http://wasmexec.test", fetch: scripted([["error", { code: "overloaded", message: "busy" }]]) });
  await assert.rejects(sb.runCode("x", { onStdout: () => {} }), (e) => e instanceof WasmexecError && e.code === "overloaded");
});

test("a stream cut before its result rejects", async () => {
  const sb = new Sandbox({ url: "http://wasmexec.test", fetch: scripted([["output", { sequence: 1, channel: "stdout", chunk: "a", timestampMs: 1 }]]) });
  await assert.rejects(sb.runCode("x", { onStdout: () => {} }), (e) => e.code === "connection_error");
});

test("the API key is sent; an API error carries status and request id", async () => {
  const sb = new Sandbox({
    url: "http://wasmexec.test",
    apiKey: "k-123",
    fetch: async (_, init) => {
      assert.equal(init.headers.Authorization, "Bearer k-123");
      return new Response(JSON.stringify({ code: "unauthorized", message: "no" }), { status: 401, headers: { "X-Request-Id": "req_1", "Retry-After": "3" } });
    },
  });
  await assert.rejects(sb.contexts.list(), (e) => e.code === "unauthorized" && e.status === 401 && e.requestId === "req_1" && e.retryAfter === 3 && e.message === "no");
});
