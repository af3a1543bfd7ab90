// The comparison report's script (bench/html.py inlines it): it reads the runs from the page's
// JSON and draws the summary, the runs table (sort, filter, details on click), the cactus plot
// and the scatter plot as plain DOM and SVG. No library, no network.
"use strict";
(function () {
  // the columns, the series colours and the answers' cut are declared in bench/columns.py
  const { columns: declared, colours: COLOURS, points: [POINT, WRONG_POINT], answer_chars: ANSWER_CHARS, sets } = JSON.parse(document.getElementById("report-data").textContent);
  const multi = sets.length > 1;
  const SVG = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent, text) {
    const node = name.startsWith("svg:") ? document.createElementNS(SVG, name.slice(4)) : document.createElement(name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  // every number with its thousands separated by commas, as the terminal's tables have them
  const places = (digits) => ({ minimumFractionDigits: digits, maximumFractionDigits: digits });
  const fmt = (v, digits) => (v === null || v === undefined ? "" : typeof v === "number" ? v.toLocaleString("en", digits === undefined ? {} : places(digits)) : String(v));
  const seconds = (v) => (v === null || v === undefined ? "" : v < 0.001 ? v.toExponential(1) : fmt(v, v < 10 ? 4 : 2));
  const cut = (text) => (text.length > ANSWER_CHARS ? text.slice(0, ANSWER_CHARS - 1) + "…" : text);
  // how a cell of each kind of column reads (bench/columns.py's Kind)
  const SHOW = {
    seconds: seconds,
    megabytes: (v) => fmt(v, 0),
    answer: (v) => (Array.isArray(v) ? cut(JSON.stringify(v)) : fmt(v)),
    flag: (v) => (v === null || v === undefined ? "" : v ? "yes" : "no"),
  };
  const NUMERIC = new Set(["integer", "seconds", "megabytes"]);
  const EXTRA = { status: { cls: (g) => "status-" + (g.status || "").replace(/\s/g, "-") }, check: { cls: () => "check" } };

  // -- series: one per backend of each set ------------------------------------------------
  const series = [];
  sets.forEach((s, i) => {
    const backends = [...new Set(s.rows.map((r) => r.backend))];
    for (const b of backends) {
      series.push({ set: i, backend: b, name: multi ? `${s.name}: ${b}` : b, rows: s.rows.filter((r) => r.backend === b) });
    }
  });
  series.forEach((s, i) => (s.colour = COLOURS[i % COLOURS.length]));

  // -- summary -----------------------------------------------------------------------------
  const summaryBox = document.getElementById("summary-tables");
  sets.forEach((s) => {
    if (multi) el("h3", {}, summaryBox, s.name);
    const t = el("table", { class: "summary" }, summaryBox);
    const head = el("tr", {}, el("thead", {}, t));
    const cols = ["backend", "runs", "solved", "unknown", "wrong", "total s", "median s", "PAR-2"];
    cols.forEach((c, k) => el("th", { class: k ? "num" : "" }, head, c));
    const body = el("tbody", {}, t);
    for (const x of s.summary) {
      const tr = el("tr", { class: x.wrong ? "wrong" : "" }, body);
      const cells = [x.backend, fmt(x.runs) + (x.unsupported ? ` (+${fmt(x.unsupported)} n/a)` : ""), fmt(x.solved), fmt(x.unknown), fmt(x.wrong),
        fmt(x.total_seconds, 3), x.median_seconds === null ? "-" : seconds(x.median_seconds), x.par2 === null ? "-" : fmt(x.par2, 2)];
      cells.forEach((c, k) => el("td", { class: k ? "num" + (k === 4 ? " check" : "") : "" }, tr, c));
    }
    el("p", {}, summaryBox, s.limit === null ? "No time limit: PAR-2 needs one." :
      `Time limit ${fmt(s.limit)} s. PAR-2: the time of each solved run, twice the limit for every other (unknown or wrong).`);
  });

  // -- runs table ----------------------------------------------------------------------------
  const byKey = new Map();
  sets.forEach((s, i) => {
    for (const r of s.rows) {
      const key = r.instance + "\u0000" + r.backend;
      if (!byKey.has(key)) byKey.set(key, { instance: r.instance, n: r.n, piece: r.piece, backend: r.backend, task: r.task, groups: sets.map(() => null), order: byKey.size });
      byKey.get(key).groups[i] = r;
    }
  });
  const lines = [...byKey.values()];
  lines.forEach((l) => (l.wrong = l.groups.some((g) => g && g.wrong)));

  const asColumn = (d) => ({ label: d.label, get: (r) => r[d.name], num: NUMERIC.has(d.kind), show: SHOW[d.kind], ...(EXTRA[d.name] || {}) });
  const fixed = declared.filter((d) => d.page && d.run).map(asColumn);
  const perSet = declared.filter((d) => d.page && !d.run).map(asColumn);
  const columns = [...fixed.map((c) => ({ ...c, value: c.get }))];
  sets.forEach((_, i) => perSet.forEach((c, k) => columns.push({
    ...c, set: i, first: k === 0, value: (l) => (l.groups[i] ? c.get(l.groups[i]) : null),
  })));

  const table = document.getElementById("runs-table");
  const thead = table.querySelector("thead");
  const tbody = table.querySelector("tbody");
  if (multi) {
    const top = el("tr", {}, thead);
    el("th", { colspan: fixed.length }, top);
    sets.forEach((s) => el("th", { colspan: perSet.length, class: "group first-of-group" }, top, s.name));
  }
  const headRow = el("tr", {}, thead);
  let sortBy = null;
  let ascending = true;
  columns.forEach((c, k) => {
    const th = el("th", { class: "sortable" + (c.num ? " num" : "") + (c.first && multi ? " first-of-group" : ""), "data-column": k, title: "sort" }, headRow, c.label);
    th.addEventListener("click", () => {
      ascending = sortBy === k ? !ascending : true;
      sortBy = k;
      render();
    });
  });

  const backendSelect = document.getElementById("filter-backend");
  const statusSelect = document.getElementById("filter-status");
  const textInput = document.getElementById("filter-text");
  [...new Set(lines.map((l) => l.backend))].forEach((b) => el("option", { value: b }, backendSelect, b));
  const statuses = new Set();
  lines.forEach((l) => l.groups.forEach((g) => g && g.status && statuses.add(g.status)));
  [...statuses, "wrong"].forEach((s) => el("option", { value: s }, statusSelect, s));
  [backendSelect, statusSelect].forEach((x) => x.addEventListener("change", render));
  textInput.addEventListener("input", render);

  function compare(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined || a === "") return 1; // blanks last, either way
    if (b === null || b === undefined || b === "") return -1;
    const r = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b), "en", { numeric: true });
    return ascending ? r : -r;
  }

  function visible(l) {
    if (backendSelect.value && l.backend !== backendSelect.value) return false;
    const want = statusSelect.value;
    if (want === "wrong" && !l.wrong) return false;
    if (want && want !== "wrong" && !l.groups.some((g) => g && g.status === want)) return false;
    const text = textInput.value.trim().toLowerCase();
    if (!text) return true;
    const hay = [l.instance, l.backend, l.piece, ...l.groups.flatMap((g) => (g ? [g.answer, g.check, g.status, g.reason] : []))];
    return hay.some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(text));
  }

  function render() {
    let shown = lines.filter(visible);
    const natural = (a, b) => String(a).localeCompare(String(b), "en", { numeric: true });
    // wrong answers first, then by instance and backend (not in the order the runs ended)
    if (sortBy === null) shown.sort((a, b) => (b.wrong - a.wrong) || natural(a.instance, b.instance) || natural(a.backend, b.backend));
    else shown.sort((a, b) => compare(columns[sortBy].value(a), columns[sortBy].value(b)) || (a.order - b.order));
    headRow.querySelectorAll("th").forEach((th, k) => {
      th.classList.toggle("sorted-asc", k === sortBy && ascending);
      th.classList.toggle("sorted-desc", k === sortBy && !ascending);
    });
    tbody.replaceChildren();
    for (const l of shown) {
      const tr = el("tr", { class: "run" + (l.wrong ? " wrong" : "") }, tbody);
      for (const c of columns) {
        const g = c.set === undefined ? null : l.groups[c.set];
        const v = c.value(l);
        let cls = (c.num ? "num" : "") + (c.first && multi ? " first-of-group" : "");
        if (g && c.cls) cls += " " + c.cls(g);
        el("td", { class: cls.trim() }, tr, c.show ? c.show(v) : fmt(v));
      }
      tr.addEventListener("click", () => toggleDetails(tr, l));
    }
    document.getElementById("shown").textContent = `${shown.length} of ${lines.length} shown`;
  }

  function toggleDetails(tr, l) {
    const next = tr.nextElementSibling;
    if (next && next.classList.contains("details")) { next.remove(); return; }
    const row = el("tr", { class: "details" });
    // every column of the results file, the whole answer included
    const cell = el("td", { colspan: columns.length }, row);
    l.groups.forEach((g, i) => {
      if (!g) return;
      if (multi) el("h4", {}, cell, sets[i].name);
      const dl = el("dl", { class: "run-details" }, cell);
      for (const d of declared) {
        el("dt", {}, dl, d.label);
        const v = g[d.name];
        el("dd", {}, dl, v === null || v === undefined ? "-" : d.kind === "answer" ? JSON.stringify(v) : d.kind === "flag" ? SHOW.flag(v) : fmt(v));
      }
    });
    tr.after(row);
  }

  // -- plots -----------------------------------------------------------------------------------
  const tooltip = document.getElementById("tooltip");
  function showTip(event, text) {
    tooltip.textContent = text;
    tooltip.hidden = false;
    tooltip.style.left = event.clientX + 12 + "px";
    tooltip.style.top = event.clientY + 12 + "px";
  }
  const hideTip = () => (tooltip.hidden = true);

  function logScale(lo, hi, a, b) {
    const l0 = Math.log10(lo), l1 = Math.log10(hi);
    return (v) => a + ((Math.log10(Math.max(v, lo)) - l0) / (l1 - l0 || 1)) * (b - a);
  }
  function decades(lo, hi) {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(Math.pow(10, e));
    return out;
  }
  const tickText = (v) => (v >= 1 ? String(v) : v.toExponential(0));

  function legend(after, list) {
    const ul = el("ul", { class: "legend" });
    for (const s of list) {
      const li = el("li", {}, ul);
      el("span", { class: "swatch", style: `background:${s.colour}` }, li);
      li.appendChild(document.createTextNode(s.name));
    }
    after.parentNode.appendChild(ul);
  }

  function cactus() {
    const svg = document.getElementById("cactus");
    const W = +svg.getAttribute("width"), H = +svg.getAttribute("height"), L = 56, R = 12, T = 10, B = 36;
    const solved = series.map((s) => ({ ...s, times: s.rows.filter((r) => r.solved && r.seconds !== null).map((r) => Math.max(r.seconds, 1e-6)).sort((a, b) => a - b) }));
    const all = solved.flatMap((s) => s.times);
    if (!all.length) { el("svg:text", { x: 20, y: 30 }, svg, "no solved runs"); return; }
    const lo = Math.min(...all), hi = Math.max(...all);
    const ylo = Math.pow(10, Math.floor(Math.log10(lo))), yhi = Math.pow(10, Math.ceil(Math.log10(hi)));
    const most = Math.max(...solved.map((s) => s.times.length));
    const x = (k) => L + ((k - 1) / Math.max(most - 1, 1)) * (W - L - R);
    const y = logScale(ylo, yhi, H - B, T);
    const axes = el("svg:g", { class: "axis" }, svg);
    for (const v of decades(ylo, yhi)) {
      el("svg:line", { class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }, axes);
      el("svg:text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, axes, tickText(v));
    }
    el("svg:line", { x1: L, x2: L, y1: T, y2: H - B }, axes);
    el("svg:line", { x1: L, x2: W - R, y1: H - B, y2: H - B }, axes);
    const step = Math.max(1, Math.ceil(most / 8));
    for (let k = 1; k <= most; k += step) el("svg:text", { x: x(k), y: H - B + 15, "text-anchor": "middle" }, axes, k);
    el("svg:text", { x: (L + W) / 2, y: H - 4, "text-anchor": "middle" }, axes, "solved runs (k-th fastest)");
    el("svg:text", { x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, "text-anchor": "middle" }, axes, "seconds");
    for (const s of solved) {
      if (!s.times.length) continue;
      const pts = s.times.map((t, k) => `${x(k + 1)},${y(t)}`).join(" ");
      el("svg:polyline", { points: pts, fill: "none", stroke: s.colour, "stroke-width": 2, class: "series", "data-series": s.name }, svg);
      s.times.forEach((t, k) => {
        const c = el("svg:circle", { cx: x(k + 1), cy: y(t), r: 2.5, fill: s.colour }, svg);
        c.addEventListener("mouseenter", (e) => showTip(e, `${s.name}: #${k + 1} in ${seconds(t)} s`));
        c.addEventListener("mouseleave", hideTip);
      });
    }
    legend(svg, solved);
  }

  const xSelect = document.getElementById("scatter-x");
  const ySelect = document.getElementById("scatter-y");
  series.forEach((s, i) => {
    el("option", { value: i }, xSelect, s.name);
    el("option", { value: i }, ySelect, s.name);
  });
  ySelect.value = series.length > 1 ? 1 : 0;
  [xSelect, ySelect].forEach((x) => x.addEventListener("change", scatter));

  function scatter() {
    const svg = document.getElementById("scatter");
    svg.replaceChildren();
    const a = series[+xSelect.value], b = series[+ySelect.value];
    if (!a || !b) return;
    const mine = (s) => new Map(s.rows.map((r) => [r.instance, r]));
    const ra = mine(a), rb = mine(b);
    const pairs = [...ra.keys()].filter((k) => rb.has(k)).map((k) => [k, ra.get(k), rb.get(k)]);
    const W = +svg.getAttribute("width"), H = +svg.getAttribute("height"), L = 56, R = 12, T = 10, B = 40;
    const times = pairs.flatMap(([, p, q]) => [p, q]).filter((r) => r.solved && r.seconds !== null).map((r) => Math.max(r.seconds, 1e-6));
    if (!times.length) { el("svg:text", { x: 20, y: 30 }, svg, "no instance solved by either"); return; }
    const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...times))));
    const limit = sets[a.set].limit || sets[b.set].limit;
    const top = limit ? Math.max(limit, Math.max(...times)) : Math.max(...times) * 2; // unsolved runs sit at the top
    const hi = Math.pow(10, Math.ceil(Math.log10(top)));
    const x = logScale(lo, hi, L, W - R), y = logScale(lo, hi, H - B, T);
    const axes = el("svg:g", { class: "axis" }, svg);
    for (const v of decades(lo, hi)) {
      el("svg:line", { class: "grid", x1: x(v), x2: x(v), y1: T, y2: H - B }, axes);
      el("svg:line", { class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }, axes);
      el("svg:text", { x: x(v), y: H - B + 15, "text-anchor": "middle" }, axes, tickText(v));
      el("svg:text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, axes, tickText(v));
    }
    el("svg:line", { class: "diagonal", x1: x(lo), y1: y(lo), x2: x(hi), y2: y(hi) }, axes);
    el("svg:text", { x: (L + W) / 2, y: H - 6, "text-anchor": "middle" }, axes, `${a.name} (s)`);
    el("svg:text", { x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, "text-anchor": "middle" }, axes, `${b.name} (s)`);
    const at = (r) => (r.solved && r.seconds !== null ? Math.max(r.seconds, 1e-6) : top);
    const said = (r) => (r.solved && r.seconds !== null ? `${seconds(r.seconds)} s` : r.status || "?");
    for (const [instance, p, q] of pairs) {
      const c = el("svg:circle", { class: "point", cx: x(at(p)), cy: y(at(q)), r: 4, fill: p.wrong || q.wrong ? WRONG_POINT : POINT, "data-instance": instance }, svg);
      el("svg:title", {}, c, instance);
      c.addEventListener("mouseenter", (e) => showTip(e, `${instance}: ${a.name} ${said(p)}, ${b.name} ${said(q)}`));
      c.addEventListener("mouseleave", hideTip);
    }
  }

  // -- settings ----------------------------------------------------------------------------------
  const box = document.getElementById("settings-lists");
  sets.forEach((s) => {
    if (multi) el("h3", {}, box, s.name);
    const keys = Object.keys(s.settings);
    if (!keys.length) { el("p", {}, box, "Not recorded with these results."); return; }
    const dl = el("dl", { class: "settings" }, box);
    for (const k of keys) {
      el("dt", {}, dl, k);
      const v = s.settings[k];
      el("dd", {}, dl, v === null ? "none" : typeof v === "object" ? (Array.isArray(v) ? v.join(", ") : Object.entries(v).map(([p, q]) => `${p} ${q}`).join(", ")) : String(v));
    }
  });

  render();
  cactus();
  scatter();
})();
