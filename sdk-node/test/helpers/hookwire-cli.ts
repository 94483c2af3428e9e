// The reference runtime's CLI, built once per test file from ../core.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const core = fileURLToPath(new URL("../../../../core", import.meta.url));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The --json transcript, one record per line. */
  records: { [key: string]: unknown }[];
}

export class HookwireCLI {
  readonly dir = mkdtempSync(join(tmpdir(), "hookwire-node-"));
  readonly bin = join(this.dir, "hookwire");

  build(): void {
    execFileSync("go", ["build", "-o", this.bin, "./cmd/hookwire"], {
      cwd: core,
      stdio: ["ignore", "inherit", "inherit"],
    });
  }

  /** hookwire run --json with the given hooks configuration and scenario files, and extra flags. */
  run(hooks: string, scenario: string, ...flags: string[]): Run {
    const r = spawnSync(this.bin, ["run", "--json", "--hooks", hooks, ...flags, scenario], {
      encoding: "utf8",
      timeout: 60_000,
      maxBuffer: 1 << 30,
    });
    const records = r.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { [key: string]: unknown });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, records };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
