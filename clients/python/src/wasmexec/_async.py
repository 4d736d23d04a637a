"""The asynchronous client: ``AsyncSandbox``, the async twin of ``Sandbox``
(the same methods, awaited; streams are async iterators)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Iterable, List, Optional, Union

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

__all__ = ["AsyncSandbox", "AsyncContext", "AsyncProcess", "AsyncEventStream"]

# A callback may be a plain function or a coroutine function.
OnOutput = Callable[[OutputEvent], Union[Any, Awaitable[Any]]]
OnResult = Callable[[Result], Union[Any, Awaitable[Any]]]


async def _call(f: Optional[Callable[[Any], Any]], arg: Any) -> None:
    if f is not None:
        r = f(arg)
        if asyncio.iscoroutine(r):
            await r


class AsyncSandbox:
    """The async client of one wasmexec server (see ``Sandbox``).

    >>> async with AsyncSandbox() as sb:
    ...     (await sb.run_code("6 * 7", language="javascript")).value
    42
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        api_key: Optional[str] = None,
        timeout: Optional[float] = None,
        http_client: Optional[httpx.AsyncClient] = None,
        stream_policy: Optional[StreamPolicy] = None,
    ) -> None:
        self.url = core.base_url(url)
        key = core.api_key(api_key)
        self._headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = http_client or httpx.AsyncClient(timeout=httpx.Timeout(timeout, connect=10.0))
        self.stream_policy = stream_policy or StreamPolicy()
        self.contexts = AsyncContexts(self)
        self.processes = AsyncProcesses(self)
        self.executions = AsyncExecutions(self)
        self.typescript = AsyncTypeScript(self)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncSandbox":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def _send(self, call: "core.Call[Any]", *, stream: bool = False, headers: Optional[Dict[str, str]] = None) -> httpx.Response:
        h = dict(self._headers)
        if call.content is not None:
            h["Content-Type"] = "application/octet-stream"
        if headers:
            h.update(headers)
        req = self._http.build_request(call.method, self.url + call.path, params=call.params, json=call.json, content=call.content, headers=h)
        try:
            resp = await self._http.send(req, stream=stream)
        except httpx.TransportError as e:
            raise WasmexecError("connection_error", f"{call.method} {call.path}: {e!r}") from e
        if resp.status_code >= 300:
            try:
                content = await resp.aread()
            finally:
                await resp.aclose()
            raise core.error_of(resp.status_code, resp.headers, content)
        return resp

    async def _do(self, call: "core.Call[T]") -> T:
        resp = await self._send(call)
        return call.parse(resp.content)

    async def _open_stream(self, path: str, params: Optional[Dict[str, Any]], state: "AsyncEventStream") -> httpx.Response:
        headers = {"Accept": "text/event-stream"}
        if state.last_event_id:
            headers["Last-Event-ID"] = state.last_event_id
        resp = await self._send(core.Call("GET", path, core._none, params=params), stream=True, headers=headers)
        state.connections += 1
        state._resp = resp
        return resp

    async def _follow(self, path: str, params: Optional[Dict[str, Any]], final: Optional[str], state: "AsyncEventStream") -> AsyncIterator[SSE]:
        policy = self.stream_policy
        failures = 0
        while True:
            cause: Optional[WasmexecError] = None
            try:
                resp = state._resp or await self._open_stream(path, params, state)
                try:
                    parser = SSEParser()
                    async for line in resp.aiter_lines():
                        e = parser.feed(line.rstrip("\r\n"))
                        if e is None:
                            continue
                        failures = 0
                        if e.id:
                            state.last_event_id = e.id
                        yield e
                        if final and e.event == final:
                            return
                finally:
                    state._resp = None
                    await resp.aclose()
            except WasmexecError as e:
                if e.status is not None and e.status not in (429, 503):
                    raise
                cause = e
            except httpx.TransportError as e:
                cause = WasmexecError("connection_error", f"stream {path}: {e!r}")
            failures += 1
            if failures > policy.retries:
                raise cause or WasmexecError("connection_error", f"stream {path} kept ending without its last event")
            await asyncio.sleep(policy.delay(failures))

    async def run_code(
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
        """See ``Sandbox.run_code``; callbacks may be coroutine functions."""
        call = core.run(mode, code, language, context_id, options)
        if on_stdout is None and on_stderr is None:
            res = await self._do(call)
        else:
            res = await self._run_streamed(call, on_stdout, on_stderr)
        await _call(on_result, res)
        return res

    async def evaluate(self, code: Optional[str] = None, **kw: Any) -> Result:
        return await self.run_code(code, mode="evaluate", **kw)

    async def execute(self, code: Optional[str] = None, **kw: Any) -> Result:
        return await self.run_code(code, mode="execute", **kw)

    async def _run_streamed(self, call: "core.Call[Result]", on_stdout: Optional[OnOutput], on_stderr: Optional[OnOutput]) -> Result:
        async def emit(ev: OutputEvent) -> None:
            await _call(on_stdout if ev.channel == "stdout" else on_stderr if ev.channel == "stderr" else None, ev)

        resp = await self._send(call, stream=True, headers={"Accept": "text/event-stream"})
        try:
            if not core.is_event_stream(resp.headers):
                res = call.parse(await resp.aread())
                for ev in core.whole_output(res):
                    await emit(ev)
                return res
            parser = SSEParser()
            try:
                async for line in resp.aiter_lines():
                    e = parser.feed(line.rstrip("\r\n"))
                    item = core.run_sse(e) if e is not None else None
                    if isinstance(item, OutputEvent):
                        await emit(item)
                    elif isinstance(item, Result):
                        return item
                    elif isinstance(item, WasmexecError):
                        raise item
            except httpx.TransportError as e:
                raise WasmexecError("connection_error", f"the run's stream broke: {e!r}") from e
            raise WasmexecError("connection_error", "the run's stream ended before its result")
        finally:
            await resp.aclose()

    def events(self, *, types: Optional[Iterable[str]] = None, context_id: Optional[str] = None, last_event_id: Optional[str] = None) -> "AsyncEventStream":
        """Follow lifecycle events: an async iterator that reconnects on its
        own. It connects at ``async with`` (from then on nothing is missed)
        or else at the first iteration."""
        params = core.events_params(types, context_id)
        s = AsyncEventStream(last_event_id, core.decode_lifecycle_sse)
        s._it = self._follow("/v1/events", params, None, s)
        s._open = lambda: self._open_stream("/v1/events", params, s)
        return s

    async def health(self) -> bool:
        try:
            await self._send(core.Call("GET", "/readyz", core._none))
            return True
        except WasmexecError:
            return False


class AsyncEventStream:
    """The async twin of ``EventStream`` (``async for``, ``async with``)."""

    def __init__(self, last_event_id: Optional[str], decode: Callable[[SSE], Any]) -> None:
        self.last_event_id = last_event_id
        self.connections = 0
        self._decode = decode
        self._it: Any = None
        self._resp: Optional[httpx.Response] = None
        self._open: Optional[Callable[[], Awaitable[httpx.Response]]] = None

    def __aiter__(self) -> "AsyncEventStream":
        return self

    async def __anext__(self) -> Any:
        while True:
            item = self._decode(await self._it.__anext__())
            if item is not None:
                return item

    async def aclose(self) -> None:
        if self._it is not None:
            await self._it.aclose()
        if self._resp is not None:
            await self._resp.aclose()
            self._resp = None

    async def __aenter__(self) -> "AsyncEventStream":
        if self._open is not None and self._resp is None and self.connections == 0:
            await self._open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()


class AsyncContexts:
    def __init__(self, sb: AsyncSandbox) -> None:
        self._sb = sb

    async def create(
        self,
        *,
        language: Optional[str] = None,
        context_id: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        memory_bytes: Optional[int] = None,
        network: Optional[Dict[str, Any]] = None,
        secrets: Optional[Dict[str, Any]] = None,
    ) -> "AsyncContext":
        return AsyncContext(self._sb, await self._sb._do(core.create_context(context_id, language, env, memory_bytes, network, secrets)))

    async def get(self, context_id: str) -> "AsyncContext":
        return AsyncContext(self._sb, await self._sb._do(core.get_context(context_id)))

    async def list(self) -> List["AsyncContext"]:
        return [AsyncContext(self._sb, i) for i in await self._sb._do(core.list_contexts())]


class AsyncFiles:
    def __init__(self, sb: AsyncSandbox, context_id: str) -> None:
        self._sb, self._id = sb, context_id

    async def write(self, path: str, data: Union[str, bytes]) -> FileEntry:
        return await self._sb._do(core.write_file(self._id, path, data))

    async def read(self, path: str) -> bytes:
        return await self._sb._do(core.read_file(self._id, path))

    async def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return (await self.read(path)).decode(encoding)

    async def list(self, dir: str = "") -> List[FileEntry]:
        return await self._sb._do(core.list_files(self._id, dir))

    async def delete(self, path: str) -> None:
        await self._sb._do(core.delete_file(self._id, path))


class AsyncContext:
    """The async twin of ``Context`` (``async with`` deletes it at the end)."""

    def __init__(self, sb: AsyncSandbox, info: ContextInfo) -> None:
        self._sb = sb
        self.info = info
        self.id = info.context_id
        self.files = AsyncFiles(sb, self.id)

    def __repr__(self) -> str:
        return f"AsyncContext({self.id!r}, language={self.info.language!r}, state={self.info.state!r})"

    async def __aenter__(self) -> "AsyncContext":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self.delete()
        except WasmexecError as e:
            if e.code != "context_not_found":
                raise

    async def run_code(self, code: Optional[str] = None, *, language: Optional[str] = None, **kw: Any) -> Result:
        lang = language or self.info.language or "python"
        res = await self._sb.run_code(code, language=lang, context_id=self.id, **kw)
        if not self.info.language:
            self.info.language = res.language or lang
        return res

    async def evaluate(self, code: Optional[str] = None, **kw: Any) -> Result:
        return await self.run_code(code, mode="evaluate", **kw)

    async def execute(self, code: Optional[str] = None, **kw: Any) -> Result:
        return await self.run_code(code, mode="execute", **kw)

    async def refresh(self) -> ContextInfo:
        self.info = await self._sb._do(core.get_context(self.id))
        return self.info

    async def reset(self) -> ContextInfo:
        self.info = await self._sb._do(core.context_action(self.id, "reset"))
        return self.info

    async def hibernate(self) -> ContextInfo:
        self.info = await self._sb._do(core.context_action(self.id, "hibernate"))
        return self.info

    async def fork(self, context_id: Optional[str] = None) -> "AsyncContext":
        return AsyncContext(self._sb, await self._sb._do(core.fork_context(self.id, context_id)))

    async def delete(self) -> None:
        await self._sb._do(core.delete_context(self.id))

    async def npm_install(self, packages: Optional[Iterable[str]] = None, *, dev: bool = False, frozen: bool = False, timeout_ms: Optional[int] = None) -> InstallResult:
        return await self._sb._do(core.npm_install(self.id, packages, dev, frozen, timeout_ms))

    async def pip_install(
        self,
        packages: Optional[Iterable[str]] = None,
        *,
        requirements_file: Optional[str] = None,
        index_url: Optional[str] = None,
        extra_index_urls: Optional[List[str]] = None,
        upgrade: bool = False,
        timeout_ms: Optional[int] = None,
    ) -> InstallResult:
        return await self._sb._do(core.pip_install(self.id, packages, requirements_file, index_url, extra_index_urls, upgrade, timeout_ms))

    async def spawn(self, code: Optional[str] = None, *, file: Optional[str] = None, language: Optional[str] = None, **kw: Any) -> "AsyncProcess":
        return await self._sb.processes.spawn(code, file=file, language=language or self.info.language or "python", context_id=self.id, **kw)

    async def executions(self, **filters: Any) -> ExecutionPage:
        return await self._sb.executions.list(context_id=self.id, **filters)


class AsyncProcesses:
    def __init__(self, sb: AsyncSandbox) -> None:
        self._sb = sb

    async def spawn(
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
    ) -> "AsyncProcess":
        info = await self._sb._do(core.spawn(language, code, file, args, env, cwd, context_id, timeout_ms, limits, format, network, secrets))
        return AsyncProcess(self._sb, info)

    async def get(self, pid: int) -> "AsyncProcess":
        return AsyncProcess(self._sb, await self._sb._do(core.get_process(pid)))

    async def list(self) -> List["AsyncProcess"]:
        return [AsyncProcess(self._sb, i) for i in await self._sb._do(core.list_processes())]


class AsyncProcess:
    """The async twin of ``Process``."""

    def __init__(self, sb: AsyncSandbox, info: ProcessInfo) -> None:
        self._sb = sb
        self.info = info
        self.pid = info.pid
        self.execution_id = info.execution_id

    def __repr__(self) -> str:
        return f"AsyncProcess({self.pid}, state={self.info.state!r})"

    async def refresh(self) -> ProcessInfo:
        self.info = await self._sb._do(core.get_process(self.pid))
        return self.info

    async def write_stdin(self, data: Union[str, bytes]) -> None:
        await self._sb._do(core.write_stdin(self.pid, data))

    async def close_stdin(self) -> ProcessInfo:
        self.info = await self._sb._do(core.close_stdin(self.pid))
        return self.info

    async def signal(self, sig: str = "SIGTERM") -> ProcessInfo:
        self.info = await self._sb._do(core.signal(self.pid, sig))
        return self.info

    async def kill(self) -> ProcessInfo:
        return await self.signal("SIGKILL")

    async def wait(self, timeout: Optional[float] = None) -> Optional[ProcessExit]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = core.MAX_WAIT_MS if deadline is None else max(0, int((deadline - time.monotonic()) * 1000))
            ex = await self._sb._do(core.wait(self.pid, left))
            if ex is not None or (deadline is not None and time.monotonic() >= deadline):
                return ex

    async def output(self, *, after: Optional[str] = None, limit: Optional[int] = None, max_bytes: Optional[int] = None) -> Replay:
        return await self._sb._do(core.process_output(self.pid, after, limit, max_bytes))

    def stream(self, *, last_event_id: Optional[str] = None) -> AsyncEventStream:
        s = AsyncEventStream(last_event_id, core.decode_output_sse)
        path = core.process_stream_path(self.pid)
        s._it = self._sb._follow(path, None, "exit", s)
        s._open = lambda: self._sb._open_stream(path, None, s)
        return s

    async def follow(self, *, on_stdout: Optional[OnOutput] = None, on_stderr: Optional[OnOutput] = None, last_event_id: Optional[str] = None) -> ProcessExit:
        async with self.stream(last_event_id=last_event_id) as s:
            async for item in s:
                if isinstance(item, OutputEvent):
                    await _call(on_stdout if item.channel == "stdout" else on_stderr if item.channel == "stderr" else None, item)
                elif isinstance(item, ProcessExit):
                    return item
        raise WasmexecError("connection_error", f"the output stream of process {self.pid} ended before its exit")


class AsyncExecutions:
    def __init__(self, sb: AsyncSandbox) -> None:
        self._sb = sb

    async def list(
        self,
        *,
        context_id: Optional[str] = None,
        language: Optional[str] = None,
        outcome: Optional[str] = None,
        kind: Optional[str] = None,
        after: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> ExecutionPage:
        return await self._sb._do(core.list_executions(context_id, language, outcome, kind, after, limit))

    async def iter(self, **filters: Any) -> AsyncIterator[Result]:
        after = filters.pop("after", None)
        while True:
            page = await self.list(after=after, **filters)
            for r in page.executions:
                yield r
            if not page.has_more:
                return
            after = page.next_cursor

    async def get(self, execution_id: str, *, include_code: bool = False) -> Result:
        return await self._sb._do(core.get_execution(execution_id, include_code))

    async def output(self, execution_id: str, *, after: Optional[str] = None, limit: Optional[int] = None, max_bytes: Optional[int] = None) -> Replay:
        return await self._sb._do(core.execution_output(execution_id, after, limit, max_bytes))

    async def delete(self, execution_id: str) -> None:
        await self._sb._do(core.delete_execution(execution_id))


class AsyncTypeScript:
    def __init__(self, sb: AsyncSandbox) -> None:
        self._sb = sb

    async def check(
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
        return await self._sb._do(core.check(code, files, file_path, tsconfig_path, compiler_options, timeout_ms, typescript_version))

    async def info(self) -> TypeScriptInfo:
        return await self._sb._do(core.typescript_info())
