/* Per level group: a chart of every category's score per system with its 95% interval and
   significance against the baseline, the same numbers as a table, sortable; and the heat map. */
"use strict";
CP.LEVEL_TITLES = {word: "Word level", phrase: "Phrase level", sentence: "Sentence level"};
CP.SORTS = [["difference", "difference"], ["size", "size"], ["name", "name"]];

/* The first non-baseline system's difference: what "sort by difference" orders by. */
CP.mainDiff = function (row) {
  for (var i = 0; i < row.diff.length; i++) if (row.diff[i] !== null) return row.diff[i];
  return 0;
};
CP.sorted = function (rows, key) {
  var copy = rows.slice();
  if (key === "difference") copy.sort(function (a, b) { return CP.mainDiff(a) - CP.mainDiff(b); });
  else if (key === "size") copy.sort(function (a, b) { return (b.size || 0) - (a.size || 0); });
  else copy.sort(function (a, b) { return a.name.localeCompare(b.name); });
  return copy;
};
CP.significantSystems = function (data, row) {
  return data.systems.filter(function (_, i) { return row.sig[i]; });
};

CP.levelSection = function (data, level, rows) {
  var section = CP.el("section", {"class": "level", id: "level-" + level, "aria-labelledby": "h-" + level});
  section.appendChild(CP.el("h2", {id: "h-" + level}, CP.LEVEL_TITLES[level] || level));
  var controls = CP.el("div", {"class": "sort", role: "group", "aria-label": "sort categories"});
  controls.appendChild(CP.el("span", null, "Sort by "));
  var figure = CP.el("figure", {"class": "chart"});
  var holder = CP.el("div", {"class": "table-holder"});
  section.appendChild(controls);
  section.appendChild(CP.legend(data.systems, data.reference));
  section.appendChild(figure);
  section.appendChild(holder);
  function draw(key) {
    var ordered = CP.sorted(rows, key);
    figure.replaceChildren(CP.categoryChart(data, ordered, level),
      CP.el("figcaption", null, "Score per category with 95% bootstrap intervals; ▲/▼: significantly better/worse than " +
        data.reference + " after " + data.settings.correction + " correction; greyed: fewer than " +
        data.settings.min_checkpoints + " check-points, never flagged. The table below holds the same numbers."));
    holder.replaceChildren(CP.categoryTable(data, ordered, level));
    Array.prototype.forEach.call(controls.querySelectorAll("button"), function (b) {
      b.setAttribute("aria-pressed", b.dataset.sort === key ? "true" : "false");
    });
  }
  CP.SORTS.forEach(function (pair) {
    var button = CP.el("button", {type: "button", "data-sort": pair[0], "aria-pressed": "false"}, pair[1]);
    button.addEventListener("click", function () { draw(pair[0]); });
    controls.appendChild(button);
  });
  draw("difference");
  return section;
};

CP.categoryChart = function (data, rows, level) {
  var n = data.systems.length, rowHeight = 12 + 10 * n, top = 24, left = 240, right = 700, width = 820;
  var height = top + rows.length * rowHeight + 10;
  var low = 1, high = 0;
  rows.forEach(function (row) {
    row.ci.forEach(function (ci, i) {
      var lo = ci ? ci[0] : row.scores[i], hi = ci ? ci[1] : row.scores[i];
      if (lo !== null) low = Math.min(low, lo);
      if (hi !== null) high = Math.max(high, hi);
    });
  });
  low = Math.max(0, Math.floor(low * 10) / 10); high = Math.min(1, Math.ceil(high * 10) / 10);
  if (high <= low) { low = 0; high = 1; }
  var x = function (v) { return left + (v - low) / (high - low) * (right - left); };
  var svg = CP.svg("svg", {viewBox: "0 0 " + width + " " + height, width: width, height: height, role: "img",
    "class": "category-chart", "data-level": level,
    "aria-label": (CP.LEVEL_TITLES[level] || level) + ": scores per category and system; the table below gives the numbers"});
  for (var t = 0; t <= 10; t++) {
    var v = low + (high - low) * t / 10, gx = x(v);
    svg.appendChild(CP.svg("line", {x1: gx, x2: gx, y1: top - 4, y2: height - 6, "class": "grid"}));
    if (t % 2 === 0) svg.appendChild(CP.svg("text", {x: gx, y: top - 8, "class": "tick", "text-anchor": "middle"}, v.toFixed(2)));
  }
  rows.forEach(function (row, r) {
    var y0 = top + r * rowHeight;
    var group = CP.svg("g", {"class": "chart-row" + (row.tooFew ? " too-few" : ""), "data-category": row.name,
      "data-significant": CP.significantSystems(data, row).join(",")});
    group.appendChild(CP.svg("title", null, row.name + " (" + row.size + " check-points)"));
    group.appendChild(CP.svg("text", {x: left - 8, y: y0 + rowHeight / 2 + 4, "text-anchor": "end", "class": "label"},
      row.name + (row.tooFew ? " (too few)" : "")));
    data.systems.forEach(function (_, i) {
      var y = y0 + 8 + i * 10, ci = row.ci[i];
      if (row.scores[i] === null) return;
      if (ci) group.appendChild(CP.svg("line", {x1: x(ci[0]), x2: x(ci[1]), y1: y, y2: y, stroke: CP.colour(i), "stroke-width": 2}));
      group.appendChild(CP.marker(i, x(row.scores[i]), y, 4));
      if (row.sig[i]) {
        var mark = CP.svg("text", {x: right + 10 + 60 * Math.max(0, i - 1), y: y + 4, "class": "sig", fill: "#111"},
          CP.sigSymbol(row.diff[i]) + " " + data.systems[i]);
        group.appendChild(mark);
      }
    });
    group.addEventListener("click", function () { CP.openDrilldown(row.name); });
    svg.appendChild(group);
  });
  return svg;
};

