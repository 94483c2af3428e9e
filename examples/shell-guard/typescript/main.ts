// The shell guard in TypeScript, served on stdin and stdout:
// `node dist/main.js`. The same decisions as the Python and Go forms
// (cases.json holds all three to them).
//
// It looks only at the canonical kind of a call, never at a tool's name, and
// it decides on the programs the shell would run, as readShell reads the
// line, not on its text: `rm --recursive x`, `r\m -rf x` and
// `sudo bash -c 'rm -rf x'` are recursive deletes, `echo 'rm -rf /'` is an
// echo. What the reader cannot know (`$RM -rf x`, `curl x | sh`) is refused:
// a guard that cannot read a command does not let it run.
import { canonicalTool, continue_, denyTool, Hook, modify, readShell, type ShellCommand } from "hookwire";

/** The devices a command may write to: they hold no one's data. */
const HARMLESS_DEVICES = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"];
/** NAME=value where the name ends in TOKEN, SECRET, PASSWORD or KEY. */
const SECRET = /\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY))=\S+/g;

/** What makes one command dangerous, or undefined. */
function danger(c: ShellCommand): string | undefined {
  if (c.name === "rm") {
    if (c.hasFlag("r", "recursive") || c.hasFlag("R", "recursive")) return "a recursive delete";
    // hasFlag skips what only the shell knows: "$FLAGS" may be -r.
    const dashes = c.args.indexOf("--");
    const end = dashes < 0 ? c.args.length : dashes;
    if (c.dynamic.some((i) => i > 0 && i < end)) return "a delete whose options are known only when it runs";
  }
  if (c.name === "find" && c.args.slice(1).includes("-delete")) return "a delete by find";
  if (c.name.startsWith("mkfs")) return "formatting a file system";
  if (c.name === "dd" && c.args.slice(1).some((a) => a.startsWith("of=/dev/"))) return "a raw write to a device";
  for (const r of c.redirects) {
    if (r.op.includes(">") && device(r.target)) return `a write to the device ${r.target}`;
  }
  return undefined;
}

/** Whether a redirect's target is a device that holds data. */
function device(target: string): boolean {
  if (!target.startsWith("/dev/") || target.startsWith("/dev/fd/")) return false;
  return !HARMLESS_DEVICES.includes(target);
}

/** Why the command must not run, or undefined to let it through. */
export function verdict(command: string): string | undefined {
  const reading = readShell(command);
  if (reading.unknown.length > 0) {
    const why = reading.unknown.map((u) => `${u.reason} (${clip(u.text)})`).join("; ");
    return `command refused, it cannot be read: ${why}`;
  }
  for (const c of reading.commands) {
    const found = danger(c);
    if (found !== undefined) {
      const via = c.via === "" ? "" : `, run by ${c.via}`;
      return `dangerous command blocked: ${clip(c.args.join(" "))} (${found}${via})`;
    }
  }
  return undefined;
}

/** A reason is read by a person and a model: a line of 1 MiB is neither's. */
function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length <= 300 ? text : `${chars.slice(0, 300).join("")}...`;
}

const hook = new Hook("shell-guard")
  .beforeTool((call) => {
    const use = canonicalTool(call);
    if (use.kind !== "shell") return continue_();
    const reason = verdict(use.command ?? "");
    return reason === undefined ? continue_() : denyTool(reason);
  })
  .afterTool((ran) => {
    const result = ran.result;
    if (canonicalTool(ran).kind !== "shell" || result === undefined) return continue_();
    const masked = result.for_llm.replace(SECRET, "$1=***");
    if (masked === result.for_llm) return continue_();
    return modify(ran, { result: { ...result, for_llm: masked } });
  });

hook.run();
