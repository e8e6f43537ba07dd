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

/* With --attribution (checkpoints attribute): do the category's misses lie where expert MQM raters
   marked errors? Per category P(error | missed), P(error | matched), their lift, the correlation over
   systems of the category score with the MQM penalty attributed to it; then examples of missed
   check-points inside a rated error, the output with its rated spans and the check-point's words. */
CP.attributionSection = function (attribution) {
  var section = CP.el("section", {id: "attribution", "aria-labelledby": "h-attribution"});
  section.appendChild(CP.el("h2", {id: "h-attribution"}, "Do missed check-points mean real errors?"));
  section.appendChild(CP.el("p", {"class": "note"},
    "Expert MQM error spans of " + attribution.systems.length + " system" + (attribution.systems.length === 1 ? "" : "s") +
    " attributed to the check-points whose source words are linked to the marked output words. " +
    CP.fmt(100 * attribution.words_in_errors, 1) + "% of the rated output words lie inside a rated error span: " +
    "the chance level of P(error). Lift = P(error | missed) / P(error | matched), with its 95% bootstrap interval " +
    "over sentence pairs: above 1, a missed check-point is more often a real error than a matched one. Pearson r, " +
    "Kendall tau: over systems, the category score against the negated MQM penalty attributed to the category. " +
    "Grey rows rest on too few check-points (hover for why)."));
  var signature = CP.el("p", {"class": "note"}, "Signature: ");
  signature.appendChild(CP.el("code", null, attribution.signature));
  section.appendChild(signature);
  var table = CP.table("Missed and matched check-points inside rated errors, pooled over systems",
    ["Category", "Check-points", "Missed", "Matched", "P(error | missed)", "P(error | matched)", "Lift [95%]", "Pearson r", "Kendall τ"]);
  table.id = "attribution-table";
  attribution.validity.forEach(function (row) {
    var warnings = row.warnings || [], all = row.category === "all categories";
    var classes = (warnings.length ? ["few"] : []).concat(all ? ["all"] : []);
    var tr = CP.el("tr", {"data-category": row.category, "class": classes.join(" ") || null,
                          title: warnings.length ? warnings.join("; ") : null});
    tr.appendChild(CP.el("th", {scope: "row"}, row.category));
    tr.appendChild(CP.el("td", {"class": "num"}, String(row.checkpoints)));
    tr.appendChild(CP.el("td", {"class": "num"}, String(row.missed)));
    tr.appendChild(CP.el("td", {"class": "num"}, String(row.matched)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.p_error_missed, 3)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.p_error_matched, 3)));
    var interval = row.lift_interval || [];
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.lift, 2) +
      (interval[0] !== null && interval[0] !== undefined ? " [" + CP.fmt(interval[0], 2) + ", " + CP.fmt(interval[1], 2) + "]" : "")));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.pearson, 3)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.kendall, 3)));
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  section.appendChild(CP.el("h3", null, "Missed check-points inside a rated error"));
  if (!attribution.examples.length) {
    section.appendChild(CP.el("p", {"class": "note", id: "attribution-examples"}, "No missed check-point lies inside a rated error."));
    return section;
  }
  section.appendChild(CP.el("p", {"class": "note"},
    "Up to three per category. In the output, rated error spans are highlighted (hover for severity and type) " +
    "and the words linked to the check-point's source words are underlined."));
  var list = CP.el("ol", {id: "attribution-examples", "class": "attribution-examples"});
  attribution.examples.forEach(function (example) {
    var item = CP.el("li", {"data-category": example.category, "data-system": example.system, "data-pair": example.pair});
    item.appendChild(CP.el("h4", null, example.category + " · " + example.system + " · pair " + example.pair));
    var grid = CP.el("dl", {"class": "cp-grid"});
    var add = function (term, content) {
      grid.appendChild(CP.el("dt", null, term));
      var dd = typeof content === "string" ? CP.el("dd", null, content) : content;
      grid.appendChild(dd);
    };
    add("Source words", example.source);
    add("Reference", example.reference);
    var output = CP.el("dd", {"class": "attributed-output"});
    CP.markedText(example.output, example.errors, example.linked).forEach(function (node) { output.appendChild(node); });
    add("Output", output);
    add("Rated errors", example.errors.map(function (error) {
      return error.severity + " " + error.category + " (" + error.rater + ")";
    }).join("; ") || "–");
    item.appendChild(grid);
    list.appendChild(item);
  });
  section.appendChild(list);
  return section;
};

