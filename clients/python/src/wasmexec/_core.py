"""What a call sends and how its answer is read, shared by the sync and
async clients: each API operation is a function returning a ``Call``."""

from __future__ import annotations

import json as _json
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Generic, Iterable, List, Mapping, Optional, Type, TypeVar, Union
from urllib.parse import quote

from ._errors import WasmexecError
from ._models import (
    _Model,
    CheckResult,
    ContextInfo,
    ExecutionPage,
    FileEntry,
    InstallResult,
    LifecycleEvent,
    OutputEvent,
    ProcessExit,
    ProcessInfo,
    Replay,
    Result,
    Truncated,
    TypeScriptInfo,
)
from ._sse import SSE

DEFAULT_URL = "http://127.0.0.1:8080"


def base_url(url: Optional[str]) -> str:
    return (url or os.environ.get("WASMEXEC_URL") or DEFAULT_URL).rstrip("/")


def api_key(key: Optional[str]) -> Optional[str]:
    return key if key is not None else os.environ.get("WASMEXEC_API_KEY") or None


T = TypeVar("T")
M = TypeVar("M", bound=_Model)
Data = Union[str, bytes, bytearray, memoryview]
Json = Optional[Dict[str, Any]]


def _none(body: bytes) -> None:
    return None


@dataclass
class Call(Generic[T]):
    method: str
    path: str
    # parse turns the answer's body into the call's value.
    parse: Callable[[bytes], T]
    params: Optional[Dict[str, Any]] = None
    json: Any = None
    content: Optional[bytes] = None


def _json_of(cls: Type[M]) -> Callable[[bytes], M]:
    return lambda body: cls.from_json(_json.loads(body))


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def body(**fields: Any) -> Dict[str, Any]:
    """A request body: snake_case keyword arguments as camelCase keys, None
    dropped."""
    out = {}
    for k, v in fields.items():
        if v is None:
            continue
        out[_camel(k)] = v
    return out


def params(**fields: Any) -> Dict[str, Any]:
    return body(**fields)


def seg(s: Union[str, int]) -> str:
    return quote(str(s), safe="")


def file_path(context_id: str, path: str) -> str:
    parts = [quote(p, safe="") for p in path.lstrip("/").split("/")]
    return f"/v1/contexts/{seg(context_id)}/files/" + "/".join(parts)


def to_bytes(data: Data) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


# Runs.

RUN_FIELDS = (
    "inputs", "stdin", "env", "args", "cwd", "files", "timeout_ms", "limits", "output",
    "format", "file_path", "tsconfig_path", "packages", "network", "secrets",
)


def run(mode: str, code: Optional[str], language: str, context_id: Optional[str], options: Mapping[str, Any]) -> Call[Result]:
    if mode not in ("evaluate", "execute"):
        raise ValueError(f"mode must be evaluate or execute, not {mode!r}")
    unknown = set(options) - set(RUN_FIELDS)
    if unknown:
        raise TypeError(f"unknown run option(s): {', '.join(sorted(unknown))}")
    b = body(language=language, code=code, context_id=context_id, **options)
    if "code" not in b:
        b["code"] = ""
    return Call("POST", f"/v1/{mode}", json=b, parse=_json_of(Result))


# Contexts.

def create_context(context_id: Optional[str], language: Optional[str], env: Optional[Dict[str, str]], memory_bytes: Optional[int], network: Json, secrets: Json) -> Call[ContextInfo]:
    limits = {"memoryBytes": memory_bytes} if memory_bytes else None
    return Call("POST", "/v1/contexts", json=body(context_id=context_id, language=language, env=env, limits=limits, network=network, secrets=secrets), parse=_json_of(ContextInfo))


def get_context(context_id: str) -> Call[ContextInfo]:
    return Call("GET", f"/v1/contexts/{seg(context_id)}", parse=_json_of(ContextInfo))


def list_contexts() -> Call[List[ContextInfo]]:
    return Call("GET", "/v1/contexts", parse=lambda b: [ContextInfo.from_json(c) for c in _json.loads(b)["contexts"]])


def context_action(context_id: str, action: str) -> Call[ContextInfo]:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/{action}", parse=_json_of(ContextInfo))


