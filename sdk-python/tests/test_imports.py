"""What a hook loads: a hook of plain functions starts without asyncio and friends.

Start-up is most of what a short-lived hook costs, and asyncio alone (with
concurrent.futures, inspect and dataclasses) took half of it. These tests
pin down which modules each kind of hook loads, never how long it takes.
typing is loaded: the message types are real TypedDicts at run time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hookwire import Modify, modify

HELLO = {"jsonrpc": "2.0", "id": 1, "method": "hook.hello", "params": {"name": "h", "version": 1}}
CALL = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "hook.before_tool",
    "params": {"tool": "exec", "arguments": {}},
}
EVENT = {
    "jsonrpc": "2.0",
    "method": "hook.runtime_event",
    "params": {"kind": "agent.turn.start", "source": {}, "scope": {}, "payload": None},
}
# Modules a hook of plain functions has no use for. logging too: the SDK
# loads it when it first logs (a hook that runs well never does).
# contextlib is one unless typing loads it (it does before Python 3.12).
HEAVY = [
    "asyncio",
    "concurrent.futures",
    "contextlib",
    "dataclasses",
    "hookwire._tools",
    "inspect",
    "logging",
    "queue",
]


def loaded_by_typing() -> set[str]:
    """The modules that importing typing alone loads, on this interpreter."""
    code = "import json, sys, typing; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    return set(json.loads(out.stdout))


PLAIN_HOOK = """
import sys
from hookwire import BeforeToolParams, BeforeToolReply, Hook, RuntimeEvent, deny_tool

hook = Hook("plain")
seen = []

@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    return deny_tool("no")

@hook.observe("agent.*")
def look(event: RuntimeEvent) -> None:
    seen.append(event["kind"])

@hook.on_close
def report() -> None:
    heavy = sorted(m for m in {heavy!r} if m in sys.modules)
    print("loaded", heavy, "seen", seen, file=sys.stderr)

hook.run()
"""


def run_hook(
    source: str, messages: tuple[object, ...] = (HELLO, EVENT, CALL)
) -> tuple[list[dict[str, object]], str]:
    lines = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run(
        [sys.executable, "-c", source],
        input=lines.encode(),
        capture_output=True,
        timeout=20,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    return replies, done.stderr.decode()


def test_a_hook_of_plain_functions_serves_without_asyncio_or_logging() -> None:
    heavy = [m for m in HEAVY if m not in loaded_by_typing()]
    assert "asyncio" in heavy and "logging" in heavy
    replies, stderr = run_hook(PLAIN_HOOK.replace("{heavy!r}", repr(heavy)))
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[1]["result"] == {"action": "deny_tool", "reason": "no"}
    assert "loaded [] seen ['agent.turn.start']" in stderr


def test_an_async_handler_gets_its_event_loop() -> None:
    source = PLAIN_HOOK.replace("def guard", "async def guard").replace("{heavy!r}", repr(HEAVY))
    replies, stderr = run_hook(source)
    assert replies[1]["result"] == {"action": "deny_tool", "reason": "no"}
    assert "'asyncio'" in stderr


@pytest.mark.parametrize(
    ("name", "module", "needs_asyncio"),
    [
        ("TestClient", "hookwire._testing", True),
        ("LifecycleHook", "hookwire.lifecycle", True),
        ("HookEvent", "hookwire._lifecycle_gen", True),  # generated, exported by hookwire.lifecycle
        ("ArgumentError", "hookwire._tools", False),
    ],
)
def test_the_test_client_the_lifecycle_layer_and_the_tools_load_on_first_use(
    name: str, module: str, needs_asyncio: bool
) -> None:
    code = (
        "import sys, hookwire\n"
        f"assert {module!r} not in sys.modules and 'asyncio' not in sys.modules\n"
        f"print(hookwire.{name}.__module__, 'asyncio' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, timeout=20
    ).stdout.decode()
    assert out.split() == [module, str(needs_asyncio)]
    assert name in dir(sys.modules["hookwire"])


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    import hookwire

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        hookwire.Nope  # noqa: B018 - the lookup is the test


def test_modify_is_an_immutable_value() -> None:
    a = modify({"model": "m"}, reason="why", model="n")
    assert a == Modify({"model": "n"}, "why")
    assert a != Modify({"model": "n"})
    assert repr(a) == "Modify(value={'model': 'n'}, reason='why')"
    assert hash(Modify("v", "r")) == hash(Modify("v", "r"))
    with pytest.raises(AttributeError):
        a.reason = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.value
    assert a.reason == "why"


def test_the_sdks_first_message_loads_logging_and_sends_it_to_stderr() -> None:
    source = """
import sys
from hookwire import Hook

hook = Hook("late")

@hook.before_tool
def guard(call):
    print("logging loaded before:", "logging" in sys.modules, file=sys.stderr)
    import logging

    logging.getLogger("mine").info("handled %s", call["tool"])
    return None

hook.run()
"""
    old_host = {**HELLO, "params": {"name": "h", "version": 7}}
    _, stderr = run_hook(source, (old_host, CALL))
    assert "WARNING hookwire: the host speaks protocol version 7" in stderr
    assert "logging loaded before: True" in stderr
    assert "INFO mine: handled exec" in stderr
