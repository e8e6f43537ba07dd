/* With --metrics: the metric table with significance against its baseline.
   With --meta: correlation tables and, where the file carries per-system points, a scatter
   plot of each metric against the human score. */
"use strict";
CP.metricsSection = function (metrics) {
  var section = CP.el("section", {id: "metrics", "aria-labelledby": "h-metrics"});
  section.appendChild(CP.el("h2", {id: "h-metrics"}, "Metrics" + (metrics.test_set ? " on " + metrics.test_set : "")));
  var systems = Object.keys(metrics.scores), sig = metrics.significance, byKey = {};
  if (sig) sig.comparisons.forEach(function (c) { byKey[c.metric + "\u0000" + c.system] = c; });
  var headers = ["Metric"].concat(systems.map(function (s) { return s + (sig && s === sig.baseline ? " (baseline)" : ""); }));
  if (sig) systems.forEach(function (s) { if (s !== sig.baseline) headers.push("Δ " + s + " [95%], p adj."); });
  var caption = sig ? "Scores; " + sig.method + ", " + sig.samples + " samples, " + sig.correction + "-corrected; ▲/▼ significant against " + sig.baseline : "Scores";
  var table = CP.table(caption, headers);
  table.id = "metric-table";
  metrics.metrics.forEach(function (metric) {
    var tr = CP.el("tr", {"data-metric": metric});
    tr.appendChild(CP.el("th", {scope: "row"}, metric));
    systems.forEach(function (s) { tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(metrics.scores[s][metric]))); });
    if (sig) systems.forEach(function (s) {
      if (s === sig.baseline) return;
      var c = byKey[metric + "\u0000" + s];
      tr.appendChild(CP.el("td", {"class": "num" + (c && c.significant ? " sig" : "")}, c
        ? CP.signed(c.difference) + " [" + CP.signed(c.interval[0]) + ", " + CP.signed(c.interval[1]) + "], p " + CP.fmt(c.p_adjusted) + (c.significant ? " " + CP.sigSymbol(c.difference) : "")
        : "–"));
    });
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  return section;
};

CP.metaSection = function (meta) {
  var section = CP.el("section", {id: "meta", "aria-labelledby": "h-meta"});
  section.appendChild(CP.el("h2", {id: "h-meta"}, "Meta-evaluation: correlation with human judgments (" + meta.level + " level, n = " + meta.n + ")"));
  meta.warnings.forEach(function (w) { section.appendChild(CP.el("p", {"class": "warning"}, "warning: " + w)); });
  var table = CP.table("Correlations with " + (meta.judgments || "human") + " scores; intervals: " + meta.ci, ["Metric"].concat(meta.criteria));
  table.id = "meta-table";
  Object.keys(meta.results).forEach(function (metric) {
    var tr = CP.el("tr", {"data-metric": metric});
    tr.appendChild(CP.el("th", {scope: "row"}, metric));
    meta.criteria.forEach(function (criterion) {
      var value = meta.results[metric][criterion], text = "–";
      if (value && typeof value === "object") {
        var r = value.r !== undefined ? value.r : value.accuracy;
        text = CP.fmt(r) + (value.ci ? " [" + CP.fmt(value.ci[0]) + ", " + CP.fmt(value.ci[1]) + "]" : "");
      } else if (typeof value === "number") text = CP.fmt(value);
      tr.appendChild(CP.el("td", {"class": "num"}, text));
    });
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  if (!meta.points) {
    section.appendChild(CP.el("p", {"class": "note"}, "This meta JSON has no per-system scores (\"points\"), so no scatter plot is drawn."));
    return section;
  }
  Object.keys(meta.points.metrics).forEach(function (metric) { section.appendChild(CP.scatter(metric, meta.points.metrics[metric], meta.points.human)); });
  return section;
};

/* One metric against the human score, a labelled point per system, with its table. */
CP.scatter = function (metric, metricScores, human) {
  var names = Object.keys(human).filter(function (n) { return typeof metricScores[n] === "number" && typeof human[n] === "number"; });
  var figure = CP.el("figure", {"class": "scatter", "data-metric": metric});
  var w = 420, h = 300, pad = 44, xs = names.map(function (n) { return metricScores[n]; }), ys = names.map(function (n) { return human[n]; });
  var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  var px = function (v) { return pad + (v - x0) / (x1 - x0) * (w - 2 * pad); }, py = function (v) { return h - pad - (v - y0) / (y1 - y0) * (h - 2 * pad); };
  var svg = CP.svg("svg", {viewBox: "0 0 " + w + " " + h, width: w, height: h, role: "img", "aria-label": metric + " against human score; table follows"});
  svg.appendChild(CP.svg("rect", {x: pad, y: pad / 2, width: w - 2 * pad, height: h - 1.5 * pad, fill: "none", stroke: "#999"}));
  svg.appendChild(CP.svg("text", {x: w / 2, y: h - 8, "text-anchor": "middle", "class": "tick"}, metric));
  svg.appendChild(CP.svg("text", {x: 12, y: h / 2, "class": "tick", transform: "rotate(-90 12 " + h / 2 + ")", "text-anchor": "middle"}, "human"));
  names.forEach(function (name, i) {
    svg.appendChild(CP.marker(i, px(metricScores[name]), py(human[name]), 4));
    svg.appendChild(CP.svg("text", {x: px(metricScores[name]) + 6, y: py(human[name]) - 6, "class": "point-label"}, name));
  });
  figure.appendChild(svg);
  var table = CP.table(metric + " and human score per system", ["System", metric, "human"]);
  names.forEach(function (name) {
    var tr = CP.el("tr");
    tr.appendChild(CP.el("th", {scope: "row"}, name));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(metricScores[name])));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(human[name])));
    table.tBodies[0].appendChild(tr);
  });
  figure.appendChild(table);
  return figure;
};

