// The package as a user gets it: npm pack, installed into an empty folder
// with plain npm install, compiled against its declarations, and run, as
// an ES module (import) and as CommonJS (require).

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { HookProcess } from "./helpers/hook-process.js";

const pkg = fileURLToPath(new URL("../../", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

describe("the npm package", () => {
  const dir = mkdtempSync(join(tmpdir(), "hookwire-pack-"));
  const app = join(dir, "app");
  let files: string[] = [];

  before(() => {
    const packed = JSON.parse(
      execFileSync(npm, ["pack", "--json", "--pack-destination", dir], { cwd: pkg, encoding: "utf8" }),
    ) as { filename: string; files: { path: string }[] }[];
    files = packed[0]!.files.map((f) => f.path);
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    execFileSync(npm, ["install", "--no-audit", "--no-fund", join(dir, packed[0]!.filename)], {
      cwd: app,
      stdio: "ignore",
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("holds the compiled package and its declarations, not the tests", () => {
    for (const f of [
      "package.json",
      "README.md",
      "dist/src/index.js",
      "dist/src/index.d.ts",
      "dist/src/protocol.gen.js",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/protocol.gen.js",
      "dist/cjs/package.json",
    ]) {
      assert.ok(files.includes(f), `${f} is not in the tarball: ${files.join(", ")}`);
    }
    assert.deepEqual(
      files.filter((f) => f.startsWith("test/") || f.startsWith("dist/test/")),
      [],
    );
  });

  it("installs with no dependencies", () => {
    assert.deepEqual(
      readdirSync(join(app, "node_modules")).filter((d) => !d.startsWith(".")),
      ["hookwire"],
    );
  });

  it("compiles a TypeScript hook against its declarations, and the hook runs", async () => {
    writeFileSync(
      join(app, "hook.ts"),
      `import { Hook, respond, type BeforeToolParams } from "hookwire";
const echo = (call: BeforeToolParams) => respond(String(call.arguments?.["text"]));
new Hook("packed")
  .tool({ name: "shout", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    ({ text }) => text.toUpperCase())
  .beforeTool(async (call) => (call.tool === "echo" ? echo(call) : { action: "continue" }))
  .run();
`,
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          strict: true,
          types: ["node"],
          typeRoots: [join(pkg, "node_modules", "@types")],
        },
        files: ["hook.ts"],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const compiled = spawnSync(process.execPath, [tsc, "-p", app], { encoding: "utf8" });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);

    const hook = HookProcess.node(join(app, "hook.js"), app);
    try {
      assert.deepEqual((await hook.request("hook.hello", { name: "packed", version: 1, modes: [] })).result, {
        ok: true,
        name: "packed",
        modes: ["llm", "tool"],
      });
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "shout", arguments: { text: "hi" } })).result, {
        action: "respond",
        result: { for_llm: "HI" },
      });
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "echo", arguments: { text: "hi" } })).result, {
        action: "respond",
        result: { for_llm: "hi" },
      });
      assert.deepEqual(await hook.close(), { code: 0, signal: null });
    } finally {
      hook.kill();
    }
  });

  /** Runs node with the arguments in the app's folder; its stdout, once it exits 0. */
  const node = (...args: string[]): string => {
    const ran = spawnSync(process.execPath, args, { cwd: app, encoding: "utf8", timeout: 20_000 });
    assert.equal(ran.status, 0, `node ${args.join(" ")}:\n${ran.stdout}${ran.stderr}`);
    return ran.stdout;
  };

  it("is required from CommonJS, which gets the CommonJS build", () => {
    const out = node(
      "-e",
      `const assert = require("node:assert/strict");
const h = require("hookwire");
const resolved = require.resolve("hookwire");
assert.ok(resolved.endsWith(require("node:path").join("node_modules", "hookwire", "dist", "cjs", "index.js")), resolved);
assert.equal(typeof h.Hook, "function");
assert.equal(h.version, ${JSON.stringify(JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version)});
assert.deepEqual(h.continue_(), { action: "continue" });
const err = new h.HookError(-32010, "quota", { retry_after: 5 });
assert.ok(err instanceof h.HookwireError && err instanceof Error);
const hook = new h.Hook("cjs").beforeTool((call) => {
  if (call.tool === "quota") throw err;
});
const t = h.testHook(hook, { log: () => {} });
Promise.all([t.beforeTool({ tool: "ls" }), t.request("hook.before_tool", { tool: "quota" })]).then(([ls, quota]) => {
  assert.deepEqual(ls, { action: "continue" });
  assert.deepEqual(quota.error, { code: -32010, message: "quota", data: { retry_after: 5 } });
  console.log("required");
});`,
    );
    assert.equal(out, "required\n");
  });

  it("is imported from an ES module, which gets the ES module build", () => {
    const out = node(
      "--input-type=module",
      "-e",
      `import assert from "node:assert/strict";
import * as h from "hookwire";
const resolved = import.meta.resolve("hookwire");
assert.ok(resolved.endsWith("/node_modules/hookwire/dist/src/index.js"), resolved);
assert.equal(typeof h.Hook, "function");
assert.ok(new h.HookError(1, "x") instanceof h.HookwireError);
console.log("imported");`,
    );
    assert.equal(out, "imported\n");
  });

  it("serves a hook written in CommonJS on stdin and stdout", async () => {
    writeFileSync(
      join(app, "hook.cjs"),
      `const { Hook, HookError, denyTool } = require("hookwire");
new Hook("required")
  .beforeTool((call) => {
    console.log("this goes to stderr");
    if (call.tool === "rm") return denyTool("no");
    if (call.tool === "quota") throw new HookError(-32010, "quota", { retry_after: 5 });
  })
  .run();
`,
    );
    const hook = HookProcess.node(join(app, "hook.cjs"), app);
    try {
      assert.deepEqual((await hook.request("hook.hello", { name: "h", version: 1, modes: ["tool"] })).result, {
        ok: true,
        name: "required",
        modes: ["tool"],
      });
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "rm", arguments: {} })).result, {
        action: "deny_tool",
        reason: "no",
      });
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "ls", arguments: {} })).result, {
        action: "continue",
      });
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "quota", arguments: {} })).error, {
        code: -32010,
        message: "quota",
        data: { retry_after: 5 },
      });
      assert.deepEqual(await hook.close(), { code: 0, signal: null });
      assert.match(hook.stderr, /this goes to stderr/);
      for (const line of hook.lines) assert.equal((JSON.parse(line) as { jsonrpc?: string }).jsonrpc, "2.0", line);
    } finally {
      hook.kill();
    }
  });

  it("answers, from an ES module hook, a HookError and a modify made by the CommonJS build", async () => {
    // A program can load both builds (a dependency requires the package,
    // the hook imports it): two copies of every class and symbol.
    writeFileSync(
      join(app, "both.js"),
      `import { createRequire } from "node:module";
import { Hook } from "hookwire";
const cjs = createRequire(import.meta.url)("hookwire");
new Hook("both")
  .beforeTool((call) => {
    if (call.tool === "quota") throw new cjs.HookError(-32010, "quota", { retry_after: 5 });
    return cjs.modify(call, { arguments: { n: 1 } });
  })
  .run();
`,
    );
    const hook = HookProcess.node(join(app, "both.js"), app);
    try {
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "quota" })).error, {
        code: -32010,
        message: "quota",
        data: { retry_after: 5 },
      });
      // A host may leave out every member that tells what was modified: the call goes back under "call".
      assert.deepEqual((await hook.request("hook.before_tool", { tool: "ls" })).result, {
        action: "modify",
        call: { tool: "ls", arguments: { n: 1 } },
      });
      assert.deepEqual(await hook.close(), { code: 0, signal: null });
    } finally {
      hook.kill();
    }
  });

  it("compiles a CommonJS TypeScript hook against the CommonJS declarations", () => {
    const cjs = join(app, "cjs");
    mkdirSync(cjs);
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }));
    writeFileSync(
      join(cjs, "hook.ts"),
      `import { Hook, HookError, type BeforeToolParams } from "hookwire";
const quota = (call: BeforeToolParams) => new HookError(-32010, "quota", { tool: call.tool });
new Hook("typed").beforeTool((call) => {
  if (call.tool === "quota") throw quota(call);
});
`,
    );
    writeFileSync(
      join(cjs, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          strict: true,
          types: ["node"],
          typeRoots: [join(pkg, "node_modules", "@types")],
        },
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const compiled = spawnSync(process.execPath, [tsc, "-p", cjs, "--listFiles"], { encoding: "utf8" });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const declarations = compiled.stdout.split("\n").filter((f) => f.includes("node_modules/hookwire/"));
    assert.ok(
      declarations.some((f) => f.endsWith("/dist/cjs/index.d.ts")),
      declarations.join("\n"),
    );
    assert.deepEqual(
      declarations.filter((f) => f.includes("/dist/src/")),
      [],
    );
    // Compiled to CommonJS: require, not import.
    assert.match(readFileSync(join(cjs, "hook.js"), "utf8"), /require\("hookwire"\)/);
  });
});
