/* Shared helpers of the check-point report. Every data string reaches the page through
   text nodes (el's text argument, textContent), never through innerHTML. */
"use strict";
var CP = {};
CP.SVG = "http://www.w3.org/2000/svg";
/* Okabe-Ito colours: distinguishable with the common colour-vision deficiencies;
   every system also has its own marker shape and its name in the legend. */
CP.COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
CP.SHAPES = ["circle", "square", "triangle", "diamond", "down", "cross"];
CP.SHAPE_NAMES = {circle: "●", square: "■", triangle: "▲", diamond: "◆", down: "▼", cross: "✚"};

CP.el = function (tag, attrs, text) {
  var node = document.createElement(tag);
  if (attrs) { for (var key in attrs) { if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]); } }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};
CP.svg = function (tag, attrs, text) {
  var node = document.createElementNS(CP.SVG, tag);
  if (attrs) { for (var key in attrs) node.setAttribute(key, attrs[key]); }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};
CP.fmt = function (value, digits) {
  if (value === null || value === undefined) return "–";
  return Number(value).toFixed(digits === undefined ? 4 : digits);
};
CP.signed = function (value, digits) {
  if (value === null || value === undefined) return "–";
  var text = CP.fmt(Math.abs(value), digits);
  return (value > 0 ? "+" : value < 0 ? "−" : "±") + text;
};
CP.colour = function (index) { return CP.COLOURS[index % CP.COLOURS.length]; };
CP.shape = function (index) { return CP.SHAPES[index % CP.SHAPES.length]; };
/* A marker of the system's shape centred on (x, y). */
CP.marker = function (index, x, y, size) {
  var s = size || 5, shape = CP.shape(index), fill = CP.colour(index), node;
  if (shape === "circle") node = CP.svg("circle", {cx: x, cy: y, r: s});
  else if (shape === "square") node = CP.svg("rect", {x: x - s, y: y - s, width: 2 * s, height: 2 * s});
  else {
    var points = {
      triangle: [[0, -s - 1], [s + 1, s], [-s - 1, s]],
      down: [[0, s + 1], [s + 1, -s], [-s - 1, -s]],
      diamond: [[0, -s - 1], [s + 1, 0], [0, s + 1], [-s - 1, 0]],
      cross: [[-s, -2], [-2, -2], [-2, -s], [2, -s], [2, -2], [s, -2], [s, 2], [2, 2], [2, s], [-2, s], [-2, 2], [-s, 2]]
    }[shape];
    node = CP.svg("polygon", {points: points.map(function (p) { return (x + p[0]) + "," + (y + p[1]); }).join(" ")});
  }
  node.setAttribute("fill", fill);
  node.setAttribute("stroke", "#222");
  node.setAttribute("stroke-width", "0.6");
  return node;
};
/* The legend: each system's marker, colour and name together. */
CP.legend = function (systems, reference) {
  var list = CP.el("ul", {"class": "legend", "aria-label": "systems"});
  systems.forEach(function (name, i) {
    var item = CP.el("li");
    var icon = CP.svg("svg", {width: 14, height: 14, "aria-hidden": "true"});
    icon.appendChild(CP.marker(i, 7, 7, 5));
    item.appendChild(icon);
    item.appendChild(document.createTextNode(" " + name + (name === reference ? " (baseline)" : "")));
    list.appendChild(item);
  });
  return list;
};
/* Significance as a symbol that does not depend on colour: ▲ better, ▼ worse than the baseline. */
CP.sigSymbol = function (diff) { return diff > 0 ? "▲" : "▼"; };
CP.table = function (caption, headers) {
  var table = CP.el("table");
  if (caption) table.appendChild(CP.el("caption", null, caption));
  var head = CP.el("thead"), row = CP.el("tr");
  headers.forEach(function (h) { row.appendChild(CP.el("th", {scope: "col"}, h)); });
  head.appendChild(row);
  table.appendChild(head);
  table.appendChild(CP.el("tbody"));
  return table;
};
/* The whole taxonomy and each level group, with BLEU, before the per-category sections. */
CP.overview = function (data) {
  var section = CP.el("section", {id: "overview", "aria-labelledby": "h-overview"});
  section.appendChild(CP.el("h2", {id: "h-overview"}, "Overview"));
  var headers = ["Scope", "Check-points"].concat(data.systems.map(function (n) { return n + " score [95%]"; }), ["Significant"]);
  var table = CP.table("Linguistic scores of the whole taxonomy and of each level group; BLEU last", headers);
  data.overall.concat(data.groups).forEach(function (row, r) {
    var tr = CP.el("tr");
    tr.appendChild(CP.el("th", {scope: "row"}, r === 0 ? "all (" + row.name + ")" : row.name + " level"));
    tr.appendChild(CP.el("td", {"class": "num"}, row.size));
    data.systems.forEach(function (_, i) {
      var ci = row.ci[i];
      tr.appendChild(CP.el("td", {"class": "num"}, CP.fmt(row.scores[i]) + (ci ? " [" + CP.fmt(ci[0]) + ", " + CP.fmt(ci[1]) + "]" : "")));
    });
    tr.appendChild(CP.el("td", null, data.systems.filter(function (_, i) { return row.sig[i]; }).map(function (name) {
      return CP.sigSymbol(row.diff[data.systems.indexOf(name)]) + " " + name;
    }).join(", ") || "no"));
    table.tBodies[0].appendChild(tr);
  });
  var bleu = CP.el("tr");
  bleu.appendChild(CP.el("th", {scope: "row"}, "BLEU"));
  bleu.appendChild(CP.el("td"));
  data.bleu.forEach(function (b) { bleu.appendChild(CP.el("td", {"class": "num"}, CP.fmt(b, 2))); });
  bleu.appendChild(CP.el("td"));
  table.tBodies[0].appendChild(bleu);
  section.appendChild(table);
  return section;
};
