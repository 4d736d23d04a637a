# Drives wasmexec's /mcp with the official Python MCP SDK (mcp on PyPI)
# through every tool, as testdata/client.mjs does with the TypeScript SDK;
# prints one JSON line of what it saw. Arguments: the /mcp URL and the key.
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

URL, KEY = sys.argv[1], sys.argv[2]


def text_of(r):
    return "".join(getattr(c, "text", "") for c in r.content)


async def main():
    out = {}
    http = create_mcp_http_client(headers={"Authorization": "Bearer " + KEY})
    async with http, streamable_http_client(URL, http_client=http) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            async def call(name, args, progress=None):
                r = await session.call_tool(name, args, progress_callback=progress)
                return {"isError": bool(r.is_error), "text": text_of(r), "data": r.structured_content}

            tools = (await session.list_tools()).tools
            out["tools"] = []
            for t in tools:
                wire = t.model_dump(by_alias=True, mode="json", exclude_none=True)
                out["tools"].append({
                    "name": t.name,
                    "annotations": wire.get("annotations"),
                    "schemas": json.dumps([wire.get("inputSchema"), wire.get("outputSchema")]),
                })
            out["run"] = await call("run_code", {"language": "javascript", "code": "console.log('from node'); inputs.n * 6", "inputs": {"n": 7}})
            out["binary"] = await call("run_code", {"language": "python", "mode": "execute", "code": "import sys\nsys.stdout.buffer.write(bytes([0xff, 0x00, 0x41]))"})
            out["limits"] = await call("run_code", {"language": "javascript", "code": "for(;;){}", "limits": {"fuel": 10000000}})
            out["bad"] = await call("run_code", {"language": "cobol", "code": "1"})

            run_notes = []

            async def on_run(progress, total, message):
                run_notes.append(message)

            out["streamed"] = await call("run_code", {"language": "javascript", "mode": "execute", "code": "console.log('one'); setTimeout(() => console.log('two'), 300)"}, on_run)
            out["runNotes"] = run_notes

            out["context"] = await call("create_context", {"language": "typescript", "contextId": "ts1"})
            await call("run_code", {"language": "typescript", "contextId": "ts1", "code": "globalThis.kept = 41"})
            out["fork"] = await call("fork_context", {"contextId": "ts1", "newContextId": "ts2"})
            out["forked"] = await call("run_code", {"language": "typescript", "contextId": "ts2", "code": "kept + 1"})
            out["timeout"] = await call("run_code", {"language": "typescript", "contextId": "ts1", "code": "for(;;){}", "timeoutMs": 200})
            out["afterReset"] = await call("run_code", {"language": "typescript", "contextId": "ts1", "code": "typeof kept"})
            out["write"] = await call("write_file", {"contextId": "ts1", "path": "dir/a.txt", "content": "hello"})
            out["read"] = await call("read_file", {"contextId": "ts1", "path": "dir/a.txt"})
            out["list"] = await call("list_files", {"contextId": "ts1", "dir": "dir"})
            out["deleteFile"] = await call("delete_file", {"contextId": "ts1", "path": "dir"})
            out["reset"] = await call("reset_context", {"contextId": "ts1"})
            out["contexts"] = await call("list_contexts", {})
            out["check"] = await call("typescript_check", {"code": "const n: number = 'bad'"})

            install_notes = []

            async def on_install(progress, total, message):
                install_notes.append(message)

            out["install"] = await call("npm_install", {"contextId": "ts2", "packages": ["left-pad@1.3.0"]}, on_install)
            out["installNotes"] = install_notes

            out["spawn"] = await call("spawn_process", {"language": "javascript", "code": "let l; while ((l = stdin.readLine()) !== null) console.log('echo ' + l)"})
            pid = out["spawn"]["data"]["pid"]
            out["stdin"] = await call("write_stdin", {"pid": pid, "data": "hi\n", "close": True})
            out["wait"] = await call("wait_process", {"pid": pid, "timeoutMs": 20000})
            out["output"] = await call("read_process_output", {"pid": pid})
            sleeper = await call("spawn_process", {"language": "javascript", "code": "stdin.read()"})
            out["signal"] = await call("signal_process", {"pid": sleeper["data"]["pid"], "signal": "SIGKILL"})
            out["signalled"] = await call("wait_process", {"pid": sleeper["data"]["pid"]})
            out["processes"] = await call("list_processes", {})

            out["executions"] = await call("list_executions", {"kind": "evaluate", "limit": 2})
            out["execution"] = await call("get_execution", {"executionId": out["run"]["data"]["executionId"]})
            out["deleteContext"] = await call("delete_context", {"contextId": "ts2"})

    # Without the key: a 401 that says there is no OAuth to do.
    try:
        async with streamable_http_client(URL) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
        out["anonymous"] = "connected"
    except BaseException as e:  # an ExceptionGroup from the task group
        out["anonymous"] = describe(e)
    print(json.dumps(out))


def describe(e):
    parts = [repr(e)]
    for sub in getattr(e, "exceptions", []) or []:
        parts.append(describe(sub))
    resp = getattr(e, "response", None)
    if resp is not None:
        try:
            parts.append(resp.text)
        except Exception:
            pass
    return " | ".join(parts)


asyncio.run(main())
