"""The sync client against a real server."""

import os
import time

import httpx
import pytest

from conftest import skip_offline
from wasmexec import (
    Context,
    LifecycleEvent,
    OutputEvent,
    ProcessExit,
    Result,
    Sandbox,
    StreamPolicy,
    WasmexecError,
)


def test_run_code_values_and_failures(sb):
    r = sb.run_code("console.log('hi'); 6 * 7", language="javascript")
    assert isinstance(r, Result) and r.ok and r.value == 42 and r.stdout == "hi\n"
    r = sb.run_code("import statistics\nstatistics.mean([1, 2, 3, 4])")
    assert r.value == 2.5 and r.language == "python"
    r = sb.execute("import sys\nprint(sys.argv[1:], input())\nsys.exit(3)", args=["a"], stdin="line\n")
    assert r.exit_code == 3 and r.stdout == "['a'] line\n"
    r = sb.run_code("inputs['n'] * 2", inputs={"n": 21})
    assert r.value == 42
    r = sb.run_code("throw new Error('boom')", language="javascript")
    assert r.outcome == "failed" and r.error.code == "exception" and "boom" in r.error.message
    r = sb.run_code("import sys\nsys.stdout.buffer.write(b'\\xff\\x00')\nsys.stdout.flush()")
    assert r.stdout == b"\xff\x00"


def test_errors_are_one_type(sb):
    with pytest.raises(WasmexecError) as e:
        sb.run_code("1", language="cobol")
    assert e.value.code == "invalid_argument" and e.value.status == 400 and e.value.message
    with pytest.raises(WasmexecError) as e:
        sb.contexts.get("no-such-context")
    assert e.value.code == "context_not_found" and e.value.status == 404
    with pytest.raises(WasmexecError) as e:
        Sandbox("http://127.0.0.1:1").run_code("1")
    assert e.value.code == "connection_error" and e.value.status is None


def test_callbacks(sb):
    out, err, results = [], [], []
    r = sb.run_code("console.log('a'); console.error('b'); console.log('c')", language="javascript", mode="execute",
                    on_stdout=out.append, on_stderr=err.append, on_result=results.append)
    assert all(isinstance(e, OutputEvent) for e in out + err)
    assert "".join(e.text for e in out) == r.stdout == "a\nc\n"
    assert "".join(e.text for e in err) == r.stderr == "b\n"
    assert results == [r]


def test_streamed_run(sb, url):
    resp = httpx.post(url + "/v1/evaluate", json={"language": "javascript", "code": "1"}, headers={"Accept": "text/event-stream"})
    if not resp.headers.get("content-type", "").startswith("text/event-stream"):
        pytest.skip(f"the server answers a run asking for text/event-stream with {resp.headers.get('content-type')}: streamed runs are not in this server yet")
    chunks = []
    r = sb.run_code("console.log('first'); await new Promise(r => setTimeout(r, 100)); console.log('second'); 7",
                    language="javascript", on_stdout=lambda e: chunks.append(e.text))
    assert chunks == ["first\n", "second\n"] and r.value == 7


def test_context_lifecycle(sb, name):
    with sb.contexts.create(language="python", context_id=name) as ctx:
        assert isinstance(ctx, Context) and ctx.id == name and ctx.info.state == "idle"
        ctx.run_code("x = 41")
        assert ctx.run_code("x + 1").value == 42
        entry = ctx.files.write("dir/a.txt", "hello")
        assert entry.path == "dir/a.txt" and entry.size == 5
        assert ctx.files.read("dir/a.txt") == b"hello" and ctx.files.read_text("dir/a.txt") == "hello"
        assert [e.path for e in ctx.files.list("dir")] == ["dir/a.txt"]
        assert name in [c.id for c in sb.contexts.list()]

        with ctx.fork(name + "-f") as fork:
            assert fork.run_code("x").value == 41
            assert fork.files.read_text("dir/a.txt") == "hello"
            fork.run_code("x = 0")
            assert ctx.run_code("x").value == 41

        info = ctx.hibernate()
        assert info.hibernated
        assert ctx.run_code("x").value == 41
        assert ctx.refresh().restored_at_ms

        ctx.files.delete("dir/a.txt")
        with pytest.raises(WasmexecError) as e:
            ctx.files.read("dir/a.txt")
        assert e.value.code == "not_found"

        ctx.reset()
        assert ctx.run_code("'x' in globals()").value is False
        assert ctx.executions(limit=100).executions[0].context_id == name
    with pytest.raises(WasmexecError):
        sb.contexts.get(name)


def test_installs(sb, name):
    with sb.contexts.create(language="javascript", context_id=name) as ctx:
        r = ctx.npm_install(["is-number@7.0.0"])
        skip_offline(r)
        assert r.ok and r.installed[0]["name"] == "is-number" and r.installed[0]["version"] == "7.0.0"
        assert ctx.run_code("require('is-number')(5)").value is True
        bad = ctx.npm_install(["this-package-does-not-exist-wasmexec-0"])
        assert bad.outcome == "failed" and bad.error
    with sb.contexts.create(language="python", context_id=name + "-py") as ctx:
        r = ctx.pip_install(["tabulate==0.9.0"])
        skip_offline(r)
        assert r.ok and r.installed[0]["name"] == "tabulate"
        assert ctx.run_code("import tabulate\ntabulate.__version__").value == "0.9.0"


