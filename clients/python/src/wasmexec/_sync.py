"""The synchronous client: ``Sandbox`` and the handles it returns."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union

import httpx

from . import _core as core
from ._core import T
from ._errors import WasmexecError
from ._models import (
    CheckResult,
    ContextInfo,
    ExecutionPage,
    FileEntry,
    InstallResult,
    OutputEvent,
    ProcessExit,
    ProcessInfo,
    Replay,
    Result,
    TypeScriptInfo,
)
from ._sse import SSE, SSEParser, StreamPolicy

__all__ = ["Sandbox", "Context", "Process", "EventStream"]

OnOutput = Callable[[OutputEvent], Any]
OnResult = Callable[[Result], Any]


class Sandbox:
    """A client of one wasmexec server.

    ``Sandbox()`` reads WASMEXEC_URL (default http://127.0.0.1:8080) and
    WASMEXEC_API_KEY. Every call raises ``WasmexecError`` on failure; a guest
    failure is a ``Result`` with outcome failed.

    >>> sb = Sandbox()
    >>> sb.run_code("6 * 7", language="javascript").value
    42
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        api_key: Optional[str] = None,
        timeout: Optional[float] = None,
        http_client: Optional[httpx.Client] = None,
        stream_policy: Optional[StreamPolicy] = None,
    ) -> None:
        self.url = core.base_url(url)
        headers = {}
        key = core.api_key(api_key)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        # Runs are bounded by the server (timeoutMs); only connecting is
        # bounded here unless timeout says otherwise.
        self._http = http_client or httpx.Client(timeout=httpx.Timeout(timeout, connect=10.0))
        self._headers = headers
        self.stream_policy = stream_policy or StreamPolicy()
        self.contexts = Contexts(self)
        self.processes = Processes(self)
        self.executions = Executions(self)
        self.typescript = TypeScript(self)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # The transport.

    def _send(self, call: "core.Call[Any]", *, stream: bool = False, headers: Optional[Dict[str, str]] = None) -> httpx.Response:
        h = dict(self._headers)
        if call.content is not None:
            h["Content-Type"] = "application/octet-stream"
        if headers:
            h.update(headers)
        req = self._http.build_request(call.method, self.url + call.path, params=call.params, json=call.json, content=call.content, headers=h)
        try:
            resp = self._http.send(req, stream=stream)
        except httpx.TransportError as e:
            raise WasmexecError("connection_error", f"{call.method} {call.path}: {e!r}") from e
        if resp.status_code >= 300:
            try:
                content = resp.read()
            finally:
                resp.close()
            raise core.error_of(resp.status_code, resp.headers, content)
        return resp

    def _do(self, call: "core.Call[T]") -> T:
        resp = self._send(call)
        return call.parse(resp.content)

    def _open_stream(self, path: str, params: Optional[Dict[str, Any]], state: "EventStream") -> httpx.Response:
        headers = {"Accept": "text/event-stream"}
        if state.last_event_id:
            headers["Last-Event-ID"] = state.last_event_id
        resp = self._send(core.Call("GET", path, core._none, params=params), stream=True, headers=headers)
        state.connections += 1
        state._resp = resp
        return resp

    def _stream(self, path: str, params: Optional[Dict[str, Any]], final: Optional[str], state: "EventStream", decode: Callable[[SSE], Any]) -> "EventStream":
        """Open a stream now (so nothing published from here on is missed, and
        an API error is raised here), to be read on by iterating ``state``."""
        resp = self._open_stream(path, params, state)
        state._it = (decode(e) for e in self._follow(path, params, final, state, resp))
        return state

    def _follow(self, path: str, params: Optional[Dict[str, Any]], final: Optional[str], state: "EventStream", resp: Optional[httpx.Response]) -> Iterator[SSE]:
        policy = self.stream_policy
        failures = 0
        while True:
            cause: Optional[WasmexecError] = None
            try:
                if resp is None:
                    resp = self._open_stream(path, params, state)
                try:
                    for e in SSEParser().parse(resp.iter_lines()):
                        failures = 0
                        if e.id:
                            state.last_event_id = e.id
                        yield e
                        if final and e.event == final:
                            return
                finally:
                    resp.close()
                    resp = None
            except WasmexecError as e:
                if e.status is not None and e.status not in (429, 503):
                    raise
                cause = e
            except httpx.TransportError as e:
                cause = WasmexecError("connection_error", f"stream {path}: {e!r}")
            failures += 1
            if failures > policy.retries:
                raise cause or WasmexecError("connection_error", f"stream {path} kept ending without its last event")
            time.sleep(policy.delay(failures))

    # Runs.

    def run_code(
        self,
        code: Optional[str] = None,
        *,
        language: str = "python",
        mode: str = "evaluate",
        context_id: Optional[str] = None,
        on_stdout: Optional[OnOutput] = None,
        on_stderr: Optional[OnOutput] = None,
        on_result: Optional[OnResult] = None,
        **options: Any,
    ) -> Result:
        """Run code: ``mode`` evaluate (the value of the last expression) or
        execute (a program: stdin, args, exit code).

        options are the request's fields in snake_case: inputs, stdin, env,
        args, cwd, files, timeout_ms, limits, output, format, file_path,
        tsconfig_path, packages, network, secrets. With ``on_stdout`` or
        ``on_stderr`` the run streams its output to them as it is written
        (on a server without streamed runs they get the whole output once,
        before the result); ``on_result`` gets the result.
        """
        call = core.run(mode, code, language, context_id, options)
        if on_stdout is None and on_stderr is None:
            res = self._do(call)
        else:
            res = self._run_streamed(call, on_stdout, on_stderr)
        if on_result is not None:
            on_result(res)
        return res

    def evaluate(self, code: Optional[str] = None, **kw: Any) -> Result:
        return self.run_code(code, mode="evaluate", **kw)

    def execute(self, code: Optional[str] = None, **kw: Any) -> Result:
        return self.run_code(code, mode="execute", **kw)

    def _run_streamed(self, call: "core.Call[Result]", on_stdout: Optional[OnOutput], on_stderr: Optional[OnOutput]) -> Result:
        def emit(ev: OutputEvent) -> None:
            f = on_stdout if ev.channel == "stdout" else on_stderr if ev.channel == "stderr" else None
            if f is not None:
                f(ev)

        resp = self._send(call, stream=True, headers={"Accept": "text/event-stream"})
        try:
            if not core.is_event_stream(resp.headers):
                res = call.parse(resp.read())
                for ev in core.whole_output(res):
                    emit(ev)
                return res
            try:
                for e in SSEParser().parse(resp.iter_lines()):
                    item = core.run_sse(e)
                    if isinstance(item, OutputEvent):
                        emit(item)
                    elif isinstance(item, Result):
                        return item
                    elif isinstance(item, WasmexecError):
                        raise item
            except httpx.TransportError as e:
                raise WasmexecError("connection_error", f"the run's stream broke: {e!r}") from e
            raise WasmexecError("connection_error", "the run's stream ended before its result")
        finally:
            resp.close()

    # Lifecycle events.

    def events(self, *, types: Optional[Iterable[str]] = None, context_id: Optional[str] = None, last_event_id: Optional[str] = None) -> "EventStream":
        """Follow lifecycle events (from now on, or after ``last_event_id``):
        an iterator of ``LifecycleEvent`` (and ``Truncated`` when events were
        lost) that reconnects on its own. The stream is open when this
        returns. Close it (or use ``with``) when done."""
        return self._stream("/v1/events", core.events_params(types, context_id), None, EventStream(last_event_id), core.decode_lifecycle_sse)

    def health(self) -> bool:
        """The server answers /readyz with 200."""
        try:
            self._send(core.Call("GET", "/readyz", core._none))
            return True
        except WasmexecError:
            return False


