#!/usr/bin/env python3
"""A guard that says where it runs: it denies every tool with its folder
and the variable HOOK_MODE, which the inspector's composer chose."""

import json
import os
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "hook.hello":
        result = {"ok": True, "name": "where"}
    else:
        here = os.path.basename(os.getcwd())
        result = {"action": "deny_tool", "reason": f"in {here} with HOOK_MODE={os.environ.get('HOOK_MODE', '(unset)')}"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
