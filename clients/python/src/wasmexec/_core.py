"""What a call sends and how its answer is read, shared by the sync and
async clients: each API operation is a function returning a ``Call``."""

from __future__ import annotations

import json as _json
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Union
from urllib.parse import quote

from ._errors import WasmexecError
from ._models import (
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


@dataclass
class Call:
    method: str
    path: str
    params: Optional[Dict[str, Any]] = None
    json: Any = None
    content: Optional[bytes] = None
    # parse turns the answer's body into the call's value (None: no value).
    parse: Optional[Callable[[bytes], Any]] = None


def _json_of(cls) -> Callable[[bytes], Any]:
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


def to_bytes(data: Union[str, bytes, bytearray, memoryview]) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


# Runs.

RUN_FIELDS = (
    "inputs", "stdin", "env", "args", "cwd", "files", "timeout_ms", "limits", "output",
    "format", "file_path", "tsconfig_path", "packages", "network", "secrets",
)


def run(mode: str, code: Optional[str], language: str, context_id: Optional[str], options: Mapping[str, Any]) -> Call:
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

def create_context(context_id, language, env, memory_bytes, network, secrets) -> Call:
    limits = {"memoryBytes": memory_bytes} if memory_bytes else None
    return Call("POST", "/v1/contexts", json=body(context_id=context_id, language=language, env=env, limits=limits, network=network, secrets=secrets), parse=_json_of(ContextInfo))


def get_context(context_id: str) -> Call:
    return Call("GET", f"/v1/contexts/{seg(context_id)}", parse=_json_of(ContextInfo))


def list_contexts() -> Call:
    return Call("GET", "/v1/contexts", parse=lambda b: [ContextInfo.from_json(c) for c in _json.loads(b)["contexts"]])


def context_action(context_id: str, action: str) -> Call:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/{action}", parse=_json_of(ContextInfo))


def fork_context(context_id: str, new_id: Optional[str]) -> Call:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/fork", json=body(context_id=new_id), parse=_json_of(ContextInfo))


def delete_context(context_id: str) -> Call:
    return Call("DELETE", f"/v1/contexts/{seg(context_id)}")


def write_file(context_id: str, path: str, data) -> Call:
    return Call("PUT", file_path(context_id, path), content=to_bytes(data), parse=_json_of(FileEntry))


def read_file(context_id: str, path: str) -> Call:
    return Call("GET", file_path(context_id, path), parse=lambda b: b)


def delete_file(context_id: str, path: str) -> Call:
    return Call("DELETE", file_path(context_id, path))


def list_files(context_id: str, dir: str) -> Call:
    return Call("GET", f"/v1/contexts/{seg(context_id)}/files", params={"dir": dir},
                parse=lambda b: [FileEntry.from_json(e) for e in _json.loads(b)["entries"]])


def npm_install(context_id: str, packages, dev, frozen, timeout_ms) -> Call:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/npm/install",
                json=body(packages=list(packages) if packages else None, dev=dev or None, frozen=frozen or None, timeout_ms=timeout_ms),
                parse=_json_of(InstallResult))


def pip_install(context_id: str, packages, requirements_file, index_url, extra_index_urls, upgrade, timeout_ms) -> Call:
    return Call("POST", f"/v1/contexts/{seg(context_id)}/pip/install",
                json=body(packages=list(packages) if packages else None, requirements_file=requirements_file, index_url=index_url,
                          extra_index_urls=extra_index_urls, upgrade=upgrade or None, timeout_ms=timeout_ms),
                parse=_json_of(InstallResult))


# Processes.

def spawn(language: str, code, file, args, env, cwd, context_id, timeout_ms, limits, format, network, secrets) -> Call:
    return Call("POST", "/v1/processes", json=body(language=language, code=code, file=file, args=args, env=env, cwd=cwd, context_id=context_id,
                                                     timeout_ms=timeout_ms, limits=limits, format=format, network=network, secrets=secrets),
                parse=_json_of(ProcessInfo))


def get_process(pid: int) -> Call:
    return Call("GET", f"/v1/processes/{int(pid)}", parse=_json_of(ProcessInfo))


def list_processes() -> Call:
    return Call("GET", "/v1/processes", parse=lambda b: [ProcessInfo.from_json(p) for p in _json.loads(b)["processes"]])


def write_stdin(pid: int, data) -> Call:
    return Call("POST", f"/v1/processes/{int(pid)}/stdin", content=to_bytes(data))


def close_stdin(pid: int) -> Call:
    return Call("POST", f"/v1/processes/{int(pid)}/stdin/close", parse=_json_of(ProcessInfo))


def signal(pid: int, sig: str) -> Call:
    return Call("POST", f"/v1/processes/{int(pid)}/signal", json={"signal": sig}, parse=_json_of(ProcessInfo))


MAX_WAIT_MS = 600_000


def wait(pid: int, timeout_ms: int) -> Call:
    def parse(b: bytes) -> Optional[ProcessExit]:
        d = _json.loads(b)
        return ProcessExit.from_json(d) if d.get("state") == "exited" else None

    return Call("GET", f"/v1/processes/{int(pid)}/wait", params={"timeoutMs": max(0, min(int(timeout_ms), MAX_WAIT_MS))}, parse=parse)


def replay_params(after: Optional[str], limit: Optional[int], max_bytes: Optional[int]) -> Dict[str, Any]:
    return params(after=after, limit=limit, max_bytes=max_bytes)


def process_output(pid: int, after, limit, max_bytes) -> Call:
    return Call("GET", f"/v1/processes/{int(pid)}/output", params=replay_params(after, limit, max_bytes), parse=_json_of(Replay))


def process_stream_path(pid: int) -> str:
    return f"/v1/processes/{int(pid)}/output/stream"


# Executions.

def list_executions(context_id, language, outcome, kind, after, limit) -> Call:
    return Call("GET", "/v1/executions", params=params(context_id=context_id, language=language, outcome=outcome, kind=kind, after=after, limit=limit),
                parse=_json_of(ExecutionPage))


def get_execution(execution_id: str, include_code: bool) -> Call:
    return Call("GET", f"/v1/executions/{seg(execution_id)}", params={"include": "code"} if include_code else None, parse=_json_of(Result))


def execution_output(execution_id: str, after, limit, max_bytes) -> Call:
    return Call("GET", f"/v1/executions/{seg(execution_id)}/output", params=replay_params(after, limit, max_bytes), parse=_json_of(Replay))


def delete_execution(execution_id: str) -> Call:
    return Call("DELETE", f"/v1/executions/{seg(execution_id)}")


# TypeScript.

def check(code, files, file_path, tsconfig_path, compiler_options, timeout_ms, typescript_version) -> Call:
    return Call("POST", "/v1/typescript/check",
                json=body(code=code, files=files, file_path=file_path, tsconfig_path=tsconfig_path, compiler_options=compiler_options,
                          timeout_ms=timeout_ms, typescript_version=typescript_version),
                parse=_json_of(CheckResult))


def typescript_info() -> Call:
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


def error_of(status: int, headers, content: bytes) -> WasmexecError:
    return WasmexecError._from_response(status, headers, content)


def is_event_stream(headers) -> bool:
    return headers.get("content-type", "").split(";")[0].strip() == "text/event-stream"


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
        return WasmexecError(d.get("code", "internal"), d.get("message", ""), 200)
    return None
