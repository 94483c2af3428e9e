// The modules of src/ depend on each other without a cycle, type-only
// imports included: a cycle makes what a module sees at load time depend on
// which module was imported first, and, among types, ties together modules
// that should change apart (the handler registry and the transport).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * The module specifiers a file refers to: import and export-from
 * statements (import type and export type too), import x = require(...),
 * import("...") calls and import("...") types.
 */
function specifiers(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) out.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Which of the given modules each imports, by file name ("hook.ts"); other imports are left out. */
function graph(files: { [name: string]: string }): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const [name, text] of Object.entries(files)) {
    const targets = specifiers(name, text)
      .filter((s) => s.startsWith("./"))
      .map((s) => s.slice(2).replace(/\.js$/, ".ts"))
      .filter((t) => Object.hasOwn(files, t));
    edges.set(name, [...new Set(targets)]);
  }
  return edges;
}

/** Every cycle found by a depth-first walk, each as the path that closes it ("a.ts -> b.ts -> a.ts"). */
function cycles(edges: Map<string, string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const walk = (node: string): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node].join(" -> "));
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    for (const next of edges.get(node) ?? []) walk(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...edges.keys()].sort()) walk(node);
  return found;
}

describe("the modules of src", () => {
  it("import each other without a cycle", () => {
    const files: { [name: string]: string } = {};
    for (const name of readdirSync(src).filter((f) => f.endsWith(".ts")))
      files[name] = readFileSync(src + name, "utf8");
    assert.ok(Object.keys(files).length >= 10, `only ${Object.keys(files).join(", ")} in ${src}`);
    const edges = graph(files);
    // The reading must see what is there: the stdio loop imports the session.
    assert.ok(edges.get("run.ts")?.includes("session.ts"), JSON.stringify(Object.fromEntries(edges)));
    assert.deepEqual(cycles(edges), [], "import cycles among src/*.ts");
  });

  it("keep the registry of handlers apart from the transport", () => {
    const files: { [name: string]: string } = {};
    for (const name of readdirSync(src).filter((f) => f.endsWith(".ts")))
      files[name] = readFileSync(src + name, "utf8");
    const edges = graph(files);
    assert.ok(edges.has("registry.ts"), "no src/registry.ts");
    // Everything registry.ts reaches, directly or not.
    const reached = new Set<string>();
    const reach = (node: string): void => {
      for (const next of edges.get(node) ?? []) {
        if (reached.has(next)) continue;
        reached.add(next);
        reach(next);
      }
    };
    reach("registry.ts");
    for (const transport of ["hook.ts", "run.ts", "session.ts", "protect.ts", "lines.ts", "testing.ts"]) {
      assert.ok(!reached.has(transport), `registry.ts depends on ${transport}: ${[...reached].sort().join(", ")}`);
    }
  });
});

describe("the cycle check", () => {
  it("reads every form of import and export-from, type-only ones too", () => {
    const text = `
import { a } from "./a.js";
import type { B } from "./b.js";
import {
  type C,
  c,
} from "./c.js";
import * as d from "./d.js";
import "./e.js";
export { f } from "./f.js";
export type { G } from "./g.js";
export * from "./h.js";
import i = require("./i.js");
type J = import("./j.js").J;
const k = await import("./k.js");
const notAnImport = "from './l.js'";
// import { m } from "./m.js";
`;
    assert.deepEqual(specifiers("x.ts", text), [
      "./a.js",
      "./b.js",
      "./c.js",
      "./d.js",
      "./e.js",
      "./f.js",
      "./g.js",
      "./h.js",
      "./i.js",
      "./j.js",
      "./k.js",
    ]);
  });

  it("finds a cycle and names it, type-only imports included", () => {
    const files = {
      "a.ts": `import { b } from "./b.js";`,
      "b.ts": `import type { C } from "./c.js";`,
      "c.ts": `export { a } from "./a.js";`,
      "d.ts": `import { a } from "./a.js"; import "node:fs";`,
    };
    assert.deepEqual(cycles(graph(files)), ["a.ts -> b.ts -> c.ts -> a.ts"]);
  });

  it("finds two modules that import each other, and none where there is none", () => {
    assert.deepEqual(cycles(graph({ "x.ts": `import "./y.js";`, "y.ts": `import type { X } from "./x.js";` })), [
      "x.ts -> y.ts -> x.ts",
    ]);
    assert.deepEqual(
      cycles(graph({ "x.ts": `import "./y.js"; import "./z.js";`, "y.ts": `import "./z.js";`, "z.ts": "" })),
      [],
    );
  });
});
