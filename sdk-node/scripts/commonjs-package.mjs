// dist/cjs holds the CommonJS build of src, next to the ES modules of
// dist/src. The package says "type": "module", so Node would read the
// .js files of dist/cjs as ES modules: this package.json, the nearest one
// to them, says they are CommonJS.

import { mkdirSync, writeFileSync } from "node:fs";

const dir = new URL("../dist/cjs/", import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL("package.json", dir), JSON.stringify({ type: "commonjs" }) + "\n");
