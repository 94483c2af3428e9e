// The inspector's page, its timeline: the rows in view, an opened row's
// detail, a turn's spans, the call again as a command.
"use strict";

// ---- the timeline: only the rows in view are in the document, drawn anew
// at each scroll or change; a row is picked on mousedown, since the row
// under the pointer may be another node by the mouseup.

// drawn are the row nodes in the document, by position in shown: a node
// stays as long as its row does not change, so that what is under the
// pointer or the keyboard is not replaced behind it.
let drawn = new Map();

function draw() {
  const t = $("#timeline");
  const first = Math.max(0, Math.floor(t.scrollTop / ROW) - 5);
  const last = Math.min(state.shown.length, Math.ceil((t.scrollTop + t.clientHeight) / ROW) + 5);
  const next = new Map();
  for (let i = first; i < last; i++) {
    const r = state.shown[i];
    const old = drawn.get(i);
    // A turn's row shows whether it is unfolded: it is drawn anew.
    next.set(i, old && old.row === r && r.type !== "turn" ? old : { row: r, node: rowNode(r, i) });
  }
  for (const [i, d] of drawn) if (next.get(i) !== d) d.node.remove();
  for (const [i, d] of next) {
    d.node.setAttribute("aria-selected", String(i === state.selected));
    if (!d.node.isConnected) t.append(d.node);
  }
  drawn = next;
}

function rowNode(r, i) {
  const parts = [el("span", { class: "type" }, r.type === "turn" ? "turn " + r.turn : r.type)];
  const v = r.verdict ? " v-" + r.verdict : "";
  if (r.type === "call") {
    // Every method is hook.X: the row shows X, the room goes to the argument.
    parts.push(el("span", { class: "hook" }, r.hook), el("span", { class: "method", title: r.method }, r.method.replace(/^hook\./, "")));
    if (r.tool) parts.push(el("span", { class: "tool" }, r.tool));
    if (r.arg) parts.push(el("code", { class: "arg", title: r.arg }, r.arg));
    parts.push(el("span", { class: "action badge" + v }, r.failed ? `failed${r.policy ? " " + r.policy : ""}` : r.action || "…"));
    if (r.reason) parts.push(el("span", { class: "reason", title: r.reason }, r.reason));
    for (const h of r.host || []) parts.push(el("span", { class: "badge host", title: h }, "host: " + h.split(" ").slice(0, 3).join(" ")));
    if (r.stderr) parts.push(el("span", { class: "badge stderr" }, `stderr ${r.stderr}`));
    if (r.failed && r.text) parts.push(el("span", { class: "text" }, r.text));
  } else if (r.type === "turn") {
    const n = (state.steps && state.steps.get(r.turn)) || 0;
    const open = $("#f-events").checked || state.open.has(r.turn);
    if (n) parts.push(el("button", { class: "fold", "aria-expanded": String(open), tabindex: "-1",
      onmousedown: (e) => { e.stopPropagation(); toggleTurn(r.turn); } }, `${open ? "▾" : "▸"} ${count(n, "step")}`));
    parts.push(el("span", { class: "text prompt", title: r.text }, r.text));
    if (r.outcome) parts.push(el("span", { class: "badge outcome o-" + r.outcome }, r.outcome));
    if (r.reason) parts.push(el("span", { class: "reason", title: r.reason }, r.reason));
  } else {
    if (r.hook) parts.push(el("span", { class: "hook" }, r.hook));
    if (r.verdict === "junk") parts.push(el("span", { class: "badge v-junk", title: "a line on the hook's stdout that is not JSON-RPC: the protocol's stdout is for its messages alone (log on stderr)" }, "not JSON-RPC"));
    parts.push(el("span", { class: "text" }, r.text || r.method || ""));
  }
  parts.push(el("span", { class: "lat" }, ms(r.latency_ns)));
  const node = el("div", { class: "row" + (r.failed ? " failed" : "") + v + (r.type === "turn" ? " turn" : "") + (r.fold ? " step" : ""), role: "option", "data-seq": r.seq, onmousedown: () => select(i) }, ...parts);
  node.style.top = i * ROW + "px";
  return node;
}

