// fuzion-sim explore: the page. It keeps the change set in its URL, asks the server for an
// answer after each change, and polls a Monte Carlo job until its last stage.
"use strict";

const S = { info: null, base: new Map(), changes: new Map(), mc: false, seq: 0, job: null };
const $ = (id) => document.getElementById(id);
const esc = (t) => String(t).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const text = (v) => (v === null || v === undefined ? "" : String(v));
const pct = (p) => (100 * p).toFixed(p > 0.001 && p < 0.999 ? 1 : 2) + "%";
const pts = (d) => (d >= 0 ? "+" : "−") + Math.abs(100 * d).toFixed(2) + " pts";
const COLOURS = ["#b03030", "#2f5fa8", "#3a8a3a", "#8a5a00", "#6a3a8a", "#2a7a7a"];

function readURL() {
  S.changes.clear();
  S.mc = false;
  for (const [k, v] of new URLSearchParams(location.search)) {
    if (k === "_mc") S.mc = v === "1";
    else if (!k.startsWith("_")) S.changes.set(k, v);
  }
}

function query() {
  const q = new URLSearchParams();
  for (const [k, v] of S.changes) q.append(k, v);
  if (S.mc) q.append("_mc", "1");
  return q.toString();
}

function writeURL() {
  const q = query();
  history.replaceState(null, "", q ? "?" + q : location.pathname);
  $("save").href = "/api/yaml" + (q ? "?" + q : "");
}

function control(c) {
  const div = document.createElement("div");
  div.className = "ctl";
  div.dataset.path = c.path;
  const id = "c-" + c.path.replace(/[^A-Za-z0-9]/g, "_");
  const tip = c.path + (c.description ? " — " + c.description : "");
  let input;
  if (c.kind === "choice" || c.kind === "bool") {
    input = document.createElement("select");
    const opts = c.kind === "bool" ? ["true", "false"] : c.choices.map(text);
    if (c.value === null || c.value === undefined) opts.unshift("");
    for (const o of opts) {
      const el = document.createElement("option");
      el.value = o;
      el.textContent = o === "" ? "(default)" : o;
      input.appendChild(el);
    }
  } else {
    input = document.createElement("input");
    if (c.kind === "number") {
      input.type = "number";
      if (c.min !== null && c.min !== undefined) input.min = c.min;
      if (c.max !== null && c.max !== undefined) input.max = c.max;
      input.step = c.integer ? "1" : "any";
    } else {
      input.type = "text";
      if (c.choices && c.choices.length) {
        const list = document.createElement("datalist");
        list.id = id + "-list";
        for (const o of c.choices) {
          const el = document.createElement("option");
          el.value = o;
          list.appendChild(el);
        }
        div.appendChild(list);
        input.setAttribute("list", list.id);
      }
    }
    if (c.value === null || c.value === undefined) input.placeholder = "(default)";
  }
  input.id = id;
  input.title = tip;
  input.addEventListener("change", () => change(c.path, input.value));
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = c.label;
  label.title = tip;
  const undo = document.createElement("button");
  undo.type = "button";
  undo.textContent = "↺";
  undo.title = "Back to the base value";
  undo.addEventListener("click", () => change(c.path, null));
  div.append(label, input, undo);
  S.base.set(c.path, text(c.value));
  return div;
}

function renderControls() {
  const root = $("controls");
  root.textContent = "";
  const sides = S.info.sides;
  for (const g of S.info.groups) {
    if (!g.controls.length && !g.more.length) continue;
    const fs = document.createElement("fieldset");
    if (g.side !== null) fs.className = "side-" + sides.indexOf(g.side);
    const lg = document.createElement("legend");
    lg.textContent = g.title;
    fs.appendChild(lg);
    for (const c of g.controls) fs.appendChild(control(c));
    if (g.more.length) {
      const det = document.createElement("details");
      const sum = document.createElement("summary");
      sum.textContent = `${g.more.length} more (defaults)`;
      det.appendChild(sum);
      for (const c of g.more) det.appendChild(control(c));
      fs.appendChild(det);
    }
    root.appendChild(fs);
  }
  if (S.info.hidden_members) {
    const p = document.createElement("p");
    p.textContent = `${S.info.hidden_members} more members: change them through the URL (key paths).`;
    root.appendChild(p);
  }
}

