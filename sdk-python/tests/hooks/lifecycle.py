"""A lifecycle hook for the tests under the reference runtime: every
callback appends what it saw to the JSON Lines file LIFECYCLE_RECORD names,
and some change what the tool and the LLM get. Plain and async callbacks
mixed, as a ported hook may have them."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from typing import Any, Callable

from hookwire import (
    CanUseToolOptions,
    HookInput,
    HookOutput,
    LifecycleHook,
    PermissionResult,
    PostToolUseFailureInput,
    PostToolUseInput,
    PreToolUseInput,
    ToolInput,
    UserPromptSubmitInput,
)

FILE = os.environ.get("LIFECYCLE_RECORD", "lifecycle.jsonl")
CONTINUE: HookOutput = {"action": "continue"}
lock = threading.Lock()  # plain callbacks run on worker threads


def record(as_: str) -> Callable[[HookInput], HookOutput]:
    """A callback that records its input, with the error as its message, and continues."""

    def callback(input: HookInput) -> HookOutput:
        line: dict[str, Any] = {"as": as_, **dataclasses.asdict(input)}
        if isinstance(input, PostToolUseFailureInput):
            line["error"] = input.error.message
        with lock, open(FILE, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        return CONTINUE

    return callback


def checked(input: UserPromptSubmitInput) -> HookOutput:
    return {"action": "continue", "modified_input": f"{input.message} (checked)"}


async def louder(input: PreToolUseInput) -> HookOutput:
    if input.tool_name == "echo_text":
        return {
            "action": "continue",
            "modified_input": {"text": str(input.tool_input["text"]).upper()},
        }
    return CONTINUE


def monitor(input: PreToolUseInput) -> HookOutput:
    if input.tool_name == "echo_text":
        raise ConnectionError("monitoring is down")
    return CONTINUE


def dangerous(input: PreToolUseInput) -> HookOutput:
    command = str(input.tool_input.get("command", ""))
    if "rm -rf" in command:
        return {"action": "skip", "reason": f"dangerous command: {command}"}
    if "mkfs" in command:
        return {"action": "abort", "reason": f"dangerous command, turn ended: {command}"}
    return CONTINUE


async def echoed(input: PostToolUseInput) -> HookOutput:
    if input.tool_name == "echo_text":
        return {"action": "continue", "modified_output": f"echoed: {input.tool_output['for_llm']}"}
    return CONTINUE


def carry_on(input: PostToolUseFailureInput) -> HookOutput:
    return {"action": "continue", "modified_output": "no such file; carry on without it"}


def can_use_tool(tool: str, arguments: ToolInput, options: CanUseToolOptions) -> PermissionResult:
    if options.tool_kind == "execute":
        command = f"{arguments['command']} --dry-run"
        return {"behavior": "allow", "updated_input": {**arguments, "command": command}}
    return {"behavior": "allow"}


hook = LifecycleHook(
    "lifecycle-hook",
    hooks={
        "SessionStart": [record("start")],
        "UserPromptSubmit": [checked, record("prompt")],
        "PreToolUse": [record("pre 1"), louder, monitor, dangerous, record("pre 2")],
        "PermissionRequest": [record("permission")],
        "PostToolUse": [echoed, record("post")],
        "PostToolUseFailure": [record("failure"), carry_on],
        "TaskCompleted": [record("completed")],
        "SessionEnd": [record("end")],
    },
    can_use_tool=can_use_tool,
)

if __name__ == "__main__":
    hook.run()
