// Drives wasmexec's /mcp with the official TypeScript MCP client
// (@modelcontextprotocol/sdk); prints one JSON line of what it saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);
const client = new Client({ name: "wasmexec-node-test", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
const tools = await client.listTools();
const run = await client.callTool({
  name: "run_code",
  arguments: { language: "javascript", code: "console.log('from node'); inputs.n * 6", inputs: { n: 7 } },
});
const ctx = await client.callTool({ name: "create_context", arguments: { language: "typescript" } });
const bad = await client.callTool({ name: "run_code", arguments: { language: "cobol", code: "1" } });
await client.close();
console.log(JSON.stringify({
  tools: tools.tools.map((t) => t.name).sort(),
  run: run.structuredContent,
  runText: run.content.map((c) => c.text).join(""),
  context: ctx.structuredContent,
  badIsError: bad.isError === true,
  badText: bad.content.map((c) => c.text).join(""),
}));
