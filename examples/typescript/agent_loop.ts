// An agent loop over wasmexec: the model asks for code, the sandbox runs
// it, the result goes back to the model, until it answers.
//
// The model here is scripted (ScriptedModel) so the example runs against a
// local server without an API key; it reads the tool results it gets back,
// so the loop is real: its first attempt fails, it sees the error and
// corrects itself, and its answer quotes the values the sandbox computed.
// To use a real model, give your provider TOOLS and replace
// ScriptedModel.complete with its chat call: the rest stays as it is.
//
//   npm install && npm run build && WASMEXEC_URL=http://127.0.0.1:8080 node dist/agent_loop.js

import { Sandbox, type Context, type Result } from "wasmexec";

// The tool as a model sees it (the JSON Schema most providers take).
export const TOOLS = [
  {
    name: "run_code",
    description:
      "Run JavaScript in a persistent sandbox: top-level declarations and files stay between calls. " +
      "The value of the last expression comes back, with stdout, stderr and any error.",
    input_schema: {
      type: "object",
      properties: { code: { type: "string", description: "JavaScript source" } },
      required: ["code"],
    },
  },
];

const TASK = "Daily temperatures this week were 18.5, 21, 23.5, 19, 25.5, 22 and 21 °C. What was the mean, and which day was the hottest?";

interface ToolCall {
  id: string;
  name: string;
  arguments: { code: string };
}

type Message =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

const call = (id: string, code: string): Message => ({ role: "assistant", content: "", toolCalls: [{ id, name: "run_code", arguments: { code } }] });

/** Stands in for an LLM: the same turns every time, built from what the tools answered. */
class ScriptedModel {
  async complete(messages: Message[], _tools: typeof TOOLS): Promise<Message> {
    const results = messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
    switch (results.length) {
      case 0: // a first try with a mistake: arrays have no .mean()
        return call("call_1", "const temps = [18.5, 21, 23.5, 19, 25.5, 22, 21];\ntemps.mean()");
      case 1:
        if (results[0].outcome !== "failed") throw new Error("expected the first try to fail");
        return call("call_2", "console.log('n =', temps.length);\nMath.round((temps.reduce((a, b) => a + b, 0) / temps.length) * 100) / 100");
      case 2:
        return call("call_3", "temps.indexOf(Math.max(...temps)) + 1");
      default:
        return { role: "assistant", content: `The mean temperature was ${results[1].value} °C; day ${results[2].value} was the hottest.` };
    }
  }
}

/** What goes back to the model: small, JSON, errors included. */
function toolResult(res: Result): string {
  const out: Record<string, unknown> = { outcome: res.outcome };
  if (res.value !== undefined) out.value = res.value;
  if (res.stdout) out.stdout = typeof res.stdout === "string" ? res.stdout : `<${res.stdout.length} bytes>`;
  if (res.stderr) out.stderr = typeof res.stderr === "string" ? res.stderr : `<${res.stderr.length} bytes>`;
  if (res.error) out.error = `${res.error.name ?? res.error.code}: ${res.error.message}`;
  return JSON.stringify(out);
}

export async function runAgent(ctx: Context, model: ScriptedModel, task: string, maxTurns = 10): Promise<string> {
  const messages: Message[] = [{ role: "user", content: task }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await model.complete(messages, TOOLS);
    messages.push(reply);
    if (reply.role !== "assistant" || !reply.toolCalls?.length) return reply.content;
    for (const tc of reply.toolCalls) {
      console.log(`--> run_code:\n${tc.arguments.code}`);
      const res = await ctx.runCode(tc.arguments.code, { onStdout: (e) => console.log(`    stdout: ${e.text.trimEnd()}`) });
      const content = toolResult(res);
      console.log(`<-- ${content}`);
      messages.push({ role: "tool", toolCallId: tc.id, content });
    }
  }
  throw new Error("the model did not answer within maxTurns");
}

const sb = new Sandbox();
const ctx = await sb.contexts.create({ language: "javascript" });
try {
  console.log(`answer: ${await runAgent(ctx, new ScriptedModel(), TASK)}`);
} finally {
  await ctx.delete();
}
