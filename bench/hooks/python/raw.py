"""A hook loop written by hand, the floor of a Python hook: read a line,
parse it, answer, flush. With the argument "modify" it answers
hook.before_llm with the request and one tool more."""

import json
import sys

BENCH_TOOL = {
    "type": "function",
    "function": {
        "name": "bench_tool",
        "description": "A tool the benchmark's hook adds",
        "parameters": {"type": "object", "properties": {}},
    },
}


def main() -> None:
    modify = sys.argv[1:] == ["modify"]
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        if msg.get("id") is None:
            continue  # a notification
        method = msg["method"]
        result: dict = {"action": "continue"}
        if method == "hook.hello":
            result = {"ok": True, "name": "raw"}
        elif modify and method == "hook.before_llm":
            params = msg["params"]
            params["tools"] = [*params.get("tools", []), BENCH_TOOL]
            result = {"action": "modify", "request": params}
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode() + b"\n")
        out.flush()


main()
