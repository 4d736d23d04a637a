"""The API's values as dataclasses.

Each is decoded from the server's JSON by ``from_json``: camelCase keys
become snake_case fields, nested values become their dataclasses, and
fields this version does not know are kept in ``extra_fields`` rather than
dropped, so a newer server never breaks an older client.
"""

from __future__ import annotations

import base64
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, List, Optional, Type, TypeVar, Union

__all__ = [
    "ErrorData",
    "Result",
    "ContextInfo",
    "WorkspaceUsage",
    "FileEntry",
    "ProcessInfo",
    "ProcessExit",
    "OutputEvent",
    "Truncated",
    "Replay",
    "ExecutionPage",
    "Diagnostic",
    "CheckResult",
    "InstallResult",
    "LifecycleEvent",
    "TypeScriptVersion",
    "TypeScriptInfo",
]

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_SPECIAL = {"codeSha256": "code_sha256", "pid": "pid", "typeScriptVersion": "typescript_version"}


def _snake(key: str) -> str:
    return _SPECIAL.get(key) or _CAMEL.sub("_", key).lower()


def _stream(text: Union[str, bytes, None], encoding: Optional[str]) -> Union[str, bytes, None]:
    """An output stream or chunk: text, or bytes when the server sent base64."""
    if isinstance(text, str) and encoding == "base64":
        return base64.b64decode(text)
    return text


_M = TypeVar("_M", bound="_Model")


class _Model:
    # nested maps a field to the dataclass of its value (or of its items
    # when the field is a list).
    _nested: ClassVar[Dict[str, Any]] = {}

    @classmethod
    def from_json(cls: Type[_M], data: Dict[str, Any]) -> _M:
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        kwargs: Dict[str, Any] = {}
        extra: Dict[str, Any] = {}
        for key, value in data.items():
            name = _snake(key)
            if name not in names or name == "extra_fields":
                extra[key] = value
                continue
            sub = cls._nested.get(name)
            if sub is not None and value is not None:
                value = [sub.from_json(v) for v in value] if isinstance(value, list) else sub.from_json(value)
            kwargs[name] = value
        obj = cls(**kwargs)
        if "extra_fields" in names:
            obj.extra_fields = extra  # type: ignore[attr-defined]
        obj._decoded()
        return obj

    def _decoded(self) -> None:
        """Hook run after decoding."""


@dataclass
class ErrorData(_Model):
    """Why a run failed: ``code`` (exception, syntax_error, cpu_limit, ...)."""

    code: str = ""
    message: str = ""
    name: Optional[str] = None
    stack: Optional[str] = None
    details: Optional[Dict[str, Any]] = None


@dataclass
class Result(_Model):
    """A completed execution: a run's answer, or a record from the history.

    ``outcome`` is succeeded, failed, cancelled or timed_out; a guest
    failure is a result (``error`` says why), never an exception.
    ``stdout``/``stderr`` are text, or bytes when the output was not valid
    UTF-8; None when not captured.
    """

    execution_id: str = ""
    outcome: str = ""
    kind: Optional[str] = None
    language: Optional[str] = None
    context_id: Optional[str] = None
    pid: Optional[int] = None
    value: Any = None
    value_truncated: bool = False
    error: Optional[ErrorData] = None
    exit_code: int = 0
    stdout: Union[str, bytes, None] = None
    stderr: Union[str, bytes, None] = None
    stdout_encoding: Optional[str] = None
    stderr_encoding: Optional[str] = None
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    started_at_ms: Optional[int] = None
    completed_at_ms: Optional[int] = None
    duration_ms: float = 0.0
    fuel_consumed: Optional[int] = None
    context_reset: bool = False
    code_sha256: Optional[str] = None
    code: Optional[str] = None
    code_truncated: bool = False
    events_retained: bool = False
    output_truncated: bool = False
    extra: Any = None
    request_id: Optional[str] = None
    network: Optional[List[Dict[str, Any]]] = None
    extra_fields: Dict[str, Any] = field(default_factory=dict, repr=False)
    _nested: ClassVar[Dict[str, Any]] = {"error": ErrorData}

    def _decoded(self) -> None:
        self.stdout = _stream(self.stdout, self.stdout_encoding)
        self.stderr = _stream(self.stderr, self.stderr_encoding)

    @property
    def ok(self) -> bool:
        """The run succeeded."""
        return self.outcome == "succeeded"


@dataclass
class WorkspaceUsage(_Model):
    used_bytes: int = 0
    quota_bytes: int = 0


@dataclass
class ContextInfo(_Model):
    """A context's descriptor (state idle, running, resetting, deleting, failed)."""

    context_id: str = ""
    language: str = ""
    state: str = ""
    created_at_ms: int = 0
    last_started_at_ms: Optional[int] = None
    last_completed_at_ms: Optional[int] = None
    idle_expires_at_ms: Optional[int] = None
    memory_bytes: int = 0
    runs: int = 0
    resets: int = 0
    queued: int = 0
    workspace: Optional[WorkspaceUsage] = None
    network: Optional[Dict[str, Any]] = None
    secrets: Optional[List[str]] = None
    error: Optional[ErrorData] = None
    hibernated: bool = False
    snapshot_bytes: Optional[int] = None
    state_as_of_ms: Optional[int] = None
    restored_at_ms: Optional[int] = None
    notice: Optional[str] = None
    extra_fields: Dict[str, Any] = field(default_factory=dict, repr=False)
    _nested: ClassVar[Dict[str, Any]] = {"workspace": WorkspaceUsage, "error": ErrorData}


