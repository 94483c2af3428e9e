import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { version } from "../src/index.js";

test("the package exports the one version of the CLI and the SDKs", () => {
  const root = new URL("../../../", import.meta.url);
  assert.equal(version, readFileSync(new URL("VERSION", root), "utf8").trim());
  const pkg = JSON.parse(readFileSync(new URL("sdk-node/package.json", root), "utf8")) as { version: string };
  assert.equal(pkg.version, version);
});