async function select(i) {
  if (i < 0 || i >= state.shown.length) return;
  state.selected = i;
  const t = $("#timeline");
  if (i * ROW < t.scrollTop) t.scrollTop = i * ROW;
  else if ((i + 1) * ROW > t.scrollTop + t.clientHeight) t.scrollTop = (i + 1) * ROW - t.clientHeight;
  draw();
  const r = state.shown[i];
  const d = await api(`/api/sessions/${state.session}/rows/${r.seq}`);
  if ((state.shown[state.selected] || {}).seq === r.seq) showDetail(d);
}

function showDetail(d) {
  const out = [el("h2", {}, d.type === "call" ? `${d.hook} ${d.method}${d.tool ? " " + d.tool : ""}` : d.type === "turn" ? `turn ${d.turn}` : d.type)];
  const facts = [];
  const failure = { open: "failed open: the host went on without the hook", closed: "failed closed: the host stopped" }[d.policy] || "failed";
  if (d.type === "call") facts.push(d.failed ? failure : `answered ${d.action || "?"}`);
  if (d.type === "turn") facts.push(d.outcome ? "ended " + d.outcome : "under way");
  if (d.latency_ns) facts.push(ms(d.latency_ns));
  if (d.time) facts.push(time(d.time));
  out.push(el("p", { class: "facts" }, facts.join(" · ")));
  if (d.failed && d.text) out.push(el("p", { class: "mismatch" }, d.text));
  if (d.arg) out.push(el("p", { class: "arg" }, el("code", {}, d.arg)));
  if (d.reason) out.push(el("p", { class: "reason" + (d.verdict ? " v-" + d.verdict : "") }, d.reason));
  if (d.verdict === "junk") out.push(el("p", { class: "mismatch" }, "Not JSON-RPC: a hook's stdout is for its messages alone; a hook logs on stderr."));
  if (d.host && d.host.length) {
    out.push(el("h3", {}, "What the host did with the reply"));
    out.push(el("ul", { class: "host" }, ...d.host.map((h) => el("li", {}, h))));
  }
  let stderr = null;
  if (d.stderr && d.stderr.length) {
    out.push(el("h3", {}, "stderr"));
    out.push(stderr = el("pre", { class: "stderr" }, d.stderr.join("\n")));
  }
  if (d.diff && d.diff.length) {
    out.push(el("h3", {}, "What the modify changed"));
    out.push(el("table", { class: "diff" },
      el("thead", {}, el("tr", {}, el("th", {}, "member"), el("th", {}, "sent"), el("th", {}, "returned"))),
      el("tbody", {}, ...d.diff.map((c) => el("tr", {},
        el("td", {}, c.path || "/"),
        el("td", { class: c.before ? "before" : "" }, c.before ? pretty(c.before) : "(absent)"),
        el("td", { class: c.after ? "after" : "" }, c.after ? pretty(c.after) : "(removed)"))))));
  }
  if (d.type === "turn") out.push(...spans(d));
  if (d.type === "call" && d.params !== undefined && d.method !== "hook.hello") out.push(callCommand(d));
  if (d.params !== undefined) out.push(el("h3", {}, "Request"), body(d.params, "request"));
  if (d.result !== undefined) out.push(el("h3", {}, "Reply"), body(d.result, "reply"));
  if (d.data !== undefined) out.push(el("h3", {}, "Data"), body(d.data, "data"));
  if (d.type !== "call" && d.type !== "turn" && d.text) out.push(el("pre", {}, d.text));
  $("#detail").replaceChildren(...out);
  $("#detail").dataset.seq = d.seq;
  // A traceback ends on what went wrong: its last line is shown.
  if (stderr) stderr.scrollTop = stderr.scrollHeight;
}

