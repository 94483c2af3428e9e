// The inspector's page: plain JavaScript, no framework. The session list
// and the timeline are fetched as summaries; a message's body is fetched
// when its row is opened. The timeline draws only the rows in view.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const ROW = 28; // px, the height of a timeline row
const $ = (sel) => document.querySelector(sel);

const state = {
  sessions: [],
  session: null, // the open session's id
  rows: [], // every row of the open session
  changes: -1, // the session's changes the rows reflect
  shown: [], // the rows that pass the filters
  selected: -1, // index in shown
  picked: false, // a session was picked; until then the newest is followed
  methods: null,
  open: new Set(), // the turns whose steps are unfolded
  hits: null, // the rows whose bodies hold the search: { q, seqs }
};

function api(path, opts = {}) {
  const sep = path.includes("?") ? "&" : "?";
  return fetch(path + sep + "token=" + encodeURIComponent(token), opts).then(async (r) => {
    if (!r.ok) {
      // A refusal of the API is JSON with its reason in error; others are text.
      const text = await r.text();
      let msg = text;
      try { msg = JSON.parse(text).error || text; } catch { /* text */ }
      throw new Error(msg || r.statusText);
    }
    return r.json();
  });
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const ms = (ns) => (ns ? (ns / 1e6).toFixed(ns < 1e7 ? 2 : 0) + " ms" : "");
const time = (t) => (t && !t.startsWith("0001") ? new Date(t).toLocaleTimeString() : "");
const pretty = (raw) => {
  if (raw == null) return "";
  const s = JSON.stringify(raw);
  return s.length > 1 << 20 ? s : JSON.stringify(raw, null, 2);
};

// A message's body: a large one shows its first 200 KB until asked for
// the rest, so that opening it stays quick.
const SHOWN = 200 << 10;
function body(raw, cls) {
  const text = pretty(raw);
  if (text.length <= SHOWN) return el("pre", { class: cls }, text);
  const pre = el("pre", { class: cls }, text.slice(0, SHOWN));
  const more = el("button", { class: "more" }, `show all ${(text.length / (1 << 20)).toFixed(1)} MB`);
  more.onclick = () => { pre.textContent = text; more.remove(); };
  return el("div", {}, pre, more);
}
// hookwire inspect takes a hook command as its words, split on spaces: no shell.
const argv = (s) => s.trim().split(/\s+/).filter(Boolean);

// ---- sessions

// One fetch of rows at a time, in order: live changes come in bursts.
let chain = Promise.resolve();
const serial = (fn) => (chain = chain.then(fn).catch((e) => status(e.message)));

function status(text) { $("#status").textContent = text; }

// A session's label: what it plays, its scenario, else its first prompt,
// else its recording's or log's name, else its command.
const quoted = (s) => (s.prompt ? `“${s.prompt}”` : "");
const label = (s) => s.scenario || quoted(s) || s.name || s.command || s.host || s.kind;

const title = (s) => `${s.host || s.kind} · ${s.scenario && s.prompt ? s.scenario + " · " + quoted(s) : label(s)}`;

// A count that is a problem when there is one: coloured by its verdict.
const tally = (n, word, verdict) => el("span", { class: n ? "n-" + verdict : "" }, count(n, word));

async function loadSessions() {
  state.sessions = await api("/api/sessions");
  $("#empty").hidden = state.sessions.length > 0;
  $("#sessions").replaceChildren(...state.sessions.slice().reverse().map((s) =>
    el("li", { tabindex: "0", "data-id": s.id, "aria-selected": String(s.id === state.session),
      onmousedown: () => serial(() => pick(s.id)), onkeydown: (e) => { if (e.key === "Enter") serial(() => pick(s.id)); } },
      el("div", { class: "label", title: label(s) }, label(s)),
      s.scenario && s.prompt ? el("div", { class: "prompt", title: s.prompt }, quoted(s)) : null,
      el("div", {}, el("b", { class: "host" }, s.host || s.kind), " ", el("span", { class: "kind" }, (s.host ? s.kind : "") + (s.source === "live" || s.source === s.kind ? "" : " · " + s.source)),
        s.ended ? null : el("span", { class: "running", title: "running" }, " ●"), " ", el("span", { class: "start" }, time(s.start))),
      s.prompt || s.name ? el("div", { class: "command", title: s.command || "" }, s.command || "") : null,
      el("div", { class: "counts" }, el("span", { class: "calls" }, count(s.calls, "call")), " · ",
        tally(s.denials, "denial", "deny"), " · ", tally(s.aborts, "abort", "abort"), " · ",
        el("span", { class: s.failures ? "failures" : "" }, count(s.failures, "failure")),
        s.junk ? " · " : null, s.junk ? tally(s.junk, "junk line", "junk") : null, s.joined ? " · joined late" : ""),
      s.outcome ? el("div", { class: "turns" }, count(s.turns, "turn") + ", the last ", el("span", { class: "outcome o-" + s.outcome }, s.outcome)) : null)));
  // Until a session is picked, the newest one is followed.
  const newest = state.sessions[state.sessions.length - 1];
  if (!state.picked && newest && newest.id !== state.session) return openSession(newest.id);
  const cur = state.sessions.find((s) => s.id === state.session);
  if (cur) $("#session-title").textContent = title(cur);
  if (cur) wireBar(cur);
  if (cur && cur.changes > state.changes) await loadRows();
}

function pick(id) {
  state.picked = true;
  return openSession(id);
}

async function openSession(id) {
  state.session = id;
  delete $("#detail").dataset.seq;
  state.rows = [];
  state.changes = -1;
  state.selected = -1;
  for (const li of document.querySelectorAll("#sessions li")) li.setAttribute("aria-selected", String(Number(li.dataset.id) === id));
  const s = state.sessions.find((x) => x.id === id);
  $("#session-title").textContent = s ? title(s) : "";
  state.open = new Set();
  state.hits = null;
  $("#replay-summary").textContent = "";
  wireBar(s);
  await loadRows();
}

// A session with lines of a hook's wire (a recording, or a live session
// of a process hook) is exported as a recording, and replayed.
function wireBar(s) {
  $("#replay-bar").hidden = !(s && s.wire);
  if (s) {
    $("#export").href = `/api/sessions/${s.id}/recording?token=${encodeURIComponent(token)}`;
    $("#export").download = (s.source === "recording" && s.name ? s.name.replace(/\.jsonl?$/, "") + "-" : "") + `session-${s.id}.jsonl`;
  }
}

// The session's tools at a glance, until a row is opened: for each, its
// calls, what came of them, and their latency.
function showSummary() {
  const tools = new Map();
  for (const r of state.rows) {
    if (!r || r.type !== "call" || !r.tool) continue;
    const t = tools.get(r.tool) || { calls: 0, deny: 0, abort: 0, failed: 0, lat: [] };
    t.calls++;
    if (r.verdict && r.verdict in t) t[r.verdict]++;
    if (r.latency_ns) t.lat.push(r.latency_ns);
    tools.set(r.tool, t);
  }
  const out = [el("p", { class: "hint" }, "Pick a row: ↑ ↓ move, / searches.")];
  if (tools.size) {
    const mid = (l) => l.slice().sort((a, b) => a - b)[Math.floor((l.length - 1) / 2)];
    out.unshift(el("h2", {}, "Tools"), el("table", { class: "tools" },
      el("thead", {}, el("tr", {}, ...["tool", "calls", "denied", "aborted", "failed", "median", "slowest"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...[...tools].sort((a, b) => b[1].calls - a[1].calls).map(([name, t]) => el("tr", { "data-tool": name },
        el("td", {}, name), el("td", {}, String(t.calls)),
        el("td", { class: t.deny ? "n-deny" : "" }, String(t.deny)), el("td", { class: t.abort ? "n-abort" : "" }, String(t.abort)),
        el("td", { class: t.failed ? "failures" : "" }, String(t.failed)),
        el("td", {}, t.lat.length ? ms(mid(t.lat)) : ""), el("td", {}, t.lat.length ? ms(Math.max(...t.lat)) : ""))))));
  }
  $("#detail").replaceChildren(...out);
}

async function loadRows() {
  const id = state.session;
  const got = await api(`/api/sessions/${id}/rows?from=${state.rows.length}&since=${state.changes}`);
  if (id !== state.session) return;
  const atEnd = isAtEnd();
  // New rows, and the rows of calls whose reply came since.
  for (const r of got.rows) state.rows[r.seq] = r;
  state.changes = got.changes;
  fillFilters();
  if ($("#f-search").value) await searchBodies();
  applyFilters(atEnd);
  if (state.selected < 0 && !$("#detail").dataset.seq) showSummary();
}

// ---- filters

const filters = ["hook", "method", "action", "tool", "verdict"];

function fillFilters() {
  for (const f of filters) {
    const sel = $("#f-" + f);
    const have = new Set([...sel.options].map((o) => o.value));
    const values = [...new Set(state.rows.map((r) => r[f]).filter(Boolean))].sort();
    for (const v of values) if (!have.has(v)) sel.append(el("option", { value: v }, v));
  }
}

// The search looks at what a row shows here, and asks the inspector for
// the rows whose request, reply or stderr hold it.
async function searchBodies() {
  const q = $("#f-search").value;
  const { seqs } = await api(`/api/sessions/${state.session}/search?q=${encodeURIComponent(q)}`);
  if ($("#f-search").value === q) state.hits = { q, seqs: new Set(seqs) };
}

let searching = 0;
function onSearch() {
  clearTimeout(searching);
  applyFilters(false);
  if (!$("#f-search").value) return;
  searching = setTimeout(() => serial(async () => { await searchBodies(); applyFilters(false); }), 120);
}

// A turn's steps and the runtime's events are folded under the turn's
// row, unless the turn is open, every event is asked for, or a search
// finds them.
function folded(r, q) {
  return r.fold && !$("#f-events").checked && !state.open.has(r.turn) && !q;
}

function toggleTurn(turn) {
  if (state.open.has(turn)) state.open.delete(turn);
  else state.open.add(turn);
  applyFilters(false);
}

function applyFilters(follow) {
  const want = Object.fromEntries(filters.map((f) => [f, $("#f-" + f).value]));
  const failed = $("#f-failed").checked;
  const q = $("#f-search").value.toLowerCase();
  const hits = state.hits && state.hits.q.toLowerCase() === q ? state.hits.seqs : new Set();
  const sel = (state.shown[state.selected] || {}).seq;
  state.steps = new Map();
  for (const r of state.rows) if (r && r.fold && r.turn) state.steps.set(r.turn, (state.steps.get(r.turn) || 0) + 1);
  state.shown = state.rows.filter((r) => r &&
    !folded(r, q) &&
    filters.every((f) => !want[f] || r[f] === want[f]) &&
    (!failed || r.failed || r.verdict === "junk") &&
    (!q || hits.has(r.seq) || [r.hook, r.method, r.action, r.tool, r.arg, r.reason, r.text, r.outcome, ...(r.host || [])].some((v) => v && v.toLowerCase().includes(q))));
  state.selected = state.shown.findIndex((r) => r.seq === sel);
  $("#count").textContent = `${state.shown.length} of ${state.rows.length}`;
  $("#spacer").style.height = state.shown.length * ROW + "px";
  if (follow) $("#timeline").scrollTop = state.shown.length * ROW;
  draw();
}

function isAtEnd() {
  const t = $("#timeline");
  return t.scrollTop + t.clientHeight >= t.scrollHeight - ROW;
}

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

// ---- replay

async function replay() {
  const summary = $("#replay-summary");
  summary.textContent = "replaying…";
  try {
    const rep = await post("/api/replay", { session: state.session, command: argv($("#replay-command").value) });
    const bad = rep.calls.filter((c) => !c.match).length;
    summary.replaceChildren(el("span", { class: bad ? "mismatch" : "match" }, bad ? `${bad} of ${rep.calls.length} calls differ` : `all ${rep.calls.length} calls match`));
    $("#detail").replaceChildren(el("h2", {}, "Replay"), ...rep.calls.map((c) => el("div", { class: "replayed" },
      el("h3", { class: c.match ? "match" : "mismatch" }, `${c.match ? "MATCH" : "DIFF"} ${c.method}${c.tool ? " " + c.tool : ""} (id ${JSON.stringify(c.id)})`),
      c.error ? el("p", { class: "mismatch" }, c.error) : null,
      c.diffs && c.diffs.length ? el("table", { class: "diff" },
        el("thead", {}, el("tr", {}, el("th", {}, "member"), el("th", {}, "recorded"), el("th", {}, "replayed"))),
        el("tbody", {}, ...c.diffs.map((x) => el("tr", {}, el("td", {}, x.path), el("td", { class: "before" }, x.recorded ? pretty(x.recorded) : "(absent)"), el("td", { class: "after" }, x.replayed ? pretty(x.replayed) : "(absent)"))))) : null)));
  } catch (e) {
    summary.textContent = e.message;
  }
}

// ---- composer: a form made from the schema of the method's params

// The commands the inspector was started with (--allow), the only ones the
// composer and a replay may run, offered as the inputs' choices.
async function loadAllowed() {
  const { commands, dirs, env } = await api("/api/allowed");
  state.allowed = commands;
  $("#allowed").replaceChildren(...commands.map((c) => el("option", { value: c })));
  $("#allowed-dirs").replaceChildren(...dirs.map((d) => el("option", { value: d })));
  const hint = commands.length ? "It runs only the commands hookwire inspect was started with: " + commands.join("; ") + "." : "It runs no command: start hookwire inspect with --allow COMMAND to let the page run one.";
  for (const h of document.querySelectorAll(".allowed-hint")) h.textContent = hint;
  // The folder and the variables come from the page too: only those the
  // inspector was started with, so that neither changes what runs.
  $(".env-hint").textContent = `It runs the hook in the inspector's folder${dirs.length > 1 ? ", or another of those of --allow-dir (Folder offers them)" : " (--allow-dir DIR adds another)"}; ` +
    (env.length ? `it sets only ${env.join(", ")} (--allow-env).` : "it sets no variable: start hookwire inspect with --allow-env NAME to set one.");
}

async function loadMethods() {
  state.methods = await api("/api/methods");
  const sel = $("#c-method");
  sel.replaceChildren(...state.methods.methods.filter((m) => !m.notification && m.name !== "hook.hello").map((m) => el("option", { value: m.name }, m.name)));
  sel.value = "hook.before_tool";
  buildForm();
}

function resolve(s) {
  const defs = state.methods.schema.$defs;
  while (s && s.$ref) s = defs[s.$ref.replace("#/$defs/", "")];
  return s || {};
}

// The form starts from params: a call's, opened in the composer, else the
// method's realistic sample.
function buildForm(params) {
  const m = state.methods.methods.find((x) => x.name === $("#c-method").value);
  const def = resolve({ $ref: "#/$defs/" + m.params });
  const sample = (params && typeof params === "object" ? params : m.sample) || {};
  const required = new Set(def.required || []);
  const fields = [];
  for (const [name, prop] of Object.entries(def.properties || {})) {
    const p = resolve(prop);
    const id = "c-field-" + name;
    const label = el("label", { for: id, class: required.has(name) ? "req" : "", title: p.description || prop.description || "" }, name);
    let input;
    const v = sample[name];
    if (p.type === "string" && p.enum) {
      input = el("select", { id, "data-kind": "string" }, el("option", { value: "" }, "(none)"), ...p.enum.map((e) => el("option", { value: e }, e)));
      input.value = v ?? "";
    } else if (p.type === "string") {
      input = el("input", { id, "data-kind": "string" });
      input.value = v ?? "";
    } else if (p.type === "integer" || p.type === "number") {
      input = el("input", { id, type: "number", "data-kind": "number" });
      input.value = v ?? "";
    } else if (p.type === "boolean") {
      input = el("select", { id, "data-kind": "json" }, el("option", { value: "" }, "(none)"), el("option", { value: "true" }, "true"), el("option", { value: "false" }, "false"));
      input.value = v === undefined ? "" : String(v);
    } else {
      input = el("textarea", { id, "data-kind": "json", rows: "3" });
      input.value = v === undefined ? "" : JSON.stringify(v, null, 1);
    }
    input.name = name;
    fields.push(label, input);
  }
  $("#c-form").replaceChildren(...fields);
}

function formParams() {
  const params = {};
  for (const input of $("#c-form").elements) {
    if (input.value === "") continue;
    const kind = input.dataset.kind;
    params[input.name] = kind === "string" ? input.value : kind === "number" ? Number(input.value) : JSON.parse(input.value);
  }
  return params;
}

async function send() {
  const out = $("#c-reply");
  out.replaceChildren(el("p", { class: "hint" }, "sending…"));
  try {
    const env = $("#c-env").value.split("\n").map((l) => l.trim()).filter(Boolean);
    const r = await post("/api/call", { command: argv($("#c-command").value), method: $("#c-method").value, params: formParams(), dir: $("#c-dir").value.trim(), env });
    out.replaceChildren(...[
      el("p", { class: r.error || r.invalid ? "mismatch" : "match", id: "c-outcome" },
        r.error ? "failed: " + r.error : r.invalid ? `${r.action}: the reply does not match the schema: ${r.invalid}` : `${r.action} (${ms(r.latency_ns)})`),
      r.reply ? el("pre", { class: "reply" }, pretty(r.reply)) : null,
      r.stderr && r.stderr.length ? el("pre", { class: "stderr" }, r.stderr.join("\n")) : null].filter(Boolean));
  } catch (e) {
    out.replaceChildren(el("p", { class: "mismatch", id: "c-outcome" }, e.message));
  }
}

// ---- wiring

function tab(name) {
  for (const t of ["sessions", "composer"]) {
    $("#tab-" + t).setAttribute("aria-selected", String(t === name));
    $("#view-" + t).hidden = t !== name;
  }
  if (name === "composer" && !state.methods) loadMethods().catch((e) => status(e.message));
}

function live() {
  const es = new EventSource("/api/live?token=" + encodeURIComponent(token));
  es.onmessage = () => serial(loadSessions);
  es.onopen = () => status("live");
  es.onerror = () => status("reconnecting…");
}

document.addEventListener("DOMContentLoaded", () => {
  $("#tab-sessions").onclick = () => tab("sessions");
  $("#tab-composer").onclick = () => tab("composer");
  for (const f of filters) $("#f-" + f).onchange = () => applyFilters(false);
  $("#f-failed").onchange = () => applyFilters(false);
  $("#f-events").onchange = () => applyFilters(false);
  $("#f-search").oninput = onSearch;
  $("#timeline").onscroll = draw;
  window.onresize = draw;
  $("#timeline").onkeydown = (e) => {
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (step) { e.preventDefault(); select(Math.max(0, Math.min(state.shown.length - 1, state.selected + step))); }
    if (e.key === "Home") { e.preventDefault(); select(0); }
    if (e.key === "End") { e.preventDefault(); select(state.shown.length - 1); }
    const r = state.shown[state.selected];
    if (r && r.type === "turn" && (e.key === "ArrowRight" || e.key === "ArrowLeft" || e.key === "Enter") && (e.key === "Enter" || state.open.has(r.turn) === (e.key === "ArrowLeft"))) {
      e.preventDefault();
      toggleTurn(r.turn);
    }
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "/" && !["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) { e.preventDefault(); $("#f-search").focus(); }
  });
  $("#replay-run").onclick = replay;
  $("#c-method").onchange = () => buildForm();
  $("#c-send").onclick = (e) => { e.preventDefault(); send(); };
  $("#open-recording").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const { id } = await post("/api/recordings", { name: file.name, recording: await file.text() });
      await serial(loadSessions);
      await serial(() => pick(id));
    } catch (err) { status(err.message); }
  };
  serial(loadSessions);
  loadAllowed().catch((e) => status(e.message));
  live();
});
