// The inspector's page: plain JavaScript, no framework. The session list
// and the timeline are fetched as summaries; a message's body is fetched
// when its row is opened. The timeline draws only the rows in view.
//
// The page is four classic scripts, run in order (index.html): this one's
// helpers and state, then sessions.js, timeline.js and composer.js, which
// share them as globals; this one wires the page once all have run. Not
// modules: the inspector serves a file only with its token in the URL,
// which an import would not carry.
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

// One fetch of rows at a time, in order: live changes come in bursts.
let chain = Promise.resolve();
const serial = (fn) => (chain = chain.then(fn).catch((e) => status(e.message)));

function status(text) { $("#status").textContent = text; }

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
