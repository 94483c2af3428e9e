// The README's examples are part of the feature: each TypeScript block must
// compile against the package, and run (every one that serves the protocol
// exits 0 on a closed stdin; the test example runs its tests).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Inside the package, so that `import ... from "hookwire"` resolves to the
// package itself, as it does for a user who installed it.
const dir = join(root, "dist", "readme");

const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
// The JavaScript examples are CommonJS: they show require("hookwire").
const commonjs = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

test("the README has the examples", () => {
  assert.ok(blocks.length >= 8, `only ${blocks.length} TypeScript examples`);
});

test("the weather plugin of the README is under 15 lines", () => {
  assert.ok(blocks[0]!.includes("get_weather"));
  assert.ok(blocks[0]!.trimEnd().split("\n").length < 15);
});

test("every TypeScript example of the README compiles and runs", () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [i, code] of blocks.entries()) writeFileSync(join(dir, `example${i}.ts`), code);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2022"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: ["node"],
      strict: true,
      outDir: "out",
      rootDir: ".",
    },
    include: ["*.ts"],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const compiled = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" });
  assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);

  blocks.forEach((_, i) => {
    const ran = spawnSync(process.execPath, [join(dir, "out", `example${i}.js`)], {
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.equal(ran.status, 0, `example ${i} failed:\n${blocks[i]}\n${ran.stdout}${ran.stderr}`);
  });
});

test("every JavaScript example of the README runs as CommonJS", () => {
  assert.ok(commonjs.length >= 1, "no CommonJS example");
  const cjs = join(dir, "cjs");
  rmSync(cjs, { recursive: true, force: true });
  mkdirSync(cjs, { recursive: true });
  commonjs.forEach((code, i) => {
    assert.match(code, /require\("hookwire"\)/);
    const file = join(cjs, `example${i}.cjs`);
    writeFileSync(file, code);
    const ran = spawnSync(process.execPath, [file], {
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.equal(ran.status, 0, `CommonJS example ${i} failed:\n${code}\n${ran.stdout}${ran.stderr}`);
  });
});
