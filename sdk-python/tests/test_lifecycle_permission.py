"""The lifecycle layer in-process, PermissionRequest and can_use_tool: what the
callbacks see of an approval, and what their outcomes and can_use_tool's
verdicts become on the wire."""

from __future__ import annotations

import pytest

from hookwire import (
    CanUseToolOptions,
    HookInput,
    HookOutput,
    PermissionRequestInput,
    PermissionResult,
    ToolInput,
)
from test_lifecycle import CONTINUE, approval, setup


def test_permission_request_continue_approves_and_gets_the_hosts_tool_kind_and_paths() -> None:
    inputs: list[HookInput] = []

    def keep(input: HookInput) -> HookOutput:
        inputs.append(input)
        return CONTINUE

    t = setup({"PermissionRequest": [keep]})
    req = approval(
        "read_file", arguments={"path": "a.txt"}, tool_kind="readonly", affected_paths=["/w/a.txt"]
    )
    assert t.approve_tool(req) == {"approved": True}
    assert t.approve_tool(approval("mystery")) == {"approved": True}
    assert inputs == [
        PermissionRequestInput("s1", "read_file", {"path": "a.txt"}, "readonly", ["/w/a.txt"]),
        PermissionRequestInput("s1", "mystery", {"command": "ls"}, None, []),
    ]


def test_permission_skip_and_abort_deny_with_the_reason_and_can_use_tool_is_not_asked() -> None:
    asked: list[str] = []

    def gate(input: HookInput) -> HookOutput:
        assert isinstance(input, PermissionRequestInput)
        tool = input.tool_name
        if tool == "shell":
            return {"action": "skip", "reason": "no shell"}
        if tool == "write_file":
            return {"action": "abort", "reason": "stop"}
        return {"action": "abort"}

    def can_use_tool(
        tool: str, arguments: ToolInput, options: CanUseToolOptions
    ) -> PermissionResult:
        asked.append(tool)
        return {"behavior": "allow"}

    t = setup({"PermissionRequest": [gate]}, can_use_tool)
    assert t.approve_tool(approval("shell")) == {"approved": False, "reason": "no shell"}
    assert t.approve_tool(approval("write_file")) == {"approved": False, "reason": "stop"}
    assert t.approve_tool(approval("rm")) == {
        "approved": False,
        "reason": "rm refused by a PermissionRequest callback",
    }
    assert asked == []


def test_can_use_tool_decides_what_permission_request_lets_through_allow_deny_ask() -> None:
    asked: list[tuple[str, ToolInput, CanUseToolOptions]] = []

    async def can_use_tool(
        tool: str, arguments: ToolInput, options: CanUseToolOptions
    ) -> PermissionResult:
        asked.append((tool, arguments, options))
        if options.tool_kind == "readonly":
            return {"behavior": "allow"}
        if tool == "shell":
            return {"behavior": "deny", "message": "user refused", "interrupt": True}
        return {"behavior": "ask"}

    t = setup({"PermissionRequest": [lambda input: CONTINUE]}, can_use_tool)
    read = approval("read_file", tool_kind="readonly", affected_paths=["/w/a"])
    assert t.approve_tool(read) == {"approved": True}
    assert t.approve_tool(approval("shell", tool_kind="execute")) == {
        "approved": False,
        "reason": "user refused",
    }
    assert t.approve_tool(approval("write_file")) == {"approved": False, "abstain": True}
    assert asked == [
        ("read_file", {"command": "ls"}, CanUseToolOptions("readonly", ["/w/a"])),
        ("shell", {"command": "ls"}, CanUseToolOptions("execute", [])),
        ("write_file", {"command": "ls"}, CanUseToolOptions(None, [])),
    ]


def test_updated_input_is_sent_only_to_a_host_that_can_apply_it() -> None:
    def can_use_tool(
        tool: str, arguments: ToolInput, options: CanUseToolOptions
    ) -> PermissionResult:
        return {"behavior": "allow", "updated_input": {**arguments, "dry_run": True}}

    plain = setup({}, can_use_tool)
    plain.hello(extensions=["approve_tool.abstain"])
    assert plain.approve_tool(approval("shell")) == {
        "approved": False,
        "reason": "canUseTool allowed shell with updated input, which this host cannot apply "
        "(it does not announce approve_tool.arguments)",
    }
    able = setup({}, can_use_tool)
    able.hello(extensions=["approve_tool.abstain", "approve_tool.arguments"])
    assert able.approve_tool(approval("shell")) == {
        "approved": True,
        "arguments": {"command": "ls", "dry_run": True},
    }


def test_a_can_use_tool_that_raises_or_answers_nonsense_approves_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def crashes(tool: str, arguments: ToolInput, options: CanUseToolOptions) -> PermissionResult:
        raise RuntimeError("dialog crashed")

    t = setup({}, crashes)
    assert t.approve_tool(approval("shell")) == {"approved": False, "abstain": True}
    for nonsense in ({"behavior": "continue"}, None, {"behavior": "allow", "updated_input": "x"}):
        t = setup({}, lambda tool, arguments, options, v=nonsense: v)  # type: ignore[misc]
        assert t.approve_tool(approval("shell")) == {"approved": False, "abstain": True}
    assert [r.getMessage() for r in caplog.records] == [
        "can_use_tool failed, taken as ask: RuntimeError: dialog crashed",
        "can_use_tool answered {'behavior': 'continue'}, not allow, deny or ask: taken as ask",
        "can_use_tool answered None, not allow, deny or ask: taken as ask",
        "can_use_tool answered allow with updated_input is a str, "
        "not the tool's arguments (a dict): taken as ask",
    ]


def test_a_permission_request_callback_that_raises_is_taken_as_continue(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def boom(input: HookInput) -> HookOutput:
        raise RuntimeError("boom")

    t = setup({"PermissionRequest": [boom]})
    assert t.approve_tool(approval("shell")) == {"approved": True}
    assert len(caplog.records) == 1
