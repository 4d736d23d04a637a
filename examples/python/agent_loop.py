"""An agent loop over wasmexec: the model asks for code, the sandbox runs
it, the result goes back to the model, until it answers.

The model here is scripted (ScriptedModel) so the example runs against a
local server without an API key; it reads the tool results it gets back,
so the loop is real: its first attempt fails, it sees the error and
corrects itself, and its answer quotes the values the sandbox computed.
To use a real model, give your provider TOOLS and replace
ScriptedModel.complete with its chat call: the rest stays as it is.

    WASMEXEC_URL=http://127.0.0.1:8080 python agent_loop.py
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List

from wasmexec import Context, Result, Sandbox

# The tool as a model sees it (the JSON Schema most providers take).
TOOLS = [
    {
        "name": "run_code",
        "description": "Run Python in a persistent sandbox: variables and files stay between calls. "
        "The value of the last expression comes back, with stdout, stderr and any error.",
        "input_schema": {
            "type": "object",
            "properties": {"code": {"type": "string", "description": "Python source"}},
            "required": ["code"],
        },
    }
]

TASK = "Daily temperatures this week were 18.5, 21, 23.5, 19, 25.5, 22 and 21 °C. What was the mean, and which day was the hottest?"


class ScriptedModel:
    """Stands in for an LLM: the same turns every time, built from what the
    tools answered."""

    def complete(self, messages: List[Dict[str, Any]], tools: List[Dict[str, Any]]) -> Dict[str, Any]:
        results = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        turn = len(results)
        if turn == 0:  # a first try with a mistake: lists have no .mean()
            return call("temps = [18.5, 21, 23.5, 19, 25.5, 22, 21]\ntemps.mean()")
        if turn == 1:
            assert results[0]["outcome"] == "failed", results[0]
            return call("import statistics\nprint('n =', len(temps))\nround(statistics.mean(temps), 2)")
        if turn == 2:
            return call("temps.index(max(temps)) + 1")
        mean, day = results[1]["value"], results[2]["value"]
        return {"role": "assistant", "content": f"The mean temperature was {mean} °C; day {day} was the hottest."}


def call(code: str) -> Dict[str, Any]:
    return {"role": "assistant", "content": "", "tool_calls": [{"id": f"call_{abs(hash(code)) % 10**8}", "name": "run_code", "arguments": {"code": code}}]}


def tool_result(res: Result) -> str:
    """What goes back to the model: small, JSON, errors included."""
    out: Dict[str, Any] = {"outcome": res.outcome}
    if res.value is not None:
        out["value"] = res.value
    for name in ("stdout", "stderr"):
        text = getattr(res, name)
        if text:
            out[name] = text if isinstance(text, str) else repr(text)
    if res.error:
        out["error"] = f"{res.error.name or res.error.code}: {res.error.message}"
    return json.dumps(out)


def run_agent(ctx: Context, model: ScriptedModel, task: str, max_turns: int = 10) -> str:
    messages: List[Dict[str, Any]] = [{"role": "user", "content": task}]
    for _ in range(max_turns):
        reply = model.complete(messages, TOOLS)
        messages.append(reply)
        if not reply.get("tool_calls"):
            return reply["content"]
        for tc in reply["tool_calls"]:
            code = tc["arguments"]["code"]
            print(f"--> run_code:\n{code}")
            res = ctx.run_code(code, on_stdout=lambda e: print("    stdout:", e.text, end=""))
            content = tool_result(res)
            print(f"<-- {content}")
            messages.append({"role": "tool", "tool_call_id": tc["id"], "content": content})
    raise RuntimeError("the model did not answer within max_turns")


def main() -> int:
    with Sandbox() as sb, sb.contexts.create(language="python") as ctx:
        answer = run_agent(ctx, ScriptedModel(), TASK)
    print(f"answer: {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
