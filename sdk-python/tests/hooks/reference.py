"""The Python SDK's reference hook for the exchange vectors.

Each handler decides by the name it is given, as
schema/testdata/exchanges/README.md says.
"""

from __future__ import annotations

import time
from typing import Any

from hookwire import (
    AfterLLMParams,
    AfterLLMReply,
    AfterToolParams,
    AfterToolReply,
    ApproveToolParams,
    ApproveToolReply,
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    HookError,
    RuntimeEvent,
    abort_turn,
    abstain,
    continue_,
    deny_tool,
    hard_abort,
    modify,
    respond,
)

REASON = "reference"
hook = Hook("reference")


def common(name: str) -> Any:
    """The answers every interceptor shares: None means continue."""
    if name == "abort_turn":
        return abort_turn(REASON)
    if name == "hard_abort":
        return hard_abort(REASON)
    if name == "error":
        raise RuntimeError("the reference hook failed, as asked")
    if name == "remarks":
        return continue_(context="check twice", message="seen")
    if name == "hook_error":
        raise HookError(-32010, "quota", {"retry_after": 5})
    return None


@hook.before_llm
def before_llm(req: BeforeLLMParams) -> BeforeLLMReply:
    if req["model"] == "modify":
        return modify(
            req, messages=[*req.get("messages", []), {"role": "system", "content": REASON}]
        )
    result: BeforeLLMReply = common(req["model"])
    return result


@hook.after_llm
def after_llm(resp: AfterLLMParams) -> AfterLLMReply:
    if resp["model"] == "modify":
        return modify(resp, response={**resp.get("response", {}), "content": REASON})
    result: AfterLLMReply = common(resp["model"])
    return result


@hook.before_tool
def before_tool(call: BeforeToolParams) -> BeforeToolReply:
    tool = call["tool"]
    if tool == "modify":
        return modify(call, arguments={"text": REASON})
    if tool == "respond":
        return respond(f"{REASON}: {call.get('arguments', {}).get('text')}")
    if tool == "deny_tool":
        return deny_tool(REASON)
    if tool == "slow":
        time.sleep(0.2)
    result: BeforeToolReply = common(tool)
    return result


@hook.after_tool
def after_tool(res: AfterToolParams) -> AfterToolReply:
    if res["tool"] == "modify":
        return modify(res, result={**res.get("result", {}), "for_llm": REASON})
    if res["tool"] == "redact" and "result" in res:
        masked = res["result"]["for_llm"].replace("secret", "***")
        return modify(res, result={**res["result"], "for_llm": masked})
    result: AfterToolReply = common(res["tool"])
    return result


@hook.approve_tool
def approve_tool(req: ApproveToolParams) -> ApproveToolReply:
    if req["tool"] in ("approve", "modify"):
        return True
    if req["tool"] == "echo":
        return {"approved": True, "arguments": req.get("arguments", {})}
    if req["tool"] == "abstain":
        return abstain()
    if req["tool"] == "error":
        raise RuntimeError("the reference hook failed, as asked")
    return {"approved": False, "reason": REASON}


@hook.observe("*")
def observe(event: RuntimeEvent) -> None:
    pass


if __name__ == "__main__":
    hook.run()
