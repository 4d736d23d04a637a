import { WasmexecError } from "./errors.js";
import { parseSSE, type SSE } from "./sse.js";
import type {
  CheckRequest,
  CheckResult,
  ContextInfo,
  ContextSpec,
  ExecutionFilter,
  ExecutionPage,
  ExitEvent,
  FileEntry,
  InstallResult,
  Language,
  LifecycleEvent,
  NpmInstallOptions,
  OutputEvent,
  PipInstallOptions,
  ProcessExit,
  ProcessInfo,
  Replay,
  ReplayOptions,
  Result,
  RunFields,
  SpawnOptions,
  Truncated,
  TypeScriptInfo,
} from "./types.js";

type Fetch = typeof globalThis.fetch;
type Awaitable<T> = T | Promise<T>;

export interface SandboxOptions {
  /** The server (default: WASMEXEC_URL where `process.env` exists, else http://127.0.0.1:8080). */
  url?: string;
  /** Sent as `Authorization: Bearer` (default: WASMEXEC_API_KEY). */
  apiKey?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: Fetch;
  /** How a stream resumes after its connection drops: at once, then after
   * `backoffMs` doubling to 5 s; it gives up after `retries` failures
   * without an event in between (default 5; 0: never resume). */
  streamRetries?: number;
  backoffMs?: number;
}

export interface RunOptions extends RunFields {
  language?: Language;
  /** evaluate (default): the value of the last expression; execute: a program. */
  mode?: "evaluate" | "execute";
  contextId?: string;
  /** Called with each chunk written to stdout, as it is written (on a
   * server without streamed runs: once, with the whole output, before the
   * result). */
  onStdout?: (e: OutputEvent) => Awaitable<unknown>;
  onStderr?: (e: OutputEvent) => Awaitable<unknown>;
  onResult?: (r: Result) => Awaitable<unknown>;
  signal?: AbortSignal;
}

interface Call {
  method: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Uint8Array | string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return p?.env?.[name] || undefined;
}

const seg = (s: string | number) => encodeURIComponent(String(s));
const filePath = (id: string, path: string) =>
  `/v1/contexts/${seg(id)}/files/` + path.replace(/^\/+/, "").split("/").map(seg).join("/");

function base64ToBytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const utf8 = new TextDecoder();

/** A result as the API sent it, its base64 streams decoded. */
function decodeResult<T extends Result>(r: T & { stdoutEncoding?: string; stderrEncoding?: string }): T {
  if (r.stdoutEncoding === "base64" && typeof r.stdout === "string") r.stdout = base64ToBytes(r.stdout);
  if (r.stderrEncoding === "base64" && typeof r.stderr === "string") r.stderr = base64ToBytes(r.stderr);
  return r;
}

function decodeEvent(e: Record<string, unknown>, id?: string): OutputEvent {
  const chunk = e.encoding === "base64" ? base64ToBytes(String(e.chunk)) : String(e.chunk ?? "");
  const ev = { ...e, type: "output", chunk, text: typeof chunk === "string" ? chunk : utf8.decode(chunk) } as OutputEvent;
  delete (ev as { encoding?: string }).encoding;
  if (id) ev.id = id;
  return ev;
}

function decodeReplay(r: Replay): Replay {
  r.events = r.events.map((e) => decodeEvent(e as unknown as Record<string, unknown>));
  return r;
}

const isEventStream = (r: Response) => (r.headers.get("content-type") ?? "").split(";")[0].trim() === "text/event-stream";

/** A client of one wasmexec server. Every call rejects with
 * `WasmexecError`; a guest failure is a `Result` with outcome failed.
 *
 * ```ts
 * const sb = new Sandbox({ url: "http://127.0.0.1:8080" });
 * (await sb.runCode("6 * 7", { language: "javascript" })).value; // 42
 * ```
 */
export class Sandbox {
  readonly url: string;
  readonly contexts: Contexts;
  readonly processes: Processes;
  readonly executions: Executions;
  readonly typescript: TypeScript;
  /** @internal */ readonly retries: number;
  /** @internal */ readonly backoffMs: number;
  #key?: string;
  #fetch: Fetch;