function showValues() {
  for (const div of document.querySelectorAll(".ctl")) {
    const path = div.dataset.path;
    const input = div.querySelector("input, select");
    const changed = S.changes.has(path);
    const v = changed ? S.changes.get(path) : S.base.get(path);
    if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === v)) {
      const el = document.createElement("option");
      el.value = v;
      el.textContent = v;
      input.appendChild(el);
    }
    input.value = v;
    div.classList.toggle("changed", changed);
    div.classList.remove("bad");
    if (changed && div.parentElement.tagName === "DETAILS") div.parentElement.open = true;
  }
  const list = [...S.changes].map(([k, v]) => `${k}=${v}`);
  $("changes").textContent = list.length ? "Changed: " + list.join(", ") : "The base scenario";
  $("mc").checked = S.mc;
}

function change(path, value) {
  if (value === null || value === S.base.get(path) || (value === "" && S.base.get(path) === "")) S.changes.delete(path);
  else S.changes.set(path, value);
  writeURL();
  showValues();
  ask();
}

async function ask() {
  const seq = ++S.seq;
  S.job = null;
  const answer = $("answer");
  answer.dataset.state = "asking";
  let reply;
  try {
    const r = await fetch("/api/answer", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ changes: [...S.changes], mc: S.mc }),
    });
    reply = await r.json();
  } catch (err) {
    reply = { ok: false, error: "fuzion-sim: error: the explorer's server does not answer (" + err + ")" };
  }
  if (seq !== S.seq) return;
  if (!reply.ok) {
    $("error").textContent = reply.error;
    $("error").hidden = false;
    answer.dataset.state = "error";
    for (const [k] of S.changes) {
      if (reply.error.includes(k + ":") || reply.error.includes(k + "'")) {
        const div = document.querySelector(`.ctl[data-path="${CSS.escape(k)}"]`);
        if (div) div.classList.add("bad");
      }
    }
    return;
  }
  $("error").hidden = true;
  $("warnings").textContent = (reply.warnings || []).map((w) => "warning: " + w).join("\n");
  if (reply.answer) {
    render(reply.answer, null);
    answer.dataset.state = "exact";
    return;
  }
  S.job = reply.job;
  poll(reply.job, seq);
}

async function poll(job, seq) {
  let failures = 0;
  while (S.job === job && seq === S.seq) {
    let snap;
    try {
      snap = await (await fetch("/api/job?id=" + encodeURIComponent(job))).json();
      failures = 0;
    } catch (err) {
      if (++failures >= 5) {
        $("error").textContent = "fuzion-sim: error: the explorer's server does not answer (" + err + ")";
        $("error").hidden = false;
        $("answer").dataset.state = "error";
        return;
      }
      await new Promise((ok) => setTimeout(ok, 300));
      continue;
    }
    if (S.job !== job || seq !== S.seq) return;
    if (snap.state === "error") {
      $("error").textContent = snap.error;
      $("error").hidden = false;
      $("answer").dataset.state = "error";
      return;
    }
    if (snap.answer) render(snap.answer, snap);
    else $("method").textContent = `Monte Carlo: running ${snap.running_trials.toLocaleString()} trials…`;
    const done = snap.state !== "running";
    $("answer").dataset.state = done ? "done" : "running";
    $("bar").style.width = (100 * Math.min(1, (snap.answer ? snap.answer.trials : 0) / snap.cap)) + "%";
    if (done) return;
    await new Promise((ok) => setTimeout(ok, 120));
  }
}

