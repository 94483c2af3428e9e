"""A hook that uses every kind of decision, for the run under the reference runtime."""

import sys

from hookwire import (
    AfterToolParams,
    AfterToolReply,
    ApproveToolParams,
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    RuntimeEvent,
    deny_tool,
    modify,
)

hook = Hook("python-agent-test")


@hook.tool
def shout(text: str) -> str:
    """Say it louder"""
    return text.upper()


@hook.before_llm
def cool_down(req: BeforeLLMParams) -> BeforeLLMReply:
    return modify(req, options={**req.get("options", {}), "temperature": 0})


@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    if call["tool"] == "read_file":
        return deny_tool("no reading today")
    if call["tool"] == "echo_text":
        return modify(call, arguments={"text": f"{call['arguments']['text']}!"})
    return None


@hook.approve_tool
def approve(req: ApproveToolParams) -> bool:
    return req["tool"] == "echo_text"


@hook.after_tool
async def checked(ran: AfterToolParams) -> AfterToolReply:
    result = ran["result"]
    return modify(ran, result={**result, "for_llm": result["for_llm"] + " (checked)"})


@hook.observe("agent.tool.*")
def watch(event: RuntimeEvent) -> None:
    print(f"observed {event['kind']}", file=sys.stderr)


if __name__ == "__main__":
    hook.run()