class EventStream:
    """An iterator over a stream's events that resumes after its connection
    drops. ``last_event_id`` is the cursor of the last event read: pass it to
    resume later; ``connections`` counts the connections made."""

    def __init__(self, last_event_id: Optional[str]) -> None:
        self.last_event_id = last_event_id
        self.connections = 0
        self._it: Iterator[Any] = iter(())
        self._resp: Optional[httpx.Response] = None

    def __iter__(self) -> "EventStream":
        return self

    def __next__(self) -> Any:
        while True:
            item = next(self._it)
            if item is not None:
                return item

    def close(self) -> None:
        close = getattr(self._it, "close", None)
        if close:
            close()
        if self._resp is not None:
            self._resp.close()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Contexts:
    """``sandbox.contexts``: create, get and list contexts."""

    def __init__(self, sb: Sandbox) -> None:
        self._sb = sb

    def create(
        self,
        *,
        language: Optional[str] = None,
        context_id: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        memory_bytes: Optional[int] = None,
        network: Optional[Dict[str, Any]] = None,
        secrets: Optional[Dict[str, Any]] = None,
    ) -> "Context":
        """Create a context (a long-lived guest with a workspace). Use it in a
        ``with`` block to delete it at the end."""
        return Context(self._sb, self._sb._do(core.create_context(context_id, language, env, memory_bytes, network, secrets)))

    def get(self, context_id: str) -> "Context":
        return Context(self._sb, self._sb._do(core.get_context(context_id)))

    def list(self) -> List["Context"]:
        return [Context(self._sb, i) for i in self._sb._do(core.list_contexts())]


