"""wasmexec: run untrusted JavaScript, TypeScript and Python in WebAssembly
sandboxes from Python.

>>> from wasmexec import Sandbox
>>> sb = Sandbox("http://127.0.0.1:8080")        # or WASMEXEC_URL, WASMEXEC_API_KEY
>>> sb.run_code("sum(range(10))").value
45
>>> with sb.contexts.create(language="python") as ctx:
...     ctx.run_code("x = 41")
...     ctx.run_code("x + 1").value
42

``AsyncSandbox`` is the same API for asyncio. Errors are ``WasmexecError``
(``code``, ``message``, ``status``); a guest failure is a ``Result`` whose
``outcome`` is failed.
"""

from ._async import AsyncContext, AsyncEventStream, AsyncProcess, AsyncSandbox
from ._errors import WasmexecError
from ._models import (
    CheckResult,
    ContextInfo,
    Diagnostic,
    ErrorData,
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
    TypeScriptVersion,
    WorkspaceUsage,
)
from ._sse import StreamPolicy
from ._sync import Context, EventStream, Process, Sandbox

__version__ = "0.1.0"

__all__ = [
    "Sandbox", "Context", "Process", "EventStream",
    "AsyncSandbox", "AsyncContext", "AsyncProcess", "AsyncEventStream",
    "WasmexecError", "StreamPolicy",
    "Result", "ErrorData", "ContextInfo", "WorkspaceUsage", "FileEntry", "ProcessInfo", "ProcessExit",
    "OutputEvent", "Truncated", "Replay", "ExecutionPage", "Diagnostic", "CheckResult", "InstallResult",
    "LifecycleEvent", "TypeScriptInfo", "TypeScriptVersion",
]