/* ``text`` as nodes: every run covered by the same rated errors in a <mark> titled with their
   severity and type, the words linked to the check-point in <u>. Ranges are [start, end) in code
   points (Python's string offsets); they may overlap, nest or run past the text: the text is cut at
   every boundary and each piece wrapped by what covers it. Only text nodes carry the data. */
CP.markedText = function (text, errors, linked) {
  var chars = Array.from(text), n = chars.length, cuts = {0: true};
  cuts[n] = true;
  var clamp = function (span) {
    var start = Math.max(0, Math.min(n, Number(span[0]) || 0)), end = Math.max(0, Math.min(n, Number(span[1]) || 0));
    return start < end ? [start, end] : null;
  };
  var marks = [], links = [];
  errors.forEach(function (error) {
    (error.target || []).forEach(function (span) {
      var range = clamp(span);
      if (range) marks.push({start: range[0], end: range[1], title: error.severity + " " + error.category});
    });
  });
  (linked || []).forEach(function (span) {
    var range = clamp(span);
    if (range) links.push({start: range[0], end: range[1]});
  });
  marks.concat(links).forEach(function (r) { cuts[r.start] = true; cuts[r.end] = true; });
  var points = Object.keys(cuts).map(Number).sort(function (a, b) { return a - b; });
  var pieces = [];
  for (var i = 0; i + 1 < points.length; i++) {
    var start = points[i], end = points[i + 1];
    var covers = function (r) { return r.start <= start && end <= r.end; };
    var titles = [];
    marks.filter(covers).forEach(function (r) { if (titles.indexOf(r.title) < 0) titles.push(r.title); });
    pieces.push({start: start, end: end, title: titles.join("; "), linked: links.some(covers)});
  }
  /* consecutive pieces under the same errors share one <mark>; consecutive linked pieces one <u> */
  var nodes = [], mark = null, under = null;
  pieces.forEach(function (piece, k) {
    var previous = pieces[k - 1];
    if (!previous || previous.title !== piece.title) {
      mark = piece.title ? CP.el("mark", {"class": "mqm", title: piece.title, "data-start": piece.start}) : null;
      if (mark) nodes.push(mark);
      under = null;
    }
    if (mark) mark.setAttribute("data-end", piece.end);
    var parent = mark;
    var words = chars.slice(piece.start, piece.end).join("");
    if (piece.linked) {
      if (!under || !previous || !previous.linked || previous.title !== piece.title) {
        under = CP.el("u", {"class": "linked"});
        if (parent) parent.appendChild(under); else nodes.push(under);
      }
      under.appendChild(document.createTextNode(words));
    } else {
      under = null;
      var node = document.createTextNode(words);
      if (parent) parent.appendChild(node); else nodes.push(node);
    }
  });
  return nodes;
};

/* With --gate (checkpoints gate): did the candidate regress? One row per rule, failed rules first
   with the check-points they lost. */