def fork_context(context_id: str, new_id: Optional[str]) -> Call[ContextInfo]:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/fork", json=body(context_id=new_id), parse=_json_of(ContextInfo))


def delete_context(context_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/contexts/{seg(context_id)}", _none)


def write_file(context_id: str, path: str, data: Data) -> Call[FileEntry]:
    return Call("PUT", file_path(context_id, path), content=to_bytes(data), parse=_json_of(FileEntry))


def read_file(context_id: str, path: str) -> Call[bytes]:
    return Call("GET", file_path(context_id, path), parse=bytes)


def delete_file(context_id: str, path: str) -> Call[None]:
    return Call("DELETE", file_path(context_id, path), _none)


def list_files(context_id: str, dir: str) -> Call[List[FileEntry]]:
    return Call("GET", f"/v1/contexts/{seg(context_id)}/files", params={"dir": dir},
                parse=lambda b: [FileEntry.from_json(e) for e in _json.loads(b)["entries"]])


def npm_install(context_id: str, packages: Optional[Iterable[str]], dev: bool, frozen: bool, timeout_ms: Optional[int]) -> Call[InstallResult]:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/npm/install",
                json=body(packages=list(packages) if packages else None, dev=dev or None, frozen=frozen or None, timeout_ms=timeout_ms),
                parse=_json_of(InstallResult))


def pip_install(context_id: str, packages: Optional[Iterable[str]], requirements_file: Optional[str], index_url: Optional[str],
                extra_index_urls: Optional[List[str]], upgrade: bool, timeout_ms: Optional[int]) -> Call[InstallResult]:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/pip/install",
                json=body(packages=list(packages) if packages else None, requirements_file=requirements_file, index_url=index_url,
                          extra_index_urls=extra_index_urls, upgrade=upgrade or None, timeout_ms=timeout_ms),
                parse=_json_of(InstallResult))


# Processes.

def spawn(language: str, code: Optional[str], file: Optional[str], args: Optional[List[str]], env: Optional[Dict[str, str]], cwd: Optional[str],
          context_id: Optional[str], timeout_ms: Optional[int], limits: Optional[Dict[str, int]], format: Optional[str], network: Json,
          secrets: Json) -> Call[ProcessInfo]:
    return Call("POST", "/v1/processes", json=body(language=language, code=code, file=file, args=args, env=env, cwd=cwd, context_id=context_id,
                                                     timeout_ms=timeout_ms, limits=limits, format=format, network=network, secrets=secrets),
                parse=_json_of(ProcessInfo))


def get_process(pid: int) -> Call[ProcessInfo]:
    return Call("GET", f"/v1/processes/{int(pid)}", parse=_json_of(ProcessInfo))


def list_processes() -> Call[List[ProcessInfo]]:
    return Call("GET", "/v1/processes", parse=lambda b: [ProcessInfo.from_json(p) for p in _json.loads(b)["processes"]])


def write_stdin(pid: int, data: Data) -> Call[None]:
    return Call("POST", f"/v1/processes/{int(pid)}/stdin", _none, content=to_bytes(data))


def close_stdin(pid: int) -> Call[ProcessInfo]:
    return Call("POST", f"/v1/processes/{int(pid)}/stdin/close", parse=_json_of(ProcessInfo))


def signal(pid: int, sig: str) -> Call[ProcessInfo]:
    return Call("POST", f"/v1/processes/{int(pid)}/signal", json={"signal": sig}, parse=_json_of(ProcessInfo))


MAX_WAIT_MS = 600_000


def wait(pid: int, timeout_ms: int) -> Call[Optional[ProcessExit]]:
    def parse(b: bytes) -> Optional[ProcessExit]:
        d = _json.loads(b)
        return ProcessExit.from_json(d) if d.get("state") == "exited" else None

    return Call("GET", f"/v1/processes/{int(pid)}/wait", params={"timeoutMs": max(0, min(int(timeout_ms), MAX_WAIT_MS))}, parse=parse)


def replay_params(after: Optional[str], limit: Optional[int], max_bytes: Optional[int]) -> Dict[str, Any]:
    return params(after=after, limit=limit, max_bytes=max_bytes)