  constructor(opts: SandboxOptions = {}) {
    this.url = (opts.url ?? env("WASMEXEC_URL") ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
    this.#key = opts.apiKey ?? env("WASMEXEC_API_KEY");
    this.#fetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.retries = opts.streamRetries ?? 5;
    this.backoffMs = opts.backoffMs ?? 100;
    this.contexts = new Contexts(this);
    this.processes = new Processes(this);
    this.executions = new Executions(this);
    this.typescript = new TypeScript(this);
  }

  /** @internal Sends a call; a non-2xx answer rejects with its error. */
  async send(c: Call): Promise<Response> {
    let url = this.url + c.path;
    if (c.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(c.query)) if (v !== undefined && v !== "") q.set(k, String(v));
      const s = q.toString();
      if (s) url += "?" + s;
    }
    const headers: Record<string, string> = { ...c.headers };
    if (this.#key) headers["Authorization"] = `Bearer ${this.#key}`;
    let body: BodyInit | undefined;
    if (c.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(c.json);
    } else if (c.body !== undefined) {
      headers["Content-Type"] = "application/octet-stream";
      body = c.body as BodyInit;
    }
    let resp: Response;
    try {
      resp = await this.#fetch(url, { method: c.method, headers, body, signal: c.signal });
    } catch (err) {
      if ((err as Error)?.name === "AbortError") throw err;
      throw new WasmexecError("connection_error", `${c.method} ${c.path}: ${(err as Error)?.message ?? err}`, { cause: err });
    }
    if (resp.status >= 300) throw await WasmexecError.fromResponse(resp);
    return resp;
  }

  /** @internal */
  async json<T>(c: Call): Promise<T> {
    const resp = await this.send(c);
    return (await resp.json()) as T;
  }

  /** @internal */
  async none(c: Call): Promise<void> {
    const resp = await this.send(c);
    await resp.body?.cancel();
  }

  /** Run code: `mode` evaluate (the value of the last expression, the
   * default) or execute (a program: stdin, args, exit code). */
  async runCode(code: string | undefined, opts: RunOptions = {}): Promise<Result> {
    const { language = "python", mode = "evaluate", onStdout, onStderr, onResult, signal, ...fields } = opts;
    const c: Call = { method: "POST", path: `/v1/${mode}`, json: { ...fields, language, code: code ?? "" }, signal };
    let res: Result;
    if (!onStdout && !onStderr) {
      res = decodeResult(await this.json<Result>(c));
    } else {
      res = await this.#runStreamed(c, onStdout, onStderr);
    }
    await onResult?.(res);
    return res;
  }

  evaluate(code: string | undefined, opts: Omit<RunOptions, "mode"> = {}): Promise<Result> {
    return this.runCode(code, { ...opts, mode: "evaluate" });
  }

  execute(code: string | undefined, opts: Omit<RunOptions, "mode"> = {}): Promise<Result> {
    return this.runCode(code, { ...opts, mode: "execute" });
  }

  async #runStreamed(c: Call, onStdout?: RunOptions["onStdout"], onStderr?: RunOptions["onStderr"]): Promise<Result> {
    const emit = async (e: OutputEvent) => {
      if (e.channel === "stdout") await onStdout?.(e);
      else if (e.channel === "stderr") await onStderr?.(e);
    };
    const resp = await this.send({ ...c, headers: { Accept: "text/event-stream" } });
    if (!isEventStream(resp) || !resp.body) {
      const res = decodeResult((await resp.json()) as Result);
      for (const channel of ["stdout", "stderr"] as const) {
        const chunk = res[channel];
        if (chunk && chunk.length) {
          await emit({ type: "output", sequence: 0, channel, chunk, text: typeof chunk === "string" ? chunk : utf8.decode(chunk), timestampMs: res.completedAtMs ?? 0 });
        }
      }
      return res;
    }
    try {
      for await (const e of parseSSE(resp.body)) {
        if (e.event === "output") await emit(decodeEvent(JSON.parse(e.data), e.id));
        else if (e.event === "result") return decodeResult(JSON.parse(e.data) as Result);
        else if (e.event === "error") {
          const d = JSON.parse(e.data);
          throw new WasmexecError(d.code ?? "internal", d.message ?? "", { status: 200 });
        }
      }
    } catch (err) {
      if (err instanceof WasmexecError || (err as Error)?.name === "AbortError") throw err;
      throw new WasmexecError("connection_error", `the run's stream broke: ${(err as Error)?.message ?? err}`, { cause: err });
    }
    throw new WasmexecError("connection_error", "the run's stream ended before its result");
  }