def test_process(sb):
    p = sb.processes.spawn("import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)\nprint('bye')")
    assert p.pid in [q.pid for q in sb.processes.list()]
    p.write_stdin("one\n")
    p.write_stdin(b"two\n")
    text, after = "", None
    deadline = time.monotonic() + 30
    while text != "ONE\nTWO\n" and time.monotonic() < deadline:
        page = p.output(after=after, max_bytes=4)
        text += "".join(e.text for e in page.events)
        after = page.next_cursor
        time.sleep(0.02 if not page.events else 0)
    assert text == "ONE\nTWO\n"
    assert p.wait(timeout=0.1) is None
    p.close_stdin()
    ex = p.wait(timeout=30)
    assert isinstance(ex, ProcessExit) and ex.outcome == "exited" and ex.exit_code == 0
    # The stream replays from the start and ends with the exit.
    items = list(p.stream())
    assert "".join(i.text for i in items if isinstance(i, OutputEvent)) == "ONE\nTWO\nbye\n"
    assert isinstance(items[-1], ProcessExit)


def test_process_follow_and_signal(sb):
    p = sb.processes.spawn("let i = 0; const t = setInterval(() => { console.log('tick ' + ++i); if (i === 3) { console.error('done'); clearInterval(t) } }, 20)", language="javascript")
    out, err = [], []
    ex = p.follow(on_stdout=out.append, on_stderr=err.append)
    assert [e.text for e in out] == ["tick 1\n", "tick 2\n", "tick 3\n"] and [e.text for e in err] == ["done\n"]
    assert ex.outcome == "exited"
    q = sb.processes.spawn("while True: pass")
    q.signal("SIGKILL")
    assert q.wait(timeout=30).outcome == "signalled"


class _CutStream(httpx.SyncByteStream):
    """A body that breaks after its first output event, as a network would."""

    def __init__(self, inner):
        self.inner = inner

    def __iter__(self):
        seen = b""
        for chunk in self.inner:
            seen += chunk
            i = seen.find(b"event: output")
            j = seen.find(b"\n\n", i) if i >= 0 else -1
            if j >= 0:
                yield chunk[: len(chunk) - (len(seen) - (j + 2))]
                raise httpx.ReadError("connection reset (by the test)")
            yield chunk

    def close(self):
        self.inner.close()


class _DropFirst(httpx.BaseTransport):
    def __init__(self, suffix):
        self.inner, self.suffix, self.done = httpx.HTTPTransport(), suffix, False

    def handle_request(self, request):
        resp = self.inner.handle_request(request)
        if self.done or not request.url.path.endswith(self.suffix):
            return resp
        self.done = True
        return httpx.Response(resp.status_code, headers=resp.headers, stream=_CutStream(resp.stream), extensions=resp.extensions)

    def close(self):
        self.inner.close()


def test_stream_resumes_after_a_drop(url):
    with Sandbox(url, http_client=httpx.Client(transport=_DropFirst("/output/stream"))) as sb:
        p = sb.processes.spawn("let i = 0; const t = setInterval(() => { console.log('line ' + ++i); if (i === 5) clearInterval(t) }, 30)", language="javascript")
        s = p.stream()
        lines = [i.text.strip() for i in s if isinstance(i, OutputEvent)]
        assert lines == [f"line {n}" for n in range(1, 6)]
        assert s.connections == 2 and s.last_event_id == "c5"


def test_stream_gives_up(url):
    sb = Sandbox("http://127.0.0.1:1", stream_policy=StreamPolicy(retries=2, backoff=0.01))
    with pytest.raises(WasmexecError) as e:
        list(sb.events())
    assert e.value.code == "connection_error"


def test_executions(sb):
    r = sb.run_code("print('kept')", output={"retainEvents": True})
    rec = sb.executions.get(r.execution_id, include_code=True)
    assert rec.code == "print('kept')" and rec.stdout == "kept\n"
    page = sb.executions.output(r.execution_id)
    assert [e.text for e in page.events] == ["kept\n"] and not page.has_more
    page = sb.executions.list(language="python", limit=1)
    assert len(page.executions) == 1 and page.has_more
    ids = [x.execution_id for x, _ in zip(sb.executions.iter(limit=2), range(5))]
    assert len(ids) == 5 and len(set(ids)) == 5
    sb.executions.delete(r.execution_id)
    with pytest.raises(WasmexecError) as e:
        sb.executions.get(r.execution_id)
    assert e.value.code == "not_found"


def test_typescript(sb):
    r = sb.typescript.check(files={"/a.ts": "export const n: number = 1", "/main.ts": "import { n } from './a'\nconst s: string = n"}, file_path="/main.ts")
    assert r.outcome == "succeeded" and r.has_errors and r.typescript_version
    d = r.diagnostics[0]
    assert d.code == 2322 and d.line == 2 and d.file_path == "/main.ts"
    with pytest.raises(WasmexecError) as e:
        sb.typescript.check("1", compiler_options={"baseUrl": "."})
    assert e.value.code == "invalid_argument"
    assert sb.typescript.info().default == "7"


def test_events(sb, name):
    with sb.events(context_id=name) as s:
        with sb.contexts.create(language="javascript", context_id=name) as ctx:
            ctx.run_code("1")
        seen = []
        for e in s:
            assert isinstance(e, LifecycleEvent) and e.id
            seen.append(e.type)
            if e.type == "context.deleted":
                break
    assert seen == ["context.created", "execution.started", "execution.completed", "context.deleted"]


def test_api_key():
    url, key = os.environ.get("WASMEXEC_KEYED_URL"), os.environ.get("WASMEXEC_KEYED_KEY")
    if not url:
        pytest.skip("WASMEXEC_KEYED_URL is not set: no server with keys to test against")
    with Sandbox(url, api_key=key) as sb:
        assert sb.run_code("1 + 1").value == 2
    for other in ("", "another-key-0123456789"):
        with Sandbox(url, api_key=other) as sb:
            with pytest.raises(WasmexecError) as e:
                sb.contexts.list()
            assert e.value.code == "unauthorized" and e.value.status == 401
