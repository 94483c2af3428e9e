// Node.js's own cost of a payload: JSON.parse then JSON.stringify of the
// file's content, bytes in and bytes out as on a pipe, repeated; prints the
// time of each repetition in nanoseconds, one a line.
import { readFileSync } from "node:fs";

const data = readFileSync(process.argv[2]);
for (let i = 0; i < Number(process.argv[3]); i++) {
  const start = process.hrtime.bigint();
  Buffer.from(JSON.stringify(JSON.parse(data.toString("utf8"))));
  console.log(String(process.hrtime.bigint() - start));
}
