"""The least hook the Python SDK makes: it lets everything through.

Its first argument picks what it does besides: "modify" answers
hook.before_llm with the request and one tool more; "observe" counts the
events of every kind and answers a before_tool call of the tool
bench_events with the count.
"""

import sys
import threading
from typing import Any, Dict

from hookwire import (
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    RuntimeEvent,
    modify,
    respond,
)

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
BENCH_TOOL: Dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "bench_tool",
        "description": "A tool the benchmark's hook adds",
        "parameters": {"type": "object", "properties": {}},
    },
}

hook = Hook("minimal")
events = 0
lock = threading.Lock()


@hook.before_tool
def before_tool(call: BeforeToolParams) -> BeforeToolReply:
    if MODE == "observe" and call["tool"] == "bench_events":
        return respond(str(events))
    return None


@hook.before_llm
def before_llm(req: BeforeLLMParams) -> BeforeLLMReply:
    if MODE == "modify":
        return modify(req, tools=[*req.get("tools", []), BENCH_TOOL])
    return None


if MODE == "observe":

    @hook.observe
    def count(event: RuntimeEvent) -> None:
        global events
        with lock:  # observers may run on several threads
            events += 1


hook.run()