  /** Follow lifecycle events (from now on, or after `lastEventId`); the
   * stream is open when the promise resolves and reconnects on its own. */
  events(opts: { types?: string[]; contextId?: string; lastEventId?: string; signal?: AbortSignal } = {}): Promise<EventStream<LifecycleEvent | Truncated>> {
    const query = { type: opts.types?.join(","), contextId: opts.contextId };
    return EventStream.open(this, "/v1/events", query, undefined, opts.lastEventId, opts.signal, (e) => {
      const d = JSON.parse(e.data);
      if (e.event === "truncated") return { type: "truncated", ...d } as Truncated;
      return { ...d, id: e.id } as LifecycleEvent;
    });
  }

  /** The server answers /readyz with 200. */
  async health(): Promise<boolean> {
    try {
      await this.none({ method: "GET", path: "/readyz" });
      return true;
    } catch {
      return false;
    }
  }
}

/** An async iterator over a stream's events that resumes after its
 * connection drops (Last-Event-ID). `lastEventId` is the cursor of the last
 * event read: pass it to resume later. Call `close()` to stop early. */
export class EventStream<T> implements AsyncIterable<T> {
  lastEventId?: string;
  connections = 0;
  #sb: Sandbox;
  #path: string;
  #query?: Record<string, string | undefined>;
  #final?: string;
  #decode: (e: SSE) => T | undefined;
  #resp?: Response;
  #abort = new AbortController();
  #closed = false;

  private constructor(sb: Sandbox, path: string, query: Record<string, string | undefined> | undefined, final: string | undefined, lastEventId: string | undefined, signal: AbortSignal | undefined, decode: (e: SSE) => T | undefined) {
    this.#sb = sb;
    this.#path = path;
    this.#query = query;
    this.#final = final;
    this.#decode = decode;
    this.lastEventId = lastEventId;
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  /** @internal */
  static async open<T>(sb: Sandbox, path: string, query: Record<string, string | undefined> | undefined, final: string | undefined, lastEventId: string | undefined, signal: AbortSignal | undefined, decode: (e: SSE) => T | undefined): Promise<EventStream<T>> {
    const s = new EventStream(sb, path, query, final, lastEventId, signal, decode);
    s.#resp = await s.#connect();
    return s;
  }

  async #connect(): Promise<Response> {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (this.lastEventId) headers["Last-Event-ID"] = this.lastEventId;
    const resp = await this.#sb.send({ method: "GET", path: this.#path, query: this.#query, headers, signal: this.#abort.signal });
    this.connections++;
    return resp;
  }

