// The shell reader: every vector of schema/testdata/shell, checked as
// docs/shell-reader.md's "The vectors" says (commands and reasons as sets;
// a reading that stops is checked for the reason it stopped for alone),
// and the reader's own promises (hasFlag, name, never throwing, bounded
// nesting and size).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it, test } from "node:test";

import fc from "fast-check";

import { readShell, ShellCommand, type ShellReading, ShellReasons } from "../src/index.js";

const dir = new URL("../../../schema/testdata/shell/", import.meta.url);

interface Vector {
  cmd?: string;
  cmd_parts?: [string, number][];
  commands?: { args: string[]; dynamic?: number[]; via?: string; redirects?: [string, string][] }[];
  unknown?: string[];
  note?: string;
}

/** A command as the vectors write it: only its non-empty fields, so that two equal commands print alike. */
function normalized(c: ShellCommand): string {
  const o: { args: string[]; dynamic?: number[]; via?: string; redirects?: [string, string][] } = { args: c.args };
  if (c.dynamic.length > 0) o.dynamic = c.dynamic;
  if (c.via !== "") o.via = c.via;
  if (c.redirects.length > 0) o.redirects = c.redirects.map((r) => [r.op, r.target]);
  return JSON.stringify(o);
}

const vectorCommand = (c: NonNullable<Vector["commands"]>[number]): string =>
  normalized(
    new ShellCommand(
      c.args,
      c.dynamic ?? [],
      c.via ?? "",
      (c.redirects ?? []).map(([op, target]) => ({ op, target })),
    ),
  );

/** Sorted, a repeated element once: the vectors compare commands and reasons as sets. */
const set = (xs: string[]): string[] => [...new Set(xs)].sort();
const reasons = (r: ShellReading): string[] => [...new Set(r.unknown.map((u) => u.reason))].sort();
const STOPS = new Set<string>([ShellReasons.Syntax, ShellReasons.Depth, ShellReasons.TooLong]);

const files = readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort();

test("the shell vectors are there", () => {
  assert.ok(files.length >= 5, `only ${files.join(", ")} in ${dir.pathname}`);
});

for (const file of files) {
  describe(`shell vectors ${file}`, () => {
    const lines = readFileSync(new URL(file, dir), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const v = JSON.parse(line) as Vector;
      const cmd = v.cmd ?? (v.cmd_parts ?? []).map(([text, n]) => text.repeat(n)).join("");
      it(`${file}:${i + 1} ${JSON.stringify(cmd.slice(0, 60))}`, () => {
        const reading = readShell(cmd);
        const want = [...(v.unknown ?? [])].sort();
        const got = reasons(reading);
        const stop = want.find((r) => STOPS.has(r));
        if (stop !== undefined) {
          // A reading that stops: the reason it stopped for must be there; what was found before it is not compared.
          assert.ok(got.includes(stop), `${stop} not in ${JSON.stringify(reading.unknown).slice(0, 500)}`);
          return;
        }
        assert.deepEqual(got, want, JSON.stringify(reading.unknown).slice(0, 500));
        assert.deepEqual(set(reading.commands.map(normalized)), set((v.commands ?? []).map(vectorCommand)), v.note);
      });
    });
  });
}

