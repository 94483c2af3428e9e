// The package as a user gets it: npm pack, installed into an empty folder
// with plain npm install, compiled against its declarations, and run.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
    execFileSync(npm, ["install", "--no-audit", "--no-fund", join(dir, packed[0]!.filename)], { cwd: app, stdio: "ignore" });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("holds the compiled package and its declarations, not the tests", () => {
    for (const f of ["package.json", "README.md", "dist/src/index.js", "dist/src/index.d.ts", "dist/src/protocol.gen.js"]) {
      assert.ok(files.includes(f), `${f} is not in the tarball: ${files.join(", ")}`);
    }
    assert.deepEqual(
      files.filter((f) => f.startsWith("test/") || f.startsWith("dist/test/")),
      [],
    );
  });

  it("installs with no dependencies", () => {
    assert.deepEqual(readdirSync(join(app, "node_modules")).filter((d) => !d.startsWith(".")), ["hookwire"]);
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
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", strict: true, types: ["node"], typeRoots: [join(pkg, "node_modules", "@types")] } }),
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
});
