#!/usr/bin/env python3
"""A weather hook that adds its tool, then fails on the tool's call: what
`hookwire inspect` must show beside the failed call is its traceback."""

import json
import sys

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Query weather information for a specified city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}

for line in sys.stdin:
    msg = json.loads(line)
    method, params = msg.get("method"), msg.get("params") or {}
    if "id" not in msg:
        continue
    if method == "hook.hello":
        result = {"ok": True, "name": "broken_weather"}
    elif method == "hook.before_llm":
        result = {"action": "modify", "request": dict(params, tools=params.get("tools", []) + [TOOL])}
    elif method == "hook.before_tool":
        sys.stderr.write("Traceback (most recent call last):\n")
        sys.stderr.write('  File "broken_weather.py", line 30, in before_tool\n')
        sys.stderr.write("KeyError: 'forecast service is down'\n")
        sys.stderr.flush()
        sys.exit(1)
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
