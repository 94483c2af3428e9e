// hookwire: agent hooks in TypeScript, over JSON-RPC 2.0 on stdio.

export {
  Hook,
  type Awaitable,
  type Context,
  type EventContext,
  type Handler,
  type Intercepted,
  type Observer,
  type ToolContext,
  type ToolFunction,
  type ToolSpec,
} from "./hook.js";
export { abortTurn, deny, hardAbort, modify, pass, respond } from "./results.js";
export { check, type Infer, type JSONSchema, type ObjectSchema, type SchemaType } from "./schema.js";
export { fromLegacy, kindMatcher } from "./events.js";
export { ErrorCodes } from "./session.js";
export { RpcError, TestClient, testHook, type TestOptions, type WireResponse } from "./testing.js";
export type {
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
  DenyTool,
  EventKind,
  EventScope,
  EventSource,
  FunctionCall,
  FunctionDefinition,
  HardAbort,
  HelloParams,
  HelloResult,
  InboundContext,
  JsonValue,
  LegacyEvent,
  LLMResponse,
  Message,
  Meta,
  Method,
  Mode,
  Requests,
  Respond,
  RuntimeEvent,
  ToolCall,
  ToolDefinition,
  ToolResult,
  TurnContext,
} from "./protocol.gen.js";
export { Actions, EventKinds, LegacyEventKinds, Methods, Modes, PROTOCOL_VERSION } from "./protocol.gen.js";