class Files:
    """``context.files``: the context's workspace (paths relative to /workspace)."""

    def __init__(self, sb: Sandbox, context_id: str) -> None:
        self._sb, self._id = sb, context_id

    def write(self, path: str, data: Union[str, bytes]) -> FileEntry:
        return self._sb._do(core.write_file(self._id, path, data))

    def read(self, path: str) -> bytes:
        return self._sb._do(core.read_file(self._id, path))

    def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return self.read(path).decode(encoding)

    def list(self, dir: str = "") -> List[FileEntry]:
        return self._sb._do(core.list_files(self._id, dir))

    def delete(self, path: str) -> None:
        self._sb._do(core.delete_file(self._id, path))


class Context:
    """A context: state kept between runs, a workspace, installs.

    ``info`` is its descriptor as of the last call that returned it
    (``refresh()`` reads it again)."""

    def __init__(self, sb: Sandbox, info: ContextInfo) -> None:
        self._sb = sb
        self.info = info
        self.id = info.context_id
        self.files = Files(sb, self.id)

    def __repr__(self) -> str:
        return f"Context({self.id!r}, language={self.info.language!r}, state={self.info.state!r})"

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.delete()
        except WasmexecError as e:
            if e.code != "context_not_found":
                raise

    def run_code(self, code: Optional[str] = None, *, language: Optional[str] = None, **kw: Any) -> Result:
        """``Sandbox.run_code`` in this context (its language unless given)."""
        lang = language or self.info.language or "python"
        res = self._sb.run_code(code, language=lang, context_id=self.id, **kw)
        if not self.info.language:
            self.info.language = res.language or lang
        return res

    def evaluate(self, code: Optional[str] = None, **kw: Any) -> Result:
        return self.run_code(code, mode="evaluate", **kw)

    def execute(self, code: Optional[str] = None, **kw: Any) -> Result:
        return self.run_code(code, mode="execute", **kw)

    def refresh(self) -> ContextInfo:
        self.info = self._sb._do(core.get_context(self.id))
        return self.info

    def reset(self) -> ContextInfo:
        """A fresh guest (variables gone); the files stay."""
        self.info = self._sb._do(core.context_action(self.id, "reset"))
        return self.info

    def hibernate(self) -> ContextInfo:
        """Snapshot the guest and drop it from memory; the next use restores it."""
        self.info = self._sb._do(core.context_action(self.id, "hibernate"))
        return self.info

    def fork(self, context_id: Optional[str] = None) -> "Context":
        """A new, independent context with this one's state and a copy of its files."""
        return Context(self._sb, self._sb._do(core.fork_context(self.id, context_id)))

    def delete(self) -> None:
        self._sb._do(core.delete_context(self.id))

    def npm_install(self, packages: Optional[Iterable[str]] = None, *, dev: bool = False, frozen: bool = False, timeout_ms: Optional[int] = None) -> InstallResult:
        """Install npm packages into the workspace (none: its package.json)."""
        return self._sb._do(core.npm_install(self.id, packages, dev, frozen, timeout_ms))

    def pip_install(
        self,
        packages: Optional[Iterable[str]] = None,
        *,
        requirements_file: Optional[str] = None,
        index_url: Optional[str] = None,
        extra_index_urls: Optional[List[str]] = None,
        upgrade: bool = False,
        timeout_ms: Optional[int] = None,
    ) -> InstallResult:
        """Install Python packages (PEP 508 requirements) into the workspace."""
        return self._sb._do(core.pip_install(self.id, packages, requirements_file, index_url, extra_index_urls, upgrade, timeout_ms))

    def spawn(self, code: Optional[str] = None, *, file: Optional[str] = None, language: Optional[str] = None, **kw: Any) -> "Process":
        """Start a process in this context's workspace."""
        return self._sb.processes.spawn(code, file=file, language=language or self.info.language or "python", context_id=self.id, **kw)

    def executions(self, **filters: Any) -> ExecutionPage:
        """This context's completed executions, newest first."""
        return self._sb.executions.list(context_id=self.id, **filters)