  close(): void {
    this.#closed = true;
    this.#abort.abort();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let failures = 0;
    try {
      for (;;) {
        let cause: unknown;
        try {
          const resp = this.#resp ?? (await this.#connect());
          this.#resp = undefined;
          for await (const e of parseSSE(resp.body!)) {
            failures = 0;
            if (e.id) this.lastEventId = e.id;
            const item = this.#decode(e);
            if (item !== undefined) yield item;
            if (this.#final && e.event === this.#final) return;
          }
        } catch (err) {
          if (this.#closed) return;
          if (err instanceof WasmexecError && err.status !== undefined && err.status !== 429 && err.status !== 503) throw err;
          cause = err;
        }
        if (this.#closed) return;
        failures++;
        if (failures > this.#sb.retries) {
          if (cause instanceof WasmexecError) throw cause;
          throw new WasmexecError("connection_error", cause ? `stream ${this.#path}: ${(cause as Error)?.message ?? cause}` : `stream ${this.#path} kept ending without its last event`, { cause });
        }
        if (failures > 1) await new Promise((r) => setTimeout(r, Math.min(this.#sb.backoffMs * 2 ** (failures - 2), 5000)));
      }
    } finally {
      this.#abort.abort();
    }
  }
}

/** `sandbox.contexts`: create, get and list contexts. */
export class Contexts {
  constructor(private readonly sb: Sandbox) {}

  /** Create a context: a long-lived guest with a workspace. */
  async create(spec: ContextSpec = {}): Promise<Context> {
    const { memoryBytes, ...rest } = spec;
    const body = memoryBytes ? { ...rest, limits: { memoryBytes } } : rest;
    return new Context(this.sb, await this.sb.json<ContextInfo>({ method: "POST", path: "/v1/contexts", json: body }));
  }

  async get(contextId: string): Promise<Context> {
    return new Context(this.sb, await this.sb.json<ContextInfo>({ method: "GET", path: `/v1/contexts/${seg(contextId)}` }));
  }

  async list(): Promise<Context[]> {
    const l = await this.sb.json<{ contexts: ContextInfo[] }>({ method: "GET", path: "/v1/contexts" });
    return l.contexts.map((i) => new Context(this.sb, i));
  }
}

/** `context.files`: its workspace (paths relative to /workspace). */
export class Files {
  constructor(private readonly sb: Sandbox, private readonly id: string) {}

  write(path: string, data: string | Uint8Array): Promise<FileEntry> {
    return this.sb.json<FileEntry>({ method: "PUT", path: filePath(this.id, path), body: data });
  }

  async read(path: string): Promise<Uint8Array> {
    const resp = await this.sb.send({ method: "GET", path: filePath(this.id, path) });
    return new Uint8Array(await resp.arrayBuffer());
  }

  async readText(path: string): Promise<string> {
    return utf8.decode(await this.read(path));
  }

  async list(dir = ""): Promise<FileEntry[]> {
    return (await this.sb.json<{ entries: FileEntry[] }>({ method: "GET", path: `/v1/contexts/${seg(this.id)}/files`, query: { dir } })).entries;
  }

  delete(path: string): Promise<void> {
    return this.sb.none({ method: "DELETE", path: filePath(this.id, path) });
  }
}

/** A context: state kept between runs, a workspace, installs. `info` is
 * its descriptor as of the last call that returned it. */
export class Context {
  readonly id: string;
  readonly files: Files;
  info: ContextInfo;
  #sb: Sandbox;

  constructor(sb: Sandbox, info: ContextInfo) {
    this.#sb = sb;
    this.info = info;
    this.id = info.contextId;
    this.files = new Files(sb, this.id);
  }

  #path(rest = "") {
    return `/v1/contexts/${seg(this.id)}${rest}`;
  }

  /** `Sandbox.runCode` in this context (in its language unless given). */
  async runCode(code: string | undefined, opts: Omit<RunOptions, "contextId"> = {}): Promise<Result> {
    const language = opts.language ?? (this.info.language || "python");
    const res = await this.#sb.runCode(code, { ...opts, language, contextId: this.id });
    if (!this.info.language) this.info.language = res.language ?? language;
    return res;
  }

  evaluate(code: string | undefined, opts: Omit<RunOptions, "contextId" | "mode"> = {}): Promise<Result> {
    return this.runCode(code, { ...opts, mode: "evaluate" });
  }

  execute(code: string | undefined, opts: Omit<RunOptions, "contextId" | "mode"> = {}): Promise<Result> {
    return this.runCode(code, { ...opts, mode: "execute" });
  }

  async refresh(): Promise<ContextInfo> {
    return (this.info = await this.#sb.json<ContextInfo>({ method: "GET", path: this.#path() }));
  }

  /** A fresh guest (variables gone); the files stay. */
  async reset(): Promise<ContextInfo> {
    return (this.info = await this.#sb.json<ContextInfo>({ method: "POST", path: this.#path("/reset") }));
  }

  /** Snapshot the guest and drop it from memory; the next use restores it. */
  async hibernate(): Promise<ContextInfo> {
    return (this.info = await this.#sb.json<ContextInfo>({ method: "POST", path: this.#path("/hibernate") }));
  }

  /** A new, independent context with this one's state and a copy of its files. */
  async fork(contextId?: string): Promise<Context> {
    return new Context(this.#sb, await this.#sb.json<ContextInfo>({ method: "POST", path: this.#path("/fork"), json: contextId ? { contextId } : {} }));
  }

  delete(): Promise<void> {
    return this.#sb.none({ method: "DELETE", path: this.#path() });
  }

  /** Install npm packages into the workspace (none: its package.json). */
  async npmInstall(packages: string[] = [], opts: NpmInstallOptions = {}): Promise<InstallResult> {
    const body = { ...opts, ...(packages.length ? { packages } : {}) };
    return decodeResult(await this.#sb.json<InstallResult>({ method: "POST", path: this.#path("/npm/install"), json: body }));
  }

  /** Install Python packages (PEP 508 requirements) into the workspace. */
  async pipInstall(packages: string[] = [], opts: PipInstallOptions = {}): Promise<InstallResult> {
    const body = { ...opts, ...(packages.length ? { packages } : {}) };
    return decodeResult(await this.#sb.json<InstallResult>({ method: "POST", path: this.#path("/pip/install"), json: body }));
  }

  /** Start a process in this context's workspace. */
  spawn(code: string | undefined, opts: Omit<SpawnOptions, "contextId"> = {}): Promise<Process> {
    return this.#sb.processes.spawn(code, { language: this.info.language || "python", ...opts, contextId: this.id });
  }

  /** This context's completed executions, newest first. */
  executions(filter: Omit<ExecutionFilter, "contextId"> = {}): Promise<ExecutionPage> {
    return this.#sb.executions.list({ ...filter, contextId: this.id });
  }
}

/** `sandbox.processes`: spawn, get and list processes. */
export class Processes {
  constructor(private readonly sb: Sandbox) {}

  /** Start a long-running process (`code`, or a workspace `file` of `contextId`). */
  async spawn(code: string | undefined, opts: SpawnOptions = {}): Promise<Process> {
    const body = { language: "python", ...opts, ...(code !== undefined ? { code } : {}) };
    return new Process(this.sb, await this.sb.json<ProcessInfo>({ method: "POST", path: "/v1/processes", json: body }));
  }

  async get(pid: number): Promise<Process> {
    return new Process(this.sb, await this.sb.json<ProcessInfo>({ method: "GET", path: `/v1/processes/${pid}` }));
  }

  async list(): Promise<Process[]> {
    return (await this.sb.json<{ processes: ProcessInfo[] }>({ method: "GET", path: "/v1/processes" })).processes.map((p) => new Process(this.sb, p));
  }
}

const MAX_WAIT_MS = 600_000;

/** A process: stdin, signals, waiting, output replay and live streams. */
export class Process {
  readonly pid: number;
  readonly executionId: string;
  info: ProcessInfo;
  #sb: Sandbox;

  constructor(sb: Sandbox, info: ProcessInfo) {
    this.#sb = sb;
    this.info = info;
    this.pid = info.pid;
    this.executionId = info.executionId;
  }

  #path(rest = "") {
    return `/v1/processes/${this.pid}${rest}`;
  }

  async refresh(): Promise<ProcessInfo> {
    return (this.info = await this.#sb.json<ProcessInfo>({ method: "GET", path: this.#path() }));
  }

  /** Write to stdin; a full buffer rejects with code overloaded (retry later). */
  writeStdin(data: string | Uint8Array): Promise<void> {
    return this.#sb.none({ method: "POST", path: this.#path("/stdin"), body: data });
  }

  async closeStdin(): Promise<ProcessInfo> {
    return (this.info = await this.#sb.json<ProcessInfo>({ method: "POST", path: this.#path("/stdin/close") }));
  }

  /** SIGTERM or SIGINT (stdin closes, then a kill after the grace), SIGKILL. */
  async signal(signal: "SIGTERM" | "SIGINT" | "SIGKILL" = "SIGTERM"): Promise<ProcessInfo> {
    return (this.info = await this.#sb.json<ProcessInfo>({ method: "POST", path: this.#path("/signal"), json: { signal } }));
  }

  kill(): Promise<ProcessInfo> {
    return this.signal("SIGKILL");
  }

  /** Wait for the exit (`timeoutMs`; none: as long as it takes); undefined
   * when it is still running at the timeout. */
  async wait(timeoutMs?: number): Promise<ProcessExit | undefined> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    for (;;) {
      const left = deadline === undefined ? MAX_WAIT_MS : Math.max(0, Math.min(deadline - Date.now(), MAX_WAIT_MS));
      const w = await this.#sb.json<ProcessExit & { state: string }>({ method: "GET", path: this.#path("/wait"), query: { timeoutMs: left } });
      if (w.state === "exited") return w;
      if (deadline !== undefined && Date.now() >= deadline) return undefined;
    }
  }

  /** Replay output (running or exited) after a cursor. */
  async output(opts: ReplayOptions = {}): Promise<Replay> {
    return decodeReplay(await this.#sb.json<Replay>({ method: "GET", path: this.#path("/output"), query: { ...opts } }));
  }

  /** Follow the output live (from the start, or after `lastEventId`):
   * output events, `truncated` when the reader fell behind, and the `exit`
   * last. It resumes on its own after a dropped connection. */
  stream(opts: { lastEventId?: string; signal?: AbortSignal } = {}): Promise<EventStream<OutputEvent | Truncated | ExitEvent>> {
    return EventStream.open(this.#sb, this.#path("/output/stream"), undefined, "exit", opts.lastEventId, opts.signal, (e) => {
      const d = JSON.parse(e.data);
      if (e.event === "output") return decodeEvent(d, e.id);
      if (e.event === "truncated") return { type: "truncated", ...d } as Truncated;
      if (e.event === "exit") return { ...d, type: "exit" } as ExitEvent;
      return undefined;
    });
  }

  /** Call `onStdout`/`onStderr` with the output as it is written, until
   * the process exits; resolves to the exit. */
  async follow(opts: { onStdout?: (e: OutputEvent) => Awaitable<unknown>; onStderr?: (e: OutputEvent) => Awaitable<unknown>; lastEventId?: string; signal?: AbortSignal } = {}): Promise<ProcessExit> {
    const s = await this.stream(opts);
    for await (const item of s) {
      if (item.type === "output") {
        if (item.channel === "stdout") await opts.onStdout?.(item);
        else if (item.channel === "stderr") await opts.onStderr?.(item);
      } else if (item.type === "exit") {
        return item;
      }
    }
    throw new WasmexecError("connection_error", `the output stream of process ${this.pid} ended before its exit`);
  }
}

/** `sandbox.executions`: the history of completed executions. */
export class Executions {
  constructor(private readonly sb: Sandbox) {}

  async list(filter: ExecutionFilter = {}): Promise<ExecutionPage> {
    const page = await this.sb.json<ExecutionPage>({ method: "GET", path: "/v1/executions", query: { ...filter } });
    page.executions = page.executions.map((r) => decodeResult(r));
    return page;
  }

  /** Every matching execution, newest first, page after page. */
  async *iter(filter: ExecutionFilter = {}): AsyncGenerator<Result> {
    let after = filter.after;
    for (;;) {
      const page = await this.list({ ...filter, after });
      yield* page.executions;
      if (!page.hasMore) return;
      after = page.nextCursor;
    }
  }

  async get(executionId: string, opts: { includeCode?: boolean } = {}): Promise<Result> {
    return decodeResult(await this.sb.json<Result>({ method: "GET", path: `/v1/executions/${seg(executionId)}`, query: { include: opts.includeCode ? "code" : undefined } }));
  }

  /** Replay retained output (processes, and runs with output.retainEvents). */
  async output(executionId: string, opts: ReplayOptions = {}): Promise<Replay> {
    return decodeReplay(await this.sb.json<Replay>({ method: "GET", path: `/v1/executions/${seg(executionId)}/output`, query: { ...opts } }));
  }

  delete(executionId: string): Promise<void> {
    return this.sb.none({ method: "DELETE", path: `/v1/executions/${seg(executionId)}` });
  }
}

/** `sandbox.typescript`: type checks with the official compiler. */
export class TypeScript {
  constructor(private readonly sb: Sandbox) {}

  check(req: CheckRequest): Promise<CheckResult> {
    return this.sb.json<CheckResult>({ method: "POST", path: "/v1/typescript/check", json: req });
  }

  info(): Promise<TypeScriptInfo> {
    return this.sb.json<TypeScriptInfo>({ method: "GET", path: "/v1/typescript" });
  }
}
