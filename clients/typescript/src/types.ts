// The API's values, as the server sends them (camelCase JSON). Output
// streams and chunks that are not valid UTF-8 arrive as base64 and are
// decoded to Uint8Array by the client.

export type Language = "javascript" | "typescript" | "python" | (string & {});
export type Outcome = "succeeded" | "failed" | "cancelled" | "timed_out";

export interface Limits {
  fuel?: number;
  memoryBytes?: number;
  outputBytes?: number;
}

export interface Network {
  allow: string[];
}

export interface Secret {
  value: string;
  hosts: string[];
}

export interface ErrorData {
  code: string;
  message: string;
  name?: string;
  stack?: string;
  details?: Record<string, unknown>;
}

/** A completed execution: a run's answer or a record of the history. A
 * guest failure is a result (`outcome` failed, `error` says why). */
export interface Result {
  executionId: string;
  outcome: Outcome;
  kind?: string;
  language?: Language;
  contextId?: string;
  pid?: number;
  value?: unknown;
  valueTruncated?: boolean;
  error?: ErrorData;
  exitCode: number;
  /** Text, or bytes when the output was not valid UTF-8; absent when not captured. */
  stdout?: string | Uint8Array;
  stderr?: string | Uint8Array;
  stdoutTruncated?: boolean;
  stderrTruncated?: boolean;
  startedAtMs?: number;
  completedAtMs?: number;
  durationMs: number;
  fuelConsumed?: number;
  contextReset?: boolean;
  codeSha256?: string;
  /** With `include: "code"`: the code the store kept (its first 64 KiB). */
  code?: string;
  codeTruncated?: boolean;
  eventsRetained?: boolean;
  outputTruncated?: boolean;
  extra?: unknown;
  requestId?: string;
  network?: Record<string, unknown>[];
}

/** The fields of a run, beside `code`, `language` and `contextId`. */
export interface RunFields {
  inputs?: unknown;
  stdin?: string;
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  files?: Record<string, string>;
  timeoutMs?: number;
  limits?: Limits;
  output?: { capture?: "all" | "stderr" | "none"; retainEvents?: boolean };
  format?: "module" | "commonjs";
  filePath?: string;
  tsconfigPath?: string;
  packages?: string[];
  network?: Network;
  secrets?: Record<string, Secret>;
}

export interface WorkspaceUsage {
  usedBytes: number;
  quotaBytes?: number;
}

export interface ContextInfo {
  contextId: string;
  language: Language | "";
  state: "idle" | "running" | "resetting" | "deleting" | "failed";
  createdAtMs: number;
  lastStartedAtMs?: number;
  lastCompletedAtMs?: number;
  idleExpiresAtMs?: number;
  memoryBytes: number;
  runs: number;
  resets: number;
  queued: number;
  workspace?: WorkspaceUsage;
  network?: Network;
  secrets?: string[];
  error?: ErrorData;
  hibernated: boolean;
  snapshotBytes?: number;
  stateAsOfMs?: number;
  restoredAtMs?: number;
  notice?: string;
}

export interface ContextSpec {
  contextId?: string;
  language?: Language;
  env?: Record<string, string>;
  memoryBytes?: number;
  network?: Network;
  secrets?: Record<string, Secret>;
}

export interface FileEntry {
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  size: number;
  modifiedAtMs?: number;
}

export interface ProcessExit {
  pid: number;
  outcome: "exited" | "signalled" | "timed_out";
  executionId?: string;
  exitCode?: number;
  signal?: string;
  error?: ErrorData;
  exitedAtMs?: number;
  durationMs?: number;
}

export interface ProcessInfo {
  pid: number;
  executionId: string;
  state: "running" | "exited";
  language: Language;
  command?: string;
  contextId?: string;
  startedAtMs?: number;
  stdinClosed?: boolean;
  signal?: string;
  exit?: ProcessExit;
}

export interface SpawnOptions {
  language?: Language;
  /** A workspace file of `contextId` to run instead of code. */
  file?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  contextId?: string;
  timeoutMs?: number;
  limits?: Limits;
  format?: "module" | "commonjs";
  network?: Network;
  secrets?: Record<string, Secret>;
}

/** One write of a guest. `chunk` is text, or bytes when not valid UTF-8;
 * `text` is always text. `id` is its cursor on a stream. */
export interface OutputEvent {
  type: "output";
  sequence: number;
  channel: "stdout" | "stderr" | "pty" | "network";
  chunk: string | Uint8Array;
  text: string;
  timestampMs: number;
  pid?: number;
  id?: string;
}

/** The reader fell behind the retained window: `dropped` events were lost. */
export interface Truncated {
  type: "truncated";
  after: string;
  resumeAfter: string;
  dropped: number;
}

export interface ExitEvent extends ProcessExit {
  type: "exit";
}

export interface Replay {
  events: OutputEvent[];
  nextCursor: string;
  hasMore: boolean;
  truncated: boolean;
}

export interface ReplayOptions {
  after?: string;
  limit?: number;
  maxBytes?: number;
}

export interface ExecutionPage {
  executions: Result[];
  nextCursor: string;
  hasMore: boolean;
}

export interface ExecutionFilter {
  contextId?: string;
  language?: string;
  outcome?: string;
  kind?: string;
  after?: string;
  limit?: number;
}

export interface Diagnostic {
  code: number;
  category: "error" | "warning" | "suggestion" | "message";
  message: string;
  filePath: string;
  line: number;
  column: number;
}

export interface CheckRequest {
  code?: string;
  files?: Record<string, string>;
  filePath?: string;
  tsconfigPath?: string;
  compilerOptions?: Record<string, unknown>;
  timeoutMs?: number;
  typescriptVersion?: string;
}

/** Type errors are outcome succeeded with `hasErrors`. */
export interface CheckResult {
  executionId?: string;
  outcome: Outcome;
  hasErrors: boolean;
  diagnostics: Diagnostic[];
  error?: ErrorData;
  typeScriptVersion?: string;
  durationMs?: number;
}

export interface TypeScriptInfo {
  default: string;
  versions: { major: string; version: string; default: boolean; ready: boolean; state: string; error?: string }[];
}

/** An npm or pip install: its record and the packages installed. A failed
 * install is a result with outcome failed. */
export interface InstallResult extends Result {
  installed: { name: string; version: string; integrity?: string; sha256?: string; path?: string; scripts?: string[] }[];
}

export interface NpmInstallOptions {
  dev?: boolean;
  frozen?: boolean;
  timeoutMs?: number;
}

export interface PipInstallOptions {
  requirementsFile?: string;
  indexUrl?: string;
  extraIndexUrls?: string[];
  upgrade?: boolean;
  timeoutMs?: number;
}

export interface LifecycleEvent {
  type:
    | "context.created"
    | "context.reset"
    | "context.deleted"
    | "context.hibernated"
    | "context.restored"
    | "execution.started"
    | "execution.completed"
    | "process.spawned"
    | "process.exited"
    | (string & {});
  timestampMs: number;
  contextId?: string;
  executionId?: string;
  kind?: string;
  language?: string;
  outcome?: string;
  pid?: number;
  exitCode?: number;
  durationMs?: number;
  requestId?: string;
  id?: string;
}