class Processes:
    """``sandbox.processes``: spawn, get and list processes."""

    def __init__(self, sb: Sandbox) -> None:
        self._sb = sb

    def spawn(
        self,
        code: Optional[str] = None,
        *,
        language: str = "python",
        file: Optional[str] = None,
        args: Optional[List[str]] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        context_id: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        limits: Optional[Dict[str, int]] = None,
        format: Optional[str] = None,
        network: Optional[Dict[str, Any]] = None,
        secrets: Optional[Dict[str, Any]] = None,
    ) -> "Process":
        """Start a long-running process (``code``, or a workspace ``file`` of
        ``context_id``)."""
        info = self._sb._do(core.spawn(language, code, file, args, env, cwd, context_id, timeout_ms, limits, format, network, secrets))
        return Process(self._sb, info)

    def get(self, pid: int) -> "Process":
        return Process(self._sb, self._sb._do(core.get_process(pid)))

    def list(self) -> List["Process"]:
        return [Process(self._sb, i) for i in self._sb._do(core.list_processes())]


class Process:
    """A process: stdin, signals, waiting, output replay and live streams."""

    def __init__(self, sb: Sandbox, info: ProcessInfo) -> None:
        self._sb = sb
        self.info = info
        self.pid = info.pid
        self.execution_id = info.execution_id

    def __repr__(self) -> str:
        return f"Process({self.pid}, state={self.info.state!r})"

    def refresh(self) -> ProcessInfo:
        self.info = self._sb._do(core.get_process(self.pid))
        return self.info

    def write_stdin(self, data: Union[str, bytes]) -> None:
        """Write to stdin; a full buffer raises code overloaded (retry later)."""
        self._sb._do(core.write_stdin(self.pid, data))

    def close_stdin(self) -> ProcessInfo:
        self.info = self._sb._do(core.close_stdin(self.pid))
        return self.info

    def signal(self, sig: str = "SIGTERM") -> ProcessInfo:
        """SIGTERM or SIGINT (stdin closes, then a kill after the grace), SIGKILL."""
        self.info = self._sb._do(core.signal(self.pid, sig))
        return self.info

    def kill(self) -> ProcessInfo:
        return self.signal("SIGKILL")

    def wait(self, timeout: Optional[float] = None) -> Optional[ProcessExit]:
        """Wait for the exit (``timeout`` seconds; None: as long as it takes);
        None when it is still running at the timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = core.MAX_WAIT_MS if deadline is None else max(0, int((deadline - time.monotonic()) * 1000))
            ex = self._sb._do(core.wait(self.pid, left))
            if ex is not None or (deadline is not None and time.monotonic() >= deadline):
                return ex

    def output(self, *, after: Optional[str] = None, limit: Optional[int] = None, max_bytes: Optional[int] = None) -> Replay:
        """Replay output (running or exited) after a cursor."""
        return self._sb._do(core.process_output(self.pid, after, limit, max_bytes))

    def stream(self, *, last_event_id: Optional[str] = None) -> EventStream:
        """Follow the output live (from the start, or after ``last_event_id``):
        ``OutputEvent``s, ``Truncated`` when the reader fell behind, and the
        ``ProcessExit`` last. It resumes on its own after a dropped connection."""
        return self._sb._stream(core.process_stream_path(self.pid), None, "exit", EventStream(last_event_id), core.decode_output_sse)

    def follow(self, *, on_stdout: Optional[OnOutput] = None, on_stderr: Optional[OnOutput] = None, last_event_id: Optional[str] = None) -> ProcessExit:
        """Call ``on_stdout``/``on_stderr`` with the output as it is written,
        until the process exits; returns the exit."""
        with self.stream(last_event_id=last_event_id) as s:
            for item in s:
                if isinstance(item, OutputEvent):
                    f = on_stdout if item.channel == "stdout" else on_stderr if item.channel == "stderr" else None
                    if f is not None:
                        f(item)
                elif isinstance(item, ProcessExit):
                    return item
        raise WasmexecError("connection_error", f"the output stream of process {self.pid} ended before its exit")


class Executions:
    """``sandbox.executions``: the history of completed executions."""

    def __init__(self, sb: Sandbox) -> None:
        self._sb = sb

    def list(
        self,
        *,
        context_id: Optional[str] = None,
        language: Optional[str] = None,
        outcome: Optional[str] = None,
        kind: Optional[str] = None,
        after: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> ExecutionPage:
        return self._sb._do(core.list_executions(context_id, language, outcome, kind, after, limit))

    def iter(self, **filters: Any) -> Iterator[Result]:
        """Every matching execution, newest first, page after page."""
        after = filters.pop("after", None)
        while True:
            page = self.list(after=after, **filters)
            yield from page.executions
            if not page.has_more:
                return
            after = page.next_cursor

    def get(self, execution_id: str, *, include_code: bool = False) -> Result:
        return self._sb._do(core.get_execution(execution_id, include_code))

    def output(self, execution_id: str, *, after: Optional[str] = None, limit: Optional[int] = None, max_bytes: Optional[int] = None) -> Replay:
        """Replay retained output (processes, and runs with output.retainEvents)."""
        return self._sb._do(core.execution_output(execution_id, after, limit, max_bytes))

    def delete(self, execution_id: str) -> None:
        self._sb._do(core.delete_execution(execution_id))


class TypeScript:
    """``sandbox.typescript``: type checks with the official compiler."""

    def __init__(self, sb: Sandbox) -> None:
        self._sb = sb

    def check(
        self,
        code: Optional[str] = None,
        *,
        files: Optional[Dict[str, str]] = None,
        file_path: Optional[str] = None,
        tsconfig_path: Optional[str] = None,
        compiler_options: Optional[Dict[str, Any]] = None,
        timeout_ms: Optional[int] = None,
        typescript_version: Optional[str] = None,
    ) -> CheckResult:
        return self._sb._do(core.check(code, files, file_path, tsconfig_path, compiler_options, timeout_ms, typescript_version))

    def info(self) -> TypeScriptInfo:
        return self._sb._do(core.typescript_info())
