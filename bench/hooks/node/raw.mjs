// A hook loop written by hand, the floor of a Node.js hook: read a line,
// parse it, answer. With the argument "modify" it answers hook.before_llm
// with the request and one tool more.
const modify = process.argv[2] === "modify";
const benchTool = {
  type: "function",
  function: {
    name: "bench_tool",
    description: "A tool the benchmark's hook adds",
    parameters: { type: "object", properties: {} },
  },
};

function answer(line) {
  const msg = JSON.parse(line);
  if (msg.id === undefined || msg.id === null) return; // a notification
  let result = { action: "continue" };
  if (msg.method === "hook.hello") {
    result = { ok: true, name: "raw" };
  } else if (modify && msg.method === "hook.before_llm") {
    const params = msg.params;
    params.tools = [...(params.tools ?? []), benchTool];
    result = { action: "modify", request: params };
  }
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\n");
}

process.stdin.setEncoding("utf8");
let rest = "";
process.stdin.on("data", (chunk) => {
  let start = 0;
  let nl;
  while ((nl = chunk.indexOf("\n", start)) >= 0) {
    answer(rest + chunk.slice(start, nl));
    rest = "";
    start = nl + 1;
  }
  rest += chunk.slice(start);
});
