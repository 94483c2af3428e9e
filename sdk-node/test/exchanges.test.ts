// The exchange vectors of schema/testdata/exchanges, played with the
// reference hook: each is a host's lines in and the lines a hook must write
// back; the README next to them says how they are compared.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const dir = new URL("../../../schema/testdata/exchanges/", import.meta.url);
const reference = fileURLToPath(new URL("fixtures/reference-hook.js", import.meta.url));
const ANY = "<any>";

function parse(text: string): { in: string[]; out: string[] } {
  const sections: Record<string, string[]> = {};
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    const header = /^-- (.+) --$/.exec(line);
    if (header) current = sections[header[1]!] = [];
    else if (current && line !== "") current.push(line);
  }
  return { in: sections["in"] ?? [], out: sections["out"] ?? [] };
}

function matches(want: unknown, got: unknown): boolean {
  if (want === ANY) return true;
  if (Array.isArray(want)) {
    return Array.isArray(got) && got.length === want.length && want.every((w, i) => matches(w, got[i]));
  }
  if (want !== null && typeof want === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return false;
    const w = want as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    const keys = Object.keys(w);
    return keys.length === Object.keys(g).length && keys.every((k) => k in g && matches(w[k], g[k]));
  }
  return want === got;
}

const vectors = readdirSync(dir)
  .filter((f) => f.endsWith(".txtar"))
  .sort();

test("there are exchange vectors", () => {
  assert.ok(vectors.length >= 20, `only ${vectors.length} in ${fileURLToPath(dir)}`);
});

for (const file of vectors) {
  test(`the reference hook answers as ${file} says`, () => {
    const vector = parse(readFileSync(new URL(file, dir), "utf8"));
    const run = spawnSync(process.execPath, [reference], {
      input: vector.in.map((l) => l + "\n").join(""),
      timeout: 10_000,
    });
    assert.equal(run.status, 0, `exit ${run.status} ${run.signal ?? ""}: ${run.stderr}`);
    const left: unknown[] = vector.out.map((l) => JSON.parse(l));
    for (const line of run.stdout
      .toString()
      .split("\n")
      .filter((l) => l !== "")) {
      const got: unknown = JSON.parse(line);
      const i = left.findIndex((want) => matches(want, got));
      assert.ok(i >= 0, `wrote a line not expected: ${line}\nstill expected: ${JSON.stringify(left)}`);
      left.splice(i, 1);
    }
    assert.deepEqual(left, [], "did not write these lines");
  });
}