def process_output(pid: int, after: Optional[str], limit: Optional[int], max_bytes: Optional[int]) -> Call[Replay]:
    return Call("GET", f"/v1/processes/{int(pid)}/output", params=replay_params(after, limit, max_bytes), parse=_json_of(Replay))


def process_stream_path(pid: int) -> str:
    return f"/v1/processes/{int(pid)}/output/stream"


# Executions.

def list_executions(context_id: Optional[str], language: Optional[str], outcome: Optional[str], kind: Optional[str], after: Optional[str],
                    limit: Optional[int]) -> Call[ExecutionPage]:
    return Call("GET", "/v1/executions", params=params(context_id=context_id, language=language, outcome=outcome, kind=kind, after=after, limit=limit),
                parse=_json_of(ExecutionPage))


def get_execution(execution_id: str, include_code: bool) -> Call[Result]:
    return Call("GET", f"/v1/executions/{seg(execution_id)}", params={"include": "code"} if include_code else None, parse=_json_of(Result))


def execution_output(execution_id: str, after: Optional[str], limit: Optional[int], max_bytes: Optional[int]) -> Call[Replay]:
    return Call("GET", f"/v1/executions/{seg(execution_id)}/output", params=replay_params(after, limit, max_bytes), parse=_json_of(Replay))


def delete_execution(execution_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/executions/{seg(execution_id)}", _none)


# TypeScript.

def check(code: Optional[str], files: Optional[Dict[str, str]], file_path: Optional[str], tsconfig_path: Optional[str],
          compiler_options: Json, timeout_ms: Optional[int], typescript_version: Optional[str]) -> Call[CheckResult]:
    return Call("POST", "/v1/typescript/check",
                json=body(code=code, files=files, file_path=file_path, tsconfig_path=tsconfig_path, compiler_options=compiler_options,
                          timeout_ms=timeout_ms, typescript_version=typescript_version),
                parse=_json_of(CheckResult))


def typescript_info() -> Call[TypeScriptInfo]:
    return Call("GET", "/v1/typescript", parse=_json_of(TypeScriptInfo))


# Events.

def events_params(types: Optional[Iterable[str]], context_id: Optional[str]) -> Dict[str, Any]:
    p: Dict[str, Any] = {}
    if types:
        p["type"] = ",".join(types)
    if context_id:
        p["contextId"] = context_id
    return p


def decode_output_sse(e: SSE) -> Union[OutputEvent, Truncated, ProcessExit, None]:
    """A process output stream's event."""
    if e.event == "output":
        ev = OutputEvent.from_json(_json.loads(e.data))
        ev.id = e.id
        return ev
    if e.event == "truncated":
        return Truncated.from_json(_json.loads(e.data))
    if e.event == "exit":
        return ProcessExit.from_json(_json.loads(e.data))
    return None


def decode_lifecycle_sse(e: SSE) -> Union[LifecycleEvent, Truncated]:
    if e.event == "truncated":
        return Truncated.from_json(_json.loads(e.data))
    ev = LifecycleEvent.from_json(_json.loads(e.data))
    ev.id = e.id
    return ev


def error_of(status: int, headers: Any, content: bytes) -> WasmexecError:
    return WasmexecError._from_response(status, headers, content)


def is_event_stream(headers: Any) -> bool:
    return bool(str(headers.get("content-type", "")).split(";")[0].strip() == "text/event-stream")


def whole_output(res: Result) -> List[OutputEvent]:
    """A JSON result's output as events (a server without streamed runs)."""
    out = []
    for channel in ("stdout", "stderr"):
        chunk = getattr(res, channel)
        if chunk:
            out.append(OutputEvent(sequence=0, channel=channel, chunk=chunk, timestamp_ms=res.completed_at_ms or 0))
    return out


def run_sse(e: SSE) -> Union[OutputEvent, Result, WasmexecError, None]:
    """A streamed run's event: output, the result, or an error."""
    if e.event == "output":
        ev = OutputEvent.from_json(_json.loads(e.data))
        ev.id = e.id
        return ev
    if e.event == "result":
        return Result.from_json(_json.loads(e.data))
    if e.event == "error":
        d = _json.loads(e.data)
        return WasmexecError(str(d.get("code", "internal")), str(d.get("message", "")), 200)
    return None
