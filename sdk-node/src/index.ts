// hookwire: agent hooks in TypeScript, over JSON-RPC 2.0 on stdio.

export { canonicalTool, type RewriteChange, rewrite, type ToolCallLike } from "./canonical.js";
export { HookError, HookwireError } from "./errors.js";
// The types of each method's params and result, and Intercepted, come from the method table.
export * from "./exports.gen.js";
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
export { Hook } from "./hook.js";
export {
  type CanUseTool,
  type CanUseToolOptions,
  type HookAbort,
  type HookCallback,
  type HookContinue,
  HookEvent,
  type HookInput,
  type HookInputs,
  type HookModifyInput,
  type HookModifyOutput,
  type HookOutput,
  type HookOutputs,
  type HookSkip,
  type LifecycleHooks,
  type LifecycleOptions,
  lifecycle,
  type PermissionResult,
  type ToolInput,
} from "./lifecycle.js";
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
  abortTurn,
  continue_,
  DecodeError,
  denyTool,
  ErrorCodes,
  EventKinds,
  HostExtensions,
  hardAbort,
  LegacyEventKinds,
  Methods,
  Modes,
  PROTOCOL_VERSION,
} from "./protocol.gen.js";
export { abstain, deny, modify, pass, respond } from "./results.js";
export { check, type Infer, type JSONSchema, type ObjectSchema, type SchemaType } from "./schema.js";
export {
  readShell,
  ShellCommand,
  type ShellReading,
  type ShellReason,
  ShellReasons,
  type ShellRedirect,
  type ShellUnknown,
} from "./shell.js";
export { RpcError, TestClient, type TestOptions, testHook, type WireResponse } from "./testing.js";
export { version } from "./version.gen.js";