/* The suite's audit (checkpoints audit): how far each category's score can be trusted. */
CP.auditSection = function (audit) {
  var section = CP.el("section", {id: "audit", "aria-labelledby": "h-audit"});
  section.appendChild(CP.el("h2", {id: "h-audit"}, "How far the suite can be trusted"));
  section.appendChild(CP.el("p", {"class": "note"}, audit.summary));
  section.appendChild(CP.el("p", {"class": "note"},
    "Reference: the reference's own text scored as a system (a correct translation scores 1). Sensitivity: how far a " +
    "category falls when every target word of its own part of speech is replaced by another of that part of speech " +
    "(ideal 1); leakage: the largest fall when another part of speech is replaced (ideal 0). Gaps: share of references " +
    "with a gap (*); whole: share of whole-sentence references; DM: mean dictionary matching degree. Word categories " +
    "below sensitivity " + audit.min_sensitivity + " are marked."));
  var table = CP.table("Audit per category (substitution seed " + audit.seed + ")",
    ["Category", "Level", "Check-points", "Reference", "Own class", "Sensitivity", "Leakage", "Gaps", "Whole", "DM"]);
  table.id = "audit-table";
  var weak = {};
  audit.low_sensitivity.forEach(function (name) { weak[name] = true; });
  audit.categories.forEach(function (c) {
    var tr = CP.el("tr", {"data-category": c.category, "class": weak[c.category] ? "weak" : ""});
    tr.appendChild(CP.el("th", {scope: "row"}, c.category));
    tr.appendChild(CP.el("td", {}, c.level));
    tr.appendChild(CP.el("td", {"class": "num"}, String(c.checkpoints)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(c.reference_score)));
    tr.appendChild(CP.el("td", {}, c.own_class || "–"));
    tr.appendChild(CP.el("td", {"class": "num"}, c.sensitivity === null ? "–" : CP.fmt(c.sensitivity) + (weak[c.category] ? " !" : "")));
    tr.appendChild(CP.el("td", {"class": "num"}, c.leakage === null ? "–" : CP.fmt(c.leakage) + " (" + c.leak_class + ")"));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(c.gapped)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(c.sentence_references)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(c.mean_dm)));
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  return section;
};