CP.categoryTable = function (data, rows, level) {
  var headers = ["Category", "Check-points"];
  data.systems.forEach(function (name) { headers.push(name + " score [95%]"); });
  data.systems.forEach(function (name) { if (name !== data.reference) headers.push("Δ " + name + " − " + data.reference + " [95%]", "p adj. (" + name + ")"); });
  headers.push("Significant", "Clusters");
  var table = CP.table((CP.LEVEL_TITLES[level] || level) + ": categories (Enter or click opens the check-points)", headers);
  table.classList.add("categories");
  var body = table.tBodies[0];
  rows.forEach(function (row) {
    var sig = CP.significantSystems(data, row);
    var tr = CP.el("tr", {tabindex: "0", "data-category": row.name, "data-significant": sig.join(","),
      "class": row.tooFew ? "too-few" : null, "aria-label": row.name + ": open its check-points"});
    tr.appendChild(CP.el("th", {scope: "row"}, row.name + (row.tooFew ? " (too few)" : "")));
    tr.appendChild(CP.el("td", {"class": "num"}, row.size));
    data.systems.forEach(function (_, i) {
      var ci = row.ci[i];
      tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.scores[i]) + (ci ? " [" + CP.fmt(ci[0]) + ", " + CP.fmt(ci[1]) + "]" : "")));
    });
    data.systems.forEach(function (name, i) {
      if (name === data.reference) return;
      var dci = row.dci[i];
      tr.appendChild(CP.el("td", {"class": "num"}, CP.signed(row.diff[i]) + (dci ? " [" + CP.signed(dci[0]) + ", " + CP.signed(dci[1]) + "]" : "")));
      tr.appendChild(CP.el("td", {"class": "num"}, row.tooFew ? "too few" : CP.fmt(row.p[i])));
    });
    tr.appendChild(CP.el("td", null, sig.map(function (name) {
      return CP.sigSymbol(row.diff[data.systems.indexOf(name)]) + " " + name;
    }).join(", ") || "no"));
    tr.appendChild(CP.el("td", null, row.cluster ? data.systems.map(function (name, i) { return name + ": " + row.cluster[i]; }).join(", ") : "–"));
    CP.activate(tr, function () { CP.openDrilldown(row.name); });
    body.appendChild(tr);
  });
  return table;
};

/* Click, Enter or Space runs the action: rows work with the keyboard as with the mouse. */
CP.activate = function (node, action) {
  node.addEventListener("click", action);
  node.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
  });
};

/* Heat map: category × system, difference to the baseline as a blue (better) to orange
   (worse) shade, with the signed number and ▲/▼ for significance so colour is never needed. */
CP.heatMap = function (data) {
  var section = CP.el("section", {"class": "heatmap", id: "heatmap", "aria-labelledby": "h-heat"});
  section.appendChild(CP.el("h2", {id: "h-heat"}, "Heat map: difference to " + data.reference));
  var maxAbs = 0;
  data.categories.forEach(function (row) { row.diff.forEach(function (d) { if (d !== null) maxAbs = Math.max(maxAbs, Math.abs(d)); }); });
  var headers = ["Category", "Level"].concat(data.systems.map(function (n) { return n === data.reference ? n + " (score)" : n + " − " + data.reference; }));
  var table = CP.table("Blue: better than " + data.reference + ", orange: worse; ▲/▼ significant after correction; greyed: too few check-points", headers);
  data.categories.forEach(function (row) {
    var tr = CP.el("tr", {tabindex: "0", "data-category": row.name, "class": row.tooFew ? "too-few" : null});
    tr.appendChild(CP.el("th", {scope: "row"}, row.name));
    tr.appendChild(CP.el("td", null, row.level));
    data.systems.forEach(function (name, i) {
      var cell;
      if (name === data.reference) cell = CP.el("td", {"class": "num"}, CP.fmt(row.scores[i]));
      else {
        var d = row.diff[i], strength = maxAbs > 0 && d !== null ? Math.abs(d) / maxAbs : 0;
        cell = CP.el("td", {"class": "num heat" + (row.sig[i] ? " sig" : "")}, CP.signed(d) + (row.sig[i] ? " " + CP.sigSymbol(d) : ""));
        var hue = d > 0 ? "0, 114, 178" : "230, 159, 0";
        cell.style.backgroundColor = "rgba(" + hue + ", " + (0.1 + 0.75 * strength).toFixed(2) + ")";
      }
      tr.appendChild(cell);
    });
    CP.activate(tr, function () { CP.openDrilldown(row.name); });
    table.tBodies[0].appendChild(tr);
  });
  section.appendChild(table);
  return section;
};
