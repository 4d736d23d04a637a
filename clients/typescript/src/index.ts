// wasmexec: run untrusted JavaScript, TypeScript and Python in WebAssembly
// sandboxes from TypeScript or JavaScript. No runtime dependencies: it
// speaks the HTTP API with fetch and parses Server-Sent Events itself.
export { Sandbox, Context, Process, EventStream, Contexts, Processes, Executions, TypeScript, Files } from "./client.js";
export type { SandboxOptions, RunOptions } from "./client.js";
export { WasmexecError } from "./errors.js";
export type * from "./types.js";
