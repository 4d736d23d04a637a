"""The async client against a real server."""

import asyncio

import httpx
import pytest

from wasmexec import AsyncSandbox, OutputEvent, ProcessExit, WasmexecError

pytestmark = pytest.mark.anyio


async def test_run_code(asb):
    r = await asb.run_code("6 * 7", language="javascript")
    assert r.value == 42
    with pytest.raises(WasmexecError) as e:
        await asb.run_code("1", language="cobol")
    assert e.value.code == "invalid_argument"


async def test_callbacks_may_be_coroutines(asb):
    out = []

    async def on_stdout(e):
        await asyncio.sleep(0)
        out.append(e.text)

    r = await asb.run_code("print('a')\nprint('b')", mode="execute", on_stdout=on_stdout)
    assert "".join(out) == r.stdout == "a\nb\n"


async def test_context(asb, name):
    async with await asb.contexts.create(language="python", context_id=name) as ctx:
        await ctx.run_code("x = 1")
        await ctx.files.write("f.txt", b"data")
        fork = await ctx.fork()
        assert (await fork.run_code("x + 1")).value == 2
        assert await fork.files.read("f.txt") == b"data"
        await fork.delete()
        assert (await ctx.hibernate()).hibernated
        assert (await ctx.run_code("x")).value == 1
        await ctx.files.delete("f.txt")
        assert "f.txt" not in [e.path for e in await ctx.files.list()]


async def test_process_stream(asb):
    p = await asb.processes.spawn("import sys\nfor line in sys.stdin:\n    print(line.strip()[::-1], flush=True)")
    await p.write_stdin("abc\n")
    await p.close_stdin()
    got = []
    async with p.stream() as s:
        async for item in s:
            got.append(item)
    assert [i.text for i in got if isinstance(i, OutputEvent)] == ["cba\n"]
    assert isinstance(got[-1], ProcessExit) and got[-1].exit_code == 0
    assert (await p.output()).events[0].text == "cba\n"


class _CutStream(httpx.AsyncByteStream):
    def __init__(self, inner):
        self.inner = inner

    async def __aiter__(self):
        seen = b""
        async for chunk in self.inner:
            seen += chunk
            i = seen.find(b"event: output")
            j = seen.find(b"\n\n", i) if i >= 0 else -1
            if j >= 0:
                yield chunk[: len(chunk) - (len(seen) - (j + 2))]
                raise httpx.ReadError("connection reset (by the test)")
            yield chunk

    async def aclose(self):
        await self.inner.aclose()


class _DropFirst(httpx.AsyncBaseTransport):
    def __init__(self, suffix):
        self.inner, self.suffix, self.done = httpx.AsyncHTTPTransport(), suffix, False

    async def handle_async_request(self, request):
        resp = await self.inner.handle_async_request(request)
        if self.done or not request.url.path.endswith(self.suffix):
            return resp
        self.done = True
        return httpx.Response(resp.status_code, headers=resp.headers, stream=_CutStream(resp.stream), extensions=resp.extensions)

    async def aclose(self):
        await self.inner.aclose()


async def test_stream_resumes_after_a_drop(url):
    async with AsyncSandbox(url, http_client=httpx.AsyncClient(transport=_DropFirst("/output/stream"))) as sb:
        p = await sb.processes.spawn("let i = 0; const t = setInterval(() => { console.log('line ' + ++i); if (i === 4) clearInterval(t) }, 30)", language="javascript")
        out = []
        ex = await p.follow(on_stdout=lambda e: out.append(e.text.strip()))
        assert out == ["line 1", "line 2", "line 3", "line 4"] and ex.outcome == "exited"


async def test_executions_and_typescript(asb):
    r = await asb.run_code("1 + 1")
    assert (await asb.executions.get(r.execution_id)).value == 2
    n = 0
    async for _ in asb.executions.iter(limit=1):
        n += 1
        if n == 3:
            break
    assert n == 3
    c = await asb.typescript.check("const x: number = 'a'")
    assert c.has_errors and c.diagnostics[0].code == 2322


async def test_events(asb, name):
    async with asb.events(context_id=name) as s:
        ctx = await asb.contexts.create(language="python", context_id=name)
        await ctx.delete()
        seen = []
        async for e in s:
            seen.append(e.type)
            if e.type == "context.deleted":
                break
    assert seen == ["context.created", "context.deleted"]
