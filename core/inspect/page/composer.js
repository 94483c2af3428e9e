// The inspector's page, what it sends: a replay of a session's wire, and
// the composer's calls.
"use strict";

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