// Cases beyond the shared vectors, each checked against bash.
type VectorCommand = NonNullable<Vector["commands"]>[number];
const more: { cmd: string; commands: VectorCommand[]; unknown?: string[] }[] = [
  {
    cmd: "x=(a $(rm -rf b) c); ls",
    commands: [{ args: ["rm", "-rf", "b"], via: "$()" }, { args: ["ls"] }],
  },
  {
    cmd: "ionice -c3 rm x",
    commands: [{ args: ["ionice", "-c3", "rm", "x"] }, { args: ["rm", "x"], via: "ionice" }],
  },
  { cmd: "$'\\c\\\\'x", commands: [{ args: ["\x1cx"] }] },
  {
    cmd: 'env -S "A=1 rm -rf x" y',
    commands: [{ args: ["env", "-S", "A=1 rm -rf x", "y"] }, { args: ["rm", "-rf", "x", "y"], via: "env" }],
  },
  {
    cmd: "flock -w 5 /l -c 'rm x'",
    commands: [{ args: ["flock", "-w", "5", "/l", "-c", "rm x"] }, { args: ["rm", "x"], via: "flock" }],
  },
  { cmd: "coproc rm -rf x", commands: [{ args: ["rm", "-rf", "x"] }] },
  { cmd: "trap - EXIT", commands: [{ args: ["trap", "-", "EXIT"] }] },
  {
    cmd: 'echo "`rm \\"x\\"`"',
    commands: [
      { args: ["echo", '"`rm \\"x\\"`"'], dynamic: [1] },
      { args: ["rm", "x"], via: "$()" },
    ],
  },
  {
    cmd: "echo $( (rm) )",
    commands: [
      { args: ["echo", "$( (rm) )"], dynamic: [1] },
      { args: ["rm"], via: "$()" },
    ],
  },
  {
    cmd: "x=$(cat <<EOF\n$(rm y)\nEOF\n)",
    commands: [
      { args: ["cat"], via: "$()", redirects: [["<<", "EOF"]] },
      { args: ["rm", "y"], via: "$()" },
    ],
  },
  { cmd: "{ls;}", commands: [], unknown: ["syntax"] },
  { cmd: "in a", commands: [], unknown: ["syntax"] },
  { cmd: "[[ a & b ]]", commands: [], unknown: ["syntax"] },
  { cmd: "[[ x =~ ^(a|b)$ ]] && ls", commands: [{ args: ["ls"] }] },
  {
    cmd: "done<(ls)",
    commands: [
      { args: ["done<(ls)"], dynamic: [0] },
      { args: ["ls"], via: "<()" },
    ],
    unknown: ["dynamic-program"],
  },
  { cmd: "echo $((${ 3 ))", commands: [{ args: ["echo", "$((${ 3 ))"], dynamic: [1] }], unknown: ["arithmetic"] },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    cmd: 'echo "${x:-<(rm y)}"',
    commands: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      { args: ["echo", '"${x:-<(rm y)}"'], dynamic: [1] },
      { args: ["rm", "y"], via: "<()" },
    ],
  },
  { cmd: "echo $'a\\0b' $'c\\U0'x", commands: [{ args: ["echo", "a", "cx"] }], unknown: [] },
  { cmd: "time; ! ", commands: [] },
];

describe("readShell beyond the vectors", () => {
  for (const v of more) {
    it(JSON.stringify(v.cmd), () => {
      const reading = readShell(v.cmd);
      assert.deepEqual(reasons(reading), v.unknown ?? []);
      if (!(v.unknown ?? []).some((r) => STOPS.has(r)))
        assert.deepEqual(reading.commands.map(normalized).sort(), v.commands.map(vectorCommand).sort());
    });
  }
});

describe("ShellCommand.hasFlag", () => {
  const rm = (...args: string[]): ShellCommand => readShell(["rm", ...args].join(" ")).commands[0]!;

  it("finds a short flag alone and in any cluster", () => {
    assert.ok(rm("-r", "x").hasFlag("r", "recursive"));
    assert.ok(rm("-rf", "x").hasFlag("r", "recursive"));
    assert.ok(rm("-fr", "x").hasFlag("r", "recursive"));
    assert.ok(rm("-f", "-r", "x").hasFlag("r", "recursive"));
    assert.ok(!rm("-f", "x").hasFlag("r", "recursive"));
  });

  it("compares the letter as given", () => {
    assert.ok(rm("-Rf", "x").hasFlag("R", "recursive"));
    assert.ok(!rm("-Rf", "x").hasFlag("r", ""));
  });

  it("finds a long flag, with a value, and any prefix of it", () => {
    assert.ok(rm("--recursive", "x").hasFlag("r", "recursive"));
    assert.ok(rm("--recursive=yes", "x").hasFlag("", "recursive"));
    assert.ok(rm("--rec", "x").hasFlag("", "recursive"));
    assert.ok(rm("--r", "x").hasFlag("", "recursive"));
    assert.ok(!rm("--", "x").hasFlag("", "recursive"));
    assert.ok(!rm("--force", "x").hasFlag("", "recursive"));
    assert.ok(!rm("--recursively", "x").hasFlag("", "recursive"));
    assert.ok(!rm("--recursive").hasFlag("r", ""), "no long form asked for");
  });

  it("stops at --", () => {
    assert.ok(!rm("--", "-rf").hasFlag("r", "recursive"));
    assert.ok(!rm("x", "--", "--recursive").hasFlag("r", "recursive"));
    assert.ok(rm("-r", "--", "x").hasFlag("r", "recursive"));
  });

  it("counts options after operands, as GNU moves them", () => {
    assert.ok(rm("x", "-rf").hasFlag("r", "recursive"));
    assert.ok(rm("x", "y", "--recursive").hasFlag("r", "recursive"));
  });

  it("does not take the program, a lone dash or an operand for a flag", () => {
    assert.ok(!new ShellCommand(["-r"]).hasFlag("r", "recursive"));
    assert.ok(!rm("-", "r").hasFlag("r", "recursive"));
    assert.ok(!rm("recursive").hasFlag("r", "recursive"));
  });

  it("skips dynamic words", () => {
    const c = readShell("rm $R x").commands[0]!;
    assert.deepEqual(c.dynamic, [1]);
    assert.ok(!new ShellCommand(["rm", "-rf"], [1]).hasFlag("r", "recursive"));
    assert.ok(new ShellCommand(["rm", "-rf", "-x"], [2]).hasFlag("r", "recursive"));
  });

  it("sees through quotes: the flag is the word the program gets", () => {
    assert.ok(readShell("rm '-rf' x").commands[0]!.hasFlag("r", "recursive"));
    assert.ok(readShell('rm "--rec"ursive x').commands[0]!.hasFlag("r", "recursive"));
  });
});

