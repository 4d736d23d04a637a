// Drives wasmexec's /mcp with the official TypeScript MCP client
// (@modelcontextprotocol/sdk) through every tool; prints one JSON line of
// what it saw. Arguments: the /mcp URL and the API key.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const url = new URL(process.argv[2]);
const key = process.argv[3];
const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
const client = new Client({ name: "wasmexec-node-test", version: "1.0.0" });
await client.connect(transport);

const out = {};
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const call = async (name, args, options) => {
  const r = await client.callTool({ name, arguments: args }, CallToolResultSchema, options);
  return { isError: r.isError === true, text: text(r), data: r.structuredContent };
};

out.tools = (await client.listTools()).tools.map((t) => ({ name: t.name, annotations: t.annotations, schemas: JSON.stringify([t.inputSchema, t.outputSchema]) }));
out.run = await call("run_code", { language: "javascript", code: "console.log('from node'); inputs.n * 6", inputs: { n: 7 } });
out.binary = await call("run_code", { language: "python", mode: "execute", code: "import sys\nsys.stdout.buffer.write(bytes([0xff, 0x00, 0x41]))" });
out.limits = await call("run_code", { language: "javascript", code: "for(;;){}", limits: { fuel: 10000000 } });
out.bad = await call("run_code", { language: "cobol", code: "1" });

// Live output: progress notifications while the code runs.
const runNotes = [];
out.streamed = await call("run_code", { language: "javascript", mode: "execute", code: "console.log('one'); setTimeout(() => console.log('two'), 300)" },
  { onprogress: (p) => runNotes.push(p.message) });
out.runNotes = runNotes;

// Contexts, state, a reset by timeout, files.
out.context = await call("create_context", { language: "typescript", contextId: "ts1" });
await call("run_code", { language: "typescript", contextId: "ts1", code: "globalThis.kept = 41" });
out.fork = await call("fork_context", { contextId: "ts1", newContextId: "ts2" });
out.forked = await call("run_code", { language: "typescript", contextId: "ts2", code: "kept + 1" });
out.timeout = await call("run_code", { language: "typescript", contextId: "ts1", code: "for(;;){}", timeoutMs: 200 });
out.afterReset = await call("run_code", { language: "typescript", contextId: "ts1", code: "typeof kept" });
out.write = await call("write_file", { contextId: "ts1", path: "dir/a.txt", content: "hello" });
out.read = await call("read_file", { contextId: "ts1", path: "dir/a.txt" });
out.list = await call("list_files", { contextId: "ts1", dir: "dir" });
out.deleteFile = await call("delete_file", { contextId: "ts1", path: "dir" });
out.reset = await call("reset_context", { contextId: "ts1" });
out.contexts = await call("list_contexts", {});
out.check = await call("typescript_check", { code: "const n: number = 'bad'" });

// A long install: its progress lines keep a short request timeout from
// firing (resetTimeoutOnProgress), as they keep a real client's 60 s one.
const installNotes = [];
out.install = await call("npm_install", { contextId: "ts2", packages: ["left-pad@1.3.0"] },
  { onprogress: (p) => installNotes.push(p.message), timeout: 450, resetTimeoutOnProgress: true });
out.installNotes = installNotes;

// Processes.
out.spawn = await call("spawn_process", { language: "javascript", code: "let l; while ((l = stdin.readLine()) !== null) console.log('echo ' + l)" });
const pid = out.spawn.data.pid;
out.stdin = await call("write_stdin", { pid, data: "hi\n", close: true });
out.wait = await call("wait_process", { pid, timeoutMs: 20000 });
out.output = await call("read_process_output", { pid });
const sleeper = await call("spawn_process", { language: "javascript", code: "stdin.read()" });
out.signal = await call("signal_process", { pid: sleeper.data.pid, signal: "SIGKILL" });
out.signalled = await call("wait_process", { pid: sleeper.data.pid });
out.processes = await call("list_processes", {});

// History.
out.executions = await call("list_executions", { kind: "evaluate", limit: 2 });
out.execution = await call("get_execution", { executionId: out.run.data.executionId });
out.deleteContext = await call("delete_context", { contextId: "ts2" });
await client.close();

// Without the key: a 401 that says there is no OAuth to do.
try {
  const anon = new Client({ name: "wasmexec-node-anon", version: "1.0.0" });
  await anon.connect(new StreamableHTTPClientTransport(url));
  out.anonymous = "connected";
} catch (e) {
  out.anonymous = String(e && e.message);
}
console.log(JSON.stringify(out));
