"""A hook for the wire-level tests: each before_tool tool name is a behaviour.

Run as ``python wire.py sync`` or ``python wire.py async``: the before_tool
handler is a plain function (run on worker threads) or a coroutine (run on
the event loop), with the same behaviours.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time

from hookwire import (
    ApproveToolParams,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    HookError,
    RuntimeEvent,
    deny_tool,
    modify,
)

hook = Hook("wire-test")
log = logging.getLogger("wire-test")


def behave(call: BeforeToolParams) -> BeforeToolReply:
    """The behaviours that are the same in both flavours."""
    tool, args = call["tool"], call["arguments"]
    if tool == "noise":
        print("noise from print")
        os.write(1, b"noise from fd 1\n")
        subprocess.run(["sh", "-c", "echo noise from a child"], check=True)
        log.info("noise from logging")
        return None
    if tool == "read_stdin":
        child = subprocess.run(["cat"], capture_output=True, check=True)
        return deny_tool(f"a child read {len(child.stdout)} bytes of stdin")
    if tool == "fail":
        raise RuntimeError("the handler broke")
    if tool == "key_error":
        return deny_tool(str(args["path"]))  # the call names no path
    if tool == "hook_error":
        raise HookError(int(str(args["code"])), str(args["message"]), args.get("data"))
    if tool == "hook_error_set":
        raise HookError(-32010, "a set", {1, 2})  # data JSON cannot write
    if tool == "echo":
        return deny_tool(str(args.get("text")))
    if tool == "itself":
        looped: dict[str, object] = {}
        looped["itself"] = looped
        return modify(call, arguments=looped)
    return None


gates: dict[int, threading.Event] = {}


def sync_before_tool(call: BeforeToolParams) -> BeforeToolReply:
    tool, args = call["tool"], call["arguments"]
    if tool in ("wait", "release"):
        # A call to wait blocks until a later call releases it.
        gate = gates.setdefault(int(str(args["n"])), threading.Event())
        if tool == "release":
            gate.set()
            return deny_tool("released")
        gate.wait()
        return deny_tool(str(args["n"]))
    if tool == "sleep":
        time.sleep(float(str(args["seconds"])))
        return deny_tool("slept")
    if tool == "block":
        threading.Event().wait()
    if tool == "fail_later":
        time.sleep(0.01)
        raise RuntimeError("the handler broke later")
    if tool == "hook_error_later":
        time.sleep(0.01)
        raise HookError(-32011, "later", ["waited"])
    return behave(call)


# Made on first use, not at import: before 3.10 an asyncio.Event binds to
# the loop that exists when it is made.
events: dict[int, asyncio.Event] = {}


async def async_before_tool(call: BeforeToolParams) -> BeforeToolReply:
    tool, args = call["tool"], call["arguments"]
    if tool in ("wait", "release"):
        gate = events.setdefault(int(str(args["n"])), asyncio.Event())
        if tool == "release":
            gate.set()
            return deny_tool("released")
        await gate.wait()
        return deny_tool(str(args["n"]))
    if tool == "sleep":
        await asyncio.sleep(float(str(args["seconds"])))
        return deny_tool("slept")
    if tool == "block":
        await asyncio.Future()
    if tool == "fail_later":
        await asyncio.sleep(0.01)
        raise RuntimeError("the handler broke later")
    if tool == "hook_error_later":
        await asyncio.sleep(0.01)
        raise HookError(-32011, "later", ["waited"])
    return behave(call)


if sys.argv[1:] == ["sync"]:
    hook.before_tool(sync_before_tool)
else:
    hook.before_tool(async_before_tool)


@hook.approve_tool
def approve(call: ApproveToolParams) -> bool:
    return call["tool"] != "exec"


@hook.observe("agent.tool.*")
def seen(event: RuntimeEvent) -> None:
    print(f"observed {event['kind']}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    hook.run()
    print("run() returned", file=sys.stderr, flush=True)
