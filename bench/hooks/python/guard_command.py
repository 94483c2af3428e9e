"""The same guard as a plain Claude Code command hook: one process per event."""

import json
import sys

event = json.load(sys.stdin)
if "rm -rf" in str(event.get("tool_input", {}).get("command", "")):
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf is not allowed",
    }}, separators=(",", ":")))
