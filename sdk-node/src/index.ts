// hookwire: agent hooks in TypeScript, over JSON-RPC 2.0 on stdio.

export { Hook } from "./hook.js";
export type {
  Awaitable,
  Closer,
  Context,
  EventContext,
  Handler,
  HandlerResult,
  Observer,
  ToolContext,
  ToolFunction,
  ToolSpec,
} from "./handlers.js";
export {
  HookEvent,
  lifecycle,
  type CanUseTool,
  type CanUseToolOptions,
  type HookAbort,
  type HookCallback,
  type HookContinue,
  type HookInput,
  type HookInputs,
  type HookModifyInput,
  type HookModifyOutput,
  type HookOutput,
  type HookOutputs,
  type HookSkip,
  type LifecycleHooks,
  type LifecycleOptions,
  type PermissionResult,
  type ToolInput,
} from "./lifecycle.js";
export { HookError, HookwireError } from "./errors.js";
export { DecodeError } from "./protocol.gen.js";
export { abortTurn, continue_, denyTool, hardAbort } from "./protocol.gen.js";
export { deny, modify, pass, respond } from "./results.js";
export { canonicalTool, type ToolCallLike } from "./canonical.js";
export { check, type Infer, type JSONSchema, type ObjectSchema, type SchemaType } from "./schema.js";
export { version } from "./version.gen.js";
export { RpcError, TestClient, testHook, type TestOptions, type WireResponse } from "./testing.js";
// The types of each method's params and result, and Intercepted, come from the method table.
export * from "./exports.gen.js";
export type {
  Action,
  EventKind,
  EventScope,
  EventSource,
  FunctionCall,
  FunctionDefinition,
  InboundContext,
  JsonValue,
  LLMResponse,
  Message,
  Meta,
  Method,
  Mode,
  Requests,
  ToolCall,
  ToolDefinition,
  ToolKind,
  ToolResult,
  TurnContext,
} from "./protocol.gen.js";
export {
  Actions,
  ErrorCodes,
  EventKinds,
  HostExtensions,
  LegacyEventKinds,
  Methods,
  Modes,
  PROTOCOL_VERSION,
} from "./protocol.gen.js";