@dataclass
class FileEntry(_Model):
    """One workspace item: ``type`` is file, dir, symlink or other."""

    path: str = ""
    type: str = ""
    size: int = 0
    modified_at_ms: Optional[int] = None


@dataclass
class ProcessExit(_Model):
    """How a process ended: ``outcome`` exited, signalled or timed_out."""

    pid: int = 0
    outcome: str = ""
    execution_id: Optional[str] = None
    exit_code: Optional[int] = None
    signal: Optional[str] = None
    error: Optional[ErrorData] = None
    exited_at_ms: Optional[int] = None
    duration_ms: Optional[float] = None
    state: Optional[str] = None
    _nested: ClassVar[Dict[str, Any]] = {"error": ErrorData}


@dataclass
class ProcessInfo(_Model):
    """A process's descriptor (state running or exited)."""

    pid: int = 0
    execution_id: str = ""
    state: str = ""
    language: str = ""
    command: Optional[str] = None
    context_id: Optional[str] = None
    started_at_ms: Optional[int] = None
    stdin_closed: bool = False
    signal: Optional[str] = None
    exit: Optional[ProcessExit] = None
    _nested: ClassVar[Dict[str, Any]] = {"exit": ProcessExit}


@dataclass
class OutputEvent(_Model):
    """One write of a guest: ``chunk`` is text, or bytes when not valid UTF-8.

    ``id`` is its cursor on a stream (resume after it)."""

    sequence: int = 0
    channel: str = ""
    chunk: Union[str, bytes] = ""
    timestamp_ms: int = 0
    pid: Optional[int] = None
    encoding: Optional[str] = None
    id: Optional[str] = None

    def _decoded(self) -> None:
        self.chunk = _stream(self.chunk, self.encoding) or ""

    @property
    def text(self) -> str:
        """The chunk as text (undecodable bytes replaced)."""
        return self.chunk.decode("utf-8", "replace") if isinstance(self.chunk, bytes) else self.chunk

    def __str__(self) -> str:
        return self.text


@dataclass
class Truncated(_Model):
    """A stream's reader fell behind the retained window: ``dropped`` events
    were lost, and the stream continues after ``resume_after``."""

    after: str = ""
    resume_after: str = ""
    dropped: int = 0


@dataclass
class Replay(_Model):
    """A page of output events; read on from ``next_cursor`` while ``has_more``."""

    events: List[OutputEvent] = field(default_factory=list)
    next_cursor: str = ""
    has_more: bool = False
    truncated: bool = False
    _nested: ClassVar[Dict[str, Any]] = {"events": OutputEvent}


@dataclass
class ExecutionPage(_Model):
    """A page of completed executions, newest first."""

    executions: List[Result] = field(default_factory=list)
    next_cursor: str = ""
    has_more: bool = False
    _nested: ClassVar[Dict[str, Any]] = {"executions": Result}


@dataclass
class Diagnostic(_Model):
    """A compiler diagnostic; ``line``/``column`` 1-based (0 without a file)."""

    code: int = 0
    category: str = ""
    message: str = ""
    file_path: str = ""
    line: int = 0
    column: int = 0


@dataclass
class CheckResult(_Model):
    """A type check: type errors are outcome succeeded with ``has_errors``."""

    outcome: str = ""
    has_errors: bool = False
    diagnostics: List[Diagnostic] = field(default_factory=list)
    execution_id: Optional[str] = None
    error: Optional[ErrorData] = None
    typescript_version: Optional[str] = None
    duration_ms: float = 0.0
    _nested: ClassVar[Dict[str, Any]] = {"diagnostics": Diagnostic, "error": ErrorData}


@dataclass
class InstallResult(Result):
    """An npm or pip install: its execution record and the packages installed
    (dicts: name, version and integrity or sha256). A failed install is a
    result with ``outcome`` failed."""

    installed: List[Dict[str, Any]] = field(default_factory=list)


@dataclass
class LifecycleEvent(_Model):
    """A lifecycle event (context.created, execution.completed, ...); ``id``
    is its cursor on the stream."""

    type: str = ""
    timestamp_ms: int = 0
    context_id: Optional[str] = None
    execution_id: Optional[str] = None
    kind: Optional[str] = None
    language: Optional[str] = None
    outcome: Optional[str] = None
    pid: Optional[int] = None
    exit_code: Optional[int] = None
    duration_ms: Optional[float] = None
    request_id: Optional[str] = None
    id: Optional[str] = None
    extra_fields: Dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class TypeScriptVersion(_Model):
    major: str = ""
    version: str = ""
    default: bool = False
    ready: bool = False
    state: str = ""
    error: Optional[str] = None
    extra_fields: Dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class TypeScriptInfo(_Model):
    """The checker versions the server offers."""

    default: str = ""
    versions: List[TypeScriptVersion] = field(default_factory=list)
    _nested: ClassVar[Dict[str, Any]] = {"versions": TypeScriptVersion}