function render(a, snap) {
  const rows = [];
  const sides = Object.keys(a.sides);
  sides.forEach((s, i) => {
    const v = a.sides[s];
    const ci = v.ci95 ? `95% ${pct(v.ci95[0])} – ${pct(v.ci95[1])}` : "exact";
    let diff = "";
    if (a.diff && a.diff.sides[s]) {
      const d = a.diff.sides[s];
      const cls = d.diff > 0 ? "up" : d.diff < 0 ? "down" : "";
      const dci = d.ci95 ? ` [${(100 * d.ci95[0]).toFixed(2)}, ${(100 * d.ci95[1]).toFixed(2)}]` : "";
      diff = `<span class="${cls}">${pts(d.diff)}</span>${dci} vs base`;
    }
    rows.push(`<tr><th style="color:${COLOURS[i % COLOURS.length]}">${esc(s)} wins</th>` +
      `<td class="p" data-side="${esc(s)}" data-p="${v.p}"` +
      (v.ci95 ? ` data-lo="${v.ci95[0]}" data-hi="${v.ci95[1]}"` : "") + `>${pct(v.p)}</td>` +
      `<td class="ci">${ci}</td><td class="diff">${diff}</td></tr>`);
  });
  const other = [];
  if (a.draw > 0) other.push(`draw ${pct(a.draw)}`);
  if (a.unresolved > 1e-9) other.push(`unresolved ${pct(a.unresolved)}`);
  if (other.length) rows.push(`<tr><th></th><td colspan="3" class="ci">${other.join(", ")}</td></tr>`);
  $("sides").innerHTML = rows.join("");
  const answer = $("answer");
  answer.dataset.query = query();
  answer.dataset.method = a.method;
  answer.dataset.trials = a.trials === null ? "" : a.trials;
  if (a.method === "exact") {
    $("method").textContent = `Exact answer (${a.detail})`;
    $("bar").style.width = "100%";
  } else {
    const more = a.done ? "final" : `refining to ${snap.cap.toLocaleString()}`;
    $("method").textContent = `Monte Carlo: ${a.trials.toLocaleString()} trials (${a.detail}), ${more}` +
      (a.diff ? "; differences paired on common random numbers" : "");
  }
  const kt = a.kill_time;
  let mean = kt.mean === null || kt.mean === undefined ? "" : `mean ${kt.mean.toFixed(2)} ${kt.unit}s`;
  if (a.diff && a.diff.kill_time_mean) {
    const d = a.diff.kill_time_mean;
    mean += ` (${d.diff >= 0 ? "+" : "−"}${Math.abs(d.diff).toFixed(2)}` +
      (d.ci95 ? ` [${d.ci95[0].toFixed(2)}, ${d.ci95[1].toFixed(2)}]` : "") + " vs base)";
  }
  $("kt-mean").textContent = mean;
  $("pmf").innerHTML = bars(kt.pmf, kt.unit);
  $("survival").innerHTML = line(kt.survival, kt.unit);
}

const W = 520, H = 170, L = 40, B = 28, T = 8, R = 10;

function axes(xmax, ymax, unit, yfmt) {
  const out = [`<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#888"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#888"/>`];
  for (let k = 0; k <= 4; k++) {
    const y = H - B - (k / 4) * (H - B - T);
    out.push(`<text x="${L - 4}" y="${y + 4}" text-anchor="end">${yfmt((k / 4) * ymax)}</text>`);
  }
  const step = Math.max(1, Math.ceil(xmax / 10));
  for (let x = 0; x <= xmax; x += step) {
    out.push(`<text x="${L + (x / xmax) * (W - L - R)}" y="${H - B + 14}" text-anchor="middle">${x}</text>`);
  }
  out.push(`<text x="${(W + L) / 2}" y="${H - 2}" text-anchor="middle">${esc(unit || "")}s</text>`);
  return out.join("");
}

function bars(pmf, unit) {
  if (!pmf.length) return "<p>No decisive fight.</p>";
  const xmax = pmf[pmf.length - 1][0] + 1, ymax = Math.max(...pmf.map((p) => p[1])) * 1.1;
  const bw = Math.max(1, (W - L - R) / xmax - 2);
  const rects = pmf.map(([t, p]) => {
    const h = (p / ymax) * (H - B - T);
    const x = L + (t / xmax) * (W - L - R) - bw / 2;
    return `<rect x="${x}" y="${H - B - h}" width="${bw}" height="${h}" fill="#3b7dd8"><title>${t}: ${pct(p)}</title></rect>`;
  });
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="kill-time distribution">${axes(xmax, ymax, unit, (v) => (100 * v).toFixed(0) + "%")}${rects.join("")}</svg>`;
}

function line(surv, unit) {
  if (!surv.length) return "";
  const xmax = surv[surv.length - 1][0] + 1;
  const pts = [[0, 1], ...surv].map(([t, s], i, a) => {
    const x = L + (t / xmax) * (W - L - R), y = H - B - s * (H - B - T);
    return i ? `H${x.toFixed(1)}V${y.toFixed(1)}` : `M${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="survival">${axes(xmax, 1, unit, (v) => (100 * v).toFixed(0) + "%")}<path d="${pts.join("")}" fill="none" stroke="#b03030" stroke-width="2"/></svg>`;
}

async function start() {
  readURL();
  S.info = await (await fetch("/api/controls")).json();
  $("title").textContent = S.info.scenario;
  $("subtitle").textContent = `${S.info.title} · ${S.info.source || ""}` + (S.info.exact ? " · exact answers available" : " · Monte Carlo");
  document.title = `${S.info.scenario} — fuzion-sim explore`;
  renderControls();
  writeURL();
  showValues();
  $("mc").addEventListener("change", () => { S.mc = $("mc").checked; writeURL(); ask(); });
  $("reset").addEventListener("click", () => { S.changes.clear(); writeURL(); showValues(); ask(); });
  ask();
}

document.addEventListener("DOMContentLoaded", start);