describe("ShellCommand.name", () => {
  it("is the base name of the program", () => {
    assert.equal(readShell("/usr/bin/rm -rf x").commands[0]!.name, "rm");
    assert.equal(readShell("./bin/tool").commands[0]!.name, "tool");
    assert.equal(readShell("rm").commands[0]!.name, "rm");
    assert.equal(readShell("'/a b/c'").commands[0]!.name, "c");
    assert.equal(new ShellCommand([]).name, "");
  });
});

describe("readShell's bounds", () => {
  it("reads 1 MiB of agents' commands to the end", () => {
    const line = 'cd /work && rm -rf build && npm run build 2>&1 | tail -20; echo "$(git status)"\n';
    const n = Math.floor((1 << 20) / line.length);
    const reading = readShell(line.repeat(n));
    assert.deepEqual(reading.unknown, []);
    assert.equal(reading.commands.length, 6 * n);
  });

  it("counts bytes of UTF-8 for the size", () => {
    // 2 + 349,525 × 3 = 1,048,577 bytes; 1 MiB of ASCII is read.
    assert.deepEqual(reasons(readShell("a".repeat(1 << 20))), []);
    assert.deepEqual(reasons(readShell("é".repeat(1) + "€".repeat(349_525))), [ShellReasons.TooLong]);
    assert.deepEqual(reasons(readShell("echo " + "€".repeat(349_000))), []);
  });

  it("stops nesting of every kind at depth 32, without overflowing the stack", () => {
    for (const [open, close] of [
      ["( ", " )"],
      ["{ ", "; }"],
      ["$(", ")"],
      ["if true; then ", "; fi"],
      ["bash -c '", "'"],
      ["${x:-", "}"],
      ["$((1+", "))"],
      ["f() { ", "; }"],
    ] as const) {
      const deep = open.repeat(100_000) + "ls" + close.repeat(100_000);
      assert.ok(reasons(readShell(deep)).length > 0, `${open}...${close}`);
    }
    assert.deepEqual(reasons(readShell("sudo ".repeat(200_000) + "rm")), [ShellReasons.Depth]);
    assert.deepEqual(reasons(readShell("`echo \\`".repeat(1000))), [ShellReasons.Syntax]);
  });
});

// Inputs near the shell's syntax: pieces of the vectors and of shell, spliced.
const pieces = [
  ...files.flatMap((f) =>
    readFileSync(new URL(f, dir), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as Vector).cmd ?? ""),
  ),
  "$(",
  "`",
  "'",
  '"',
  "$'",
  "<<EOF\n",
  "\nEOF\n",
  "((",
  "))",
  "${",
  "}",
  "{ ",
  "; }",
  "case x in ",
  " esac",
  "if ",
  " fi",
  "\\",
  "<(",
  "|",
  "&&",
  ";;",
];

const shellish = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((p) => p.join("")),
  fc
    .tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat(), fc.string())
    .map(([p, a, b, s]) => p.slice(0, a % (p.length + 1)) + s + p.slice(b % (p.length + 1))),
);

describe("readShell on any string", () => {
  it("never throws, reads alike twice, and keeps dynamic indexes in range and ascending", () => {
    fc.assert(
      fc.property(shellish, (s) => {
        const a = readShell(s);
        const b = readShell(s);
        assert.deepEqual(a.commands.map(normalized), b.commands.map(normalized));
        assert.deepEqual(a.unknown, b.unknown);
        for (const c of a.commands) {
          c.dynamic.forEach((d, i) => {
            assert.ok(Number.isInteger(d) && d >= 0 && d < c.args.length, `${d} in ${JSON.stringify(c.args)}`);
            if (i > 0) assert.ok(d > c.dynamic[i - 1]!);
          });
          for (const u of a.unknown) assert.ok(Object.values(ShellReasons).includes(u.reason));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
