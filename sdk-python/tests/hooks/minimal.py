"""The least hook a host meets: a guard, a prompt rewriter and a stuck handler.

before_tool denies a command holding "rm -rf", before_llm answers with the
request as a modify, and after_llm never answers. Run as ``python
minimal.py sync`` or ``python minimal.py async``: plain functions (the
threads server) or coroutines (the event-loop server).
"""

from __future__ import annotations

import asyncio
import sys
import threading

from hookwire import (
    AfterLLMParams,
    AfterLLMReply,
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    deny_tool,
    modify,
)

hook = Hook("minimal")


def guard(call: BeforeToolParams) -> BeforeToolReply:
    if "rm -rf" in str((call.get("arguments") or {}).get("command")):
        return deny_tool("dangerous command")
    return None


def rewrite(req: BeforeLLMParams) -> BeforeLLMReply:
    return modify(req)


def stuck(resp: AfterLLMParams) -> AfterLLMReply:
    print("stuck", file=sys.stderr, flush=True)
    threading.Event().wait()
    return None


async def stuck_async(resp: AfterLLMParams) -> AfterLLMReply:
    print("stuck", file=sys.stderr, flush=True)
    await asyncio.Future()
    return None


async def guard_async(call: BeforeToolParams) -> BeforeToolReply:
    return guard(call)


if sys.argv[1:] == ["async"]:
    hook.before_tool(guard_async)
    hook.after_llm(stuck_async)
else:
    hook.before_tool(guard)
    hook.after_llm(stuck)
hook.before_llm(rewrite)

if __name__ == "__main__":
    hook.run()
