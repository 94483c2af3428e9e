// The least hook the TypeScript SDK makes, as the compiled JavaScript of a
// TypeScript hook: it lets everything through. Its first argument picks
// what it does besides: "modify" answers hook.before_llm with the request
// and one tool more; "observe" counts the events of every kind and answers
// a before_tool call of the tool bench_events with the count.
import { Hook, modify, continue_, respond } from "../../../sdk-node/dist/src/index.js";

const mode = process.argv[2] ?? "";
const benchTool = {
  type: "function",
  function: {
    name: "bench_tool",
    description: "A tool the benchmark's hook adds",
    parameters: { type: "object", properties: {} },
  },
};

let events = 0;
const hook = new Hook("minimal")
  .beforeTool((call) => (mode === "observe" && call.tool === "bench_events" ? respond(String(events)) : continue_()))
  .beforeLLM((req) => (mode === "modify" ? modify(req, { tools: [...(req.tools ?? []), benchTool] }) : continue_()));
if (mode === "observe") hook.on("*", () => void events++);
hook.run();