CP.gateSection = function (gate) {
  var section = CP.el("section", {id: "gate", "aria-labelledby": "h-gate"});
  section.appendChild(CP.el("h2", {id: "h-gate"}, "Regression gate: " + gate.candidate + " against " + gate.baseline));
  var failed = gate.verdicts.filter(function (v) { return v.outcome === "failed"; });
  section.appendChild(CP.el("p", {"class": gate.passed ? "note gate-passed" : "note gate-failed", id: "gate-decision"},
    gate.passed ? "PASSED: no rule regressed." : "FAILED: " + failed.length + " rule" + (failed.length === 1 ? "" : "s") + " regressed."));
  var signature = CP.el("p", {"class": "note"}, "Signature: ");
  signature.appendChild(CP.el("code", null, gate.signature));
  section.appendChild(signature);
  var table = CP.table("Every rule of the gate", ["Rule", "Name", "Check-points", "Baseline", "Candidate", "Difference",
    "95% interval", "p (corrected)", "Min drop", "Verdict"]);
  table.id = "gate-table";
  gate.verdicts.forEach(function (v) {
    var tr = CP.el("tr", {"data-rule": v.rule, "data-name": v.name, "class": v.outcome === "failed" ? "weak" : ""});
    tr.appendChild(CP.el("td", {}, v.rule));
    tr.appendChild(CP.el("th", {scope: "row"}, v.name));
    tr.appendChild(CP.el("td", {"class": "num"}, v.checkpoints === null ? "–" : String(v.checkpoints)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(v.baseline)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(v.candidate)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.signed(v.difference)));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.signed(v.interval[0]) + " … " + CP.signed(v.interval[1])));
    tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(v.adjusted_p)));
    tr.appendChild(CP.el("td", {"class": "num"}, String(v.min_drop)));
    tr.appendChild(CP.el("td", {}, v.outcome === "failed" ? "FAIL" : v.outcome === "too_few" ? "too few" : "pass"));
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  if (failed.length) {
    var list = CP.el("ol", {id: "gate-regressions"});
    failed.forEach(function (v) {
      var item = CP.el("li", {}, v.message);
      if (v.examples.length) {
        var examples = CP.el("ul");
        v.examples.forEach(function (e) {
          examples.appendChild(CP.el("li", {}, "check-point " + e.checkpoint + " (pair " + e.pair + ", " + e.category + "): " +
            e.source + " → " + e.reference + "; baseline " + e.baseline + ", candidate " + e.candidate +
            "; candidate's translation: " + e.output));
        });
        item.appendChild(examples);
      }
      list.appendChild(item);
    });
    section.appendChild(list);
  }
  return section;
};

/* With --challenge (checkpoints challenge --score): how often each metric prefers the good translation,
   per category and kind of breakage; chance is 0.5. */
CP.challengeSection = function (challenge) {
  var section = CP.el("section", {id: "challenge", "aria-labelledby": "h-challenge"});
  section.appendChild(CP.el("h2", {id: "h-challenge"}, "Which phenomena the metrics see"));
  section.appendChild(CP.el("p", {"class": "note"},
    challenge.items + " contrastive items built from the suite (" + challenge.langpair + "): in each, exactly the " +
    "check-point's phenomenon is broken. Accuracy is the share of items whose good translation the metric scores " +
    "above the bad one, ties counting half: 0.5 is chance, what a metric blind to the phenomenon gets."));
  var headers = ["Grouping", "Group", "Items"].concat(challenge.metrics);
  var table = CP.table("Accuracy per metric [95% bootstrap interval]", headers);
  table.id = "challenge-table";
  var rows = {}, order = [];
  challenge.accuracy.forEach(function (r) {
    var key = r.grouping + "\u0000" + r.group;
    if (!rows[key]) { rows[key] = {grouping: r.grouping, group: r.group, items: r.items, by: {}}; order.push(key); }
    rows[key].by[r.metric] = r;
  });
  order.forEach(function (key) {
    var row = rows[key];
    var tr = CP.el("tr", {"data-group": row.group});
    tr.appendChild(CP.el("td", {}, row.grouping));
    tr.appendChild(CP.el("th", {scope: "row"}, row.group));
    tr.appendChild(CP.el("td", {"class": "num"}, String(row.items)));
    challenge.metrics.forEach(function (metric) {
      var r = row.by[metric];
      tr.appendChild(CP.el("td", {"class": "num" + (r && r.accuracy <= r.chance ? " weak" : "")},
        r ? CP.fmt(r.accuracy, 3) + " [" + CP.fmt(r.interval[0], 2) + ", " + CP.fmt(r.interval[1], 2) + "]" : "–"));
    });
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  return section;
};
