"""hookwire: agent hooks in Python.

A hook is a process the agent runtime starts and talks to over stdin and
stdout (JSON-RPC 2.0, one message per line). Declare what it does on a Hook,
then run it:

    from hookwire import Hook

    hook = Hook("weather")

    @hook.tool
    def get_weather(city: str) -> str:
        \"\"\"Query weather information for a specified city\"\"\"
        return f"{city}: sunny, 15°C"

    hook.run()

The message types are TypedDicts generated from the protocol's JSON Schema
(hookwire._protocol), re-exported here.
"""

from ._hook import (
    AfterLLMReply,
    AfterToolReply,
    ApproveToolReply,
    BeforeLLMReply,
    BeforeToolReply,
    Hook,
    HookError,
)
from ._protocol import (
    EVENT_KINDS,
    JSON,
    LEGACY_EVENT_KINDS,
    PROTOCOL_VERSION,
    AbortTurn,
    Action,
    AfterLLMModify,
    AfterLLMParams,
    AfterLLMResult,
    AfterToolModify,
    AfterToolParams,
    AfterToolResult,
    ApproveToolParams,
    ApproveToolResult,
    BeforeLLMModify,
    BeforeLLMParams,
    BeforeLLMResult,
    BeforeToolModify,
    BeforeToolParams,
    BeforeToolResult,
    Continue,
    DecodeError,
    DenyTool,
    Error,
    EventKind,
    EventScope,
    EventSource,
    FunctionCall,
    FunctionDefinition,
    HardAbort,
    HelloParams,
    HelloResult,
    InboundContext,
    LegacyEvent,
    LLMResponse,
    Message,
    Meta,
    Method,
    Mode,
    Respond,
    RuntimeEvent,
    ToolCall,
    ToolDefinition,
    ToolResult,
    TurnContext,
)
from ._results import (
    Modify,
    abort_turn,
    continue_,
    deny,
    hard_abort,
    modify,
    respond,
    tool_result,
)
from ._testing import TestClient
from ._tools import ArgumentError

__all__ = [
    "EVENT_KINDS",
    "JSON",
    "LEGACY_EVENT_KINDS",
    "PROTOCOL_VERSION",
    "AbortTurn",
    "Action",
    "AfterLLMModify",
    "AfterLLMParams",
    "AfterLLMReply",
    "AfterLLMResult",
    "AfterToolModify",
    "AfterToolParams",
    "AfterToolReply",
    "AfterToolResult",
    "ApproveToolParams",
    "ApproveToolReply",
    "ApproveToolResult",
    "ArgumentError",
    "BeforeLLMModify",
    "BeforeLLMParams",
    "BeforeLLMReply",
    "BeforeLLMResult",
    "BeforeToolModify",
    "BeforeToolParams",
    "BeforeToolReply",
    "BeforeToolResult",
    "Continue",
    "DecodeError",
    "DenyTool",
    "Error",
    "EventKind",
    "EventScope",
    "EventSource",
    "FunctionCall",
    "FunctionDefinition",
    "HardAbort",
    "HelloParams",
    "HelloResult",
    "Hook",
    "HookError",
    "InboundContext",
    "LLMResponse",
    "LegacyEvent",
    "Message",
    "Meta",
    "Method",
    "Mode",
    "Modify",
    "Respond",
    "RuntimeEvent",
    "TestClient",
    "ToolCall",
    "ToolDefinition",
    "ToolResult",
    "TurnContext",
    "abort_turn",
    "continue_",
    "deny",
    "hard_abort",
    "modify",
    "respond",
    "tool_result",
]
