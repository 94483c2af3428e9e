// The lines a broken or hostile peer writes: every one must be answered
// with an error or ignored, and must leave the next line read.

const deep = (n: number, open: string, close: string): string => open.repeat(n) + close.repeat(n);
const call = (id: number, params: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"hook.before_tool","params":${params}}`;

export const malformedLines: readonly Buffer[] = [
  '{"jsonrpc":"2.0","id":2]}',
  '{"jsonrpc":"2.0","id":2}]',
  '[{"jsonrpc":"2.0","id":2}}',
  call(3, '{"tool":"t","arguments":{"a":[1}}'),
  call(4, '{"tool":"t","arguments":{"a":{"b":[2]]}}'),
  call(5, '{"tool":"t","arguments":{"a":{"b":{"c":1]}}}'),
  call(6, '{"tool":"t","arguments":[}'),
  '{"jsonrpc":"2.0","id":7,"method":"hook.before_tool","params":{"tool":"t"',
  '{"jsonrpc":"2.0","id":8,"meth',
  "{",
  "]",
  "}",
  "[",
  ",",
  ":",
  `{"jsonrpc":"2.0","id":9,"method":"hook.hello","params":${deep(100000, "[", "]")}}`,
  deep(100000, "[", "]"),
  deep(100000, '{"a":', "}"),
  call(10, '{"tool":"t, "arguments":{}}'),
  '"unterminated',
  call(11, '{"tool":"\\q","arguments":{}}'),
  call(12, '{"tool":"\\u12","arguments":{}}'),
  call(14, '{"tool":"a\u0000b","arguments":{}}'),
  call(15, '{"tool":"t","arguments":{}}') + "\u0000",
  call(16, '{"tool":"t","arguments":{"a\u0001":1}}'),
  call(17, '{"tool":"t","arguments":{"n":1e999}}'),
  call(18, '{"tool":"t","arguments":{"n":-}}'),
  '{"jsonrpc":"2.0","id":-,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}',
  '{"jsonrpc":"2.0","id":1e999,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}',
  '{"jsonrpc":"2.0","id":19,"id":20,"method":"hook.before_tool","params":{"tool":"a","tool":"b","arguments":{},"arguments":{"k":1}}}',
]
  .map((line) => Buffer.from(line))
  .concat([
    Buffer.concat([Buffer.from(call(13, '{"tool":"')), Buffer.from([0xff, 0xfe]), Buffer.from('","arguments":{}}')]),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(call(21, '{"tool":"t","arguments":{}}'))]),
  ]);

/** Whether a line is JSON that a hook may answer with a result: UTF-8, and read whole by JSON.parse. */
export function isJSON(line: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(line));
    return true;
  } catch {
    return false;
  }
}