// A turn's calls as spans on one time line, from the prompt to the
// turn's end: where each began, and how long the hook took.
function spans(turn) {
  // In ns from the turn's second: a date has ms alone, the row's time has ns.
  const at = (r) => {
    if (!r.time || r.time.startsWith("0001")) return null;
    const frac = (r.time.match(/\.(\d+)/) || ["", ""])[1];
    return (Math.floor(Date.parse(r.time) / 1000) - base) * 1e9 + Number(frac.padEnd(9, "0").slice(0, 9));
  };
  const base = Math.floor(Date.parse(turn.time) / 1000) || 0;
  const start = at(turn);
  const mine = state.rows.filter((r) => r && r.turn === turn.turn && r.seq > turn.seq);
  const calls = mine.filter((r) => r.type === "call" && at(r) !== null);
  if (start === null || !calls.length) return [];
  const end = Math.max(...mine.filter((r) => at(r) !== null).map((r) => at(r) + (r.latency_ns || 0)));
  const total = Math.max(end - start, 1);
  const pct = (ns) => Math.min(100, Math.max(0, (ns / total) * 100)).toFixed(2) + "%";
  return [el("h3", {}, `Calls in time (${ms(total)} in all)`), el("div", { class: "spans" }, ...calls.map((r) => {
    const bar = el("div", { class: "bar" + (r.verdict ? " v-" + r.verdict : "") });
    bar.style.marginLeft = pct(at(r) - start);
    bar.style.width = pct(r.latency_ns || 0);
    return el("div", { class: "span", title: `${r.hook} ${r.method}${r.tool ? " " + r.tool : ""}: ${ms(r.latency_ns) || "no reply"}`, "data-seq": r.seq },
      el("span", { class: "name" }, `${r.method.replace(/^hook\./, "")}${r.tool ? " " + r.tool : ""}`),
      el("span", { class: "track" }, bar), el("span", { class: "lat" }, ms(r.latency_ns)));
  }))];
}

// The call again, as a command line: hookwire call with the hook's
// command (a run names each hook's, "NAME: COMMAND; ..."), the method and
// the params as they were sent, quoted for a POSIX shell.
const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'");
function hookCommand(d) {
  const s = state.sessions.find((x) => x.id === state.session) || {};
  let command = s.source === "recording" ? "" : s.command || "";
  if (s.kind === "run") {
    const mine = command.split("; ").find((c) => c.startsWith(d.hook + ": "));
    command = mine ? mine.slice(d.hook.length + 2) : "";
  }
  return command;
}

// The call, opened in the composer: its method and params in the form,
// its hook's command when the inspector may run it (else the one command
// it may run, if there is one), to edit and send again.
async function openInComposer(d) {
  tab("composer");
  if (!state.methods) await loadMethods();
  if (![...$("#c-method").options].some((o) => o.value === d.method)) return status(`the composer does not send ${d.method}`);
  $("#c-method").value = d.method;
  buildForm(d.params);
  const command = hookCommand(d), allowed = state.allowed || [];
  $("#c-command").value = allowed.includes(command) ? command : allowed.length === 1 ? allowed[0] : command;
  $("#c-reply").replaceChildren(el("p", { class: "hint" }, `${d.hook} ${d.method}${d.tool ? " " + d.tool : ""}, from the session's row ${d.seq}: edit it, then send.`));
}

function callCommand(d) {
  const command = hookCommand(d);
  const params = JSON.stringify(d.params);
  const line = ["hookwire", "call", "--name", quote(d.hook), "--", command || "COMMAND", quote(d.method), params.length > SHOWN ? "- < params.json" : quote(params)].join(" ");
  const pre = el("pre", { class: "call-command" }, line);
  const copy = el("button", { class: "copy" }, "copy as hookwire call");
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(line);
      copy.textContent = "copied";
    } catch {
      getSelection().selectAllChildren(pre);
      copy.textContent = "selected: copy it";
    }
  };
  const compose = el("button", { class: "compose" }, "open in composer");
  compose.onclick = () => openInComposer(d).catch((e) => status(e.message));
  return el("div", { class: "again" }, copy, compose, pre);
}
