// Type-level tests: `tsc --noEmit` checks this file. Each @ts-expect-error
// line must fail to compile; if it ever compiles, the unused directive is
// itself an error and the build fails.

import { continue_, denyTool, Hook, type Infer, modify, respond, type ToolResult } from "../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_: T): void => {};

const hook = new Hook("types");

// A wrong action for the method does not compile.
// @ts-expect-error respond is for before_tool only
hook.beforeLLM(async () => respond("no"));
// @ts-expect-error deny_tool is for before_tool only
hook.afterTool(async () => denyTool("no"));
// @ts-expect-error respond is for before_tool only, literal form
hook.afterLLM(async () => ({ action: "respond" as const, result: { for_llm: "x" } }));
// @ts-expect-error an action that does not exist
hook.beforeTool(async () => ({ action: "skip" as const }));
// @ts-expect-error approve_tool answers with approved, not an action
hook.approveTool(async () => continue_());
// @ts-expect-error a modify of before_tool carries the call, not the request
hook.beforeTool(async () => ({ action: "modify" as const, request: { model: "m", messages: [] } }));
// @ts-expect-error modify of the before_llm request is not a before_tool result
hook.beforeTool(async (call) => modify({ model: call.tool, messages: [] }));
// @ts-expect-error deny needs a reason
hook.beforeTool(async () => ({ action: "deny_tool" as const }));

// The right ones do.
hook.handle("hook.before_tool", async (call) => (call.tool === "rm" ? denyTool("no") : respond("yes")));
hook.handle("hook.after_llm", async (res) => modify(res, { model: "other" }));
hook.handle("hook.approve_tool", (req) => ({ approved: req.tool !== "rm" }));

// A handler of a method that has continue may return nothing; an approver may not.
hook.handle("hook.before_llm", () => {});
hook.handle("hook.after_llm", async () => undefined);
hook.handle("hook.after_tool", async (ran) => (ran.result?.is_error ? continue_("failed") : undefined));
hook.handle("hook.before_tool", async (call) => {
  if (call.tool === "rm") return denyTool("no");
});
// @ts-expect-error an approval has no continue: the approver must decide
hook.approveTool(async () => {});
// @ts-expect-error nor may it decide only sometimes
hook.approveTool((req) => (req.tool === "ls" ? { approved: true } : undefined));

// Params are typed by method.
hook.handle("hook.after_tool", async (ran) => {
  expectType<Equal<typeof ran.result, ToolResult | undefined>>(true);
  // @ts-expect-error after_tool params have no messages
  void ran.messages;
  return continue_();
});

// Tool arguments are inferred from the parameters schema.
hook.tool(
  {
    name: "plan_trip",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        budget: { type: "number" },
        flexible: { type: "boolean" },
        unit: { enum: ["c", "f"] },
        stops: { type: "array", items: { type: "string" } },
        where: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] },
        note: { type: ["string", "null"] },
        anything: {},
      },
      required: ["city", "days"],
    },
  },
  (args) => {
    expectType<
      Equal<
        typeof args,
        {
          city: string;
          days: number;
          budget?: number;
          flexible?: boolean;
          unit?: "c" | "f";
          stops?: string[];
          where?: { lat: number };
          note?: string | null;
          anything?: unknown;
        }
      >
    >(true);
    // @ts-expect-error not declared in the schema
    void args.country;
    return args.city;
  },
);

// A tool answers with text or a whole ToolResult, nothing else.
// @ts-expect-error a number is not a tool result
hook.tool({ name: "n", parameters: { type: "object" } }, () => 42);
hook.tool({ name: "r", parameters: { type: "object" } }, async () => ({ for_llm: "x", is_error: true }));

// Infer on its own, for schemas declared apart.
const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] } as const;
expectType<Equal<Infer<typeof point>, { x: number }>>(true);
expectType<Equal<Infer<{ type: "array"; items: { enum: [1, 2] } }>, (1 | 2)[]>>(true);
