// The inspector's page, its sessions: the session list, a session's
// summary and rows, the filters and the search.
"use strict";

// ---- sessions

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
