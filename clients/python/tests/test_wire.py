"""The streamed-run protocol, against a scripted server (httpx.MockTransport):
the real server's part is tested in test_sync.py once it streams runs."""

import json

import httpx
import pytest

from wasmexec import AsyncSandbox, Sandbox, WasmexecError

RESULT = {"executionId": "exe_1", "outcome": "succeeded", "value": 7, "exitCode": 0, "stdout": "a\nb\n", "stderr": "e\n", "durationMs": 1.0}


def sse(*events):
    out = ": a streamed run\n\n"
    for i, (name, data) in enumerate(events, 1):
        out += (f"id: c{i}\n" if name == "output" else "") + f"event: {name}\ndata: {json.dumps(data)}\n\n"
    return out.encode()


def streamed(request):
    assert request.headers["accept"] == "text/event-stream"
    body = sse(
        ("output", {"sequence": 1, "channel": "stdout", "chunk": "a\n", "timestampMs": 1}),
        ("output", {"sequence": 2, "channel": "stderr", "chunk": "ZQo=", "encoding": "base64", "timestampMs": 2}),
        ("output", {"sequence": 3, "channel": "stdout", "chunk": "b\n", "timestampMs": 3}),
        ("result", RESULT),
    )
    return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body)


def test_streamed_run_calls_back_in_order():
    seen = []
    with Sandbox("http://wasmexec.test", http_client=httpx.Client(transport=httpx.MockTransport(streamed))) as sb:
        r = sb.run_code("x", on_stdout=lambda e: seen.append(("out", e.chunk)), on_stderr=lambda e: seen.append(("err", e.chunk)),
                        on_result=lambda r: seen.append(("result", r.value)))
    assert seen == [("out", "a\n"), ("err", b"e\n"), ("out", "b\n"), ("result", 7)]
    assert r.value == 7 and r.stdout == "a\nb\n"


def test_streamed_run_error_event():
    def handler(request):
        return httpx.Response(200, headers={"Content-Type": "text/event-stream"},
                              content=sse(("error", {"code": "overloaded", "message": "busy"})))

    with Sandbox("http://wasmexec.test", http_client=httpx.Client(transport=httpx.MockTransport(handler))) as sb:
        with pytest.raises(WasmexecError) as e:
            sb.run_code("x", on_stdout=print)
    assert e.value.code == "overloaded"


def test_streamed_run_cut_short():
    def handler(request):
        return httpx.Response(200, headers={"Content-Type": "text/event-stream"},
                              content=sse(("output", {"sequence": 1, "channel": "stdout", "chunk": "a", "timestampMs": 1})))

    with Sandbox("http://wasmexec.test", http_client=httpx.Client(transport=httpx.MockTransport(handler))) as sb:
        with pytest.raises(WasmexecError) as e:
            sb.run_code("x", on_stdout=print)
    assert e.value.code == "connection_error"


@pytest.mark.anyio
async def test_async_streamed_run():
    seen = []
    async with AsyncSandbox("http://wasmexec.test", http_client=httpx.AsyncClient(transport=httpx.MockTransport(streamed))) as sb:
        r = await sb.run_code("x", on_stdout=lambda e: seen.append(e.text))
    assert seen == ["a\n", "b\n"] and r.value == 7


def test_api_key_is_sent():
    def handler(request):
        assert request.headers["authorization"] == "Bearer k-123"
        return httpx.Response(401, json={"code": "unauthorized", "message": "no"}, headers={"X-Request-Id": "req_1"})

    with Sandbox("http://wasmexec.test", api_key="k-123", http_client=httpx.Client(transport=httpx.MockTransport(handler))) as sb:
        with pytest.raises(WasmexecError) as e:
            sb.contexts.list()
    assert (e.value.code, e.value.status, e.value.request_id) == ("unauthorized", 401, "req_1")
