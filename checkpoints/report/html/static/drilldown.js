/* Drill-down: a category's check-points, 50 to a page, searchable, each as `checkpoints show`
   prints it. Only the visible page is in the DOM; the data stays in compact arrays. */
"use strict";
CP.PAGE = 50;
CP.state = {category: -1, items: [], page: 0, query: ""};

CP.drilldownSection = function () {
  var section = CP.el("section", {id: "drilldown", "class": "drilldown", hidden: "hidden", "aria-labelledby": "h-drill"});
  var heading = CP.el("h2", {id: "h-drill", tabindex: "-1"}, "Check-points");
  var close = CP.el("button", {type: "button", "class": "close"}, "Close (Esc)");
  var search = CP.el("input", {type: "search", id: "drill-search", placeholder: "search source, references, translations",
    "aria-label": "search the check-points of this category"});
  var previous = CP.el("button", {type: "button", id: "drill-prev"}, "◀ previous 50");
  var next = CP.el("button", {type: "button", id: "drill-next"}, "next 50 ▶");
  var status = CP.el("p", {id: "drill-status", role: "status"});
  var list = CP.el("div", {id: "drill-list"});
  var bar = CP.el("div", {"class": "drill-bar"});
  [search, previous, next, close].forEach(function (node) { bar.appendChild(node); });
  [heading, bar, status, list].forEach(function (node) { section.appendChild(node); });
  var timer = null;
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { CP.filter(search.value); }, 120);
  });
  previous.addEventListener("click", function () { CP.showPage(CP.state.page - 1); });
  next.addEventListener("click", function () { CP.showPage(CP.state.page + 1); });
  close.addEventListener("click", CP.closeDrilldown);
  section.addEventListener("keydown", function (event) { if (event.key === "Escape") CP.closeDrilldown(); });
  return section;
};

CP.openDrilldown = function (name) {
  var data = CP.data, index = data.categories.findIndex(function (row) { return row.name === name; });
  if (index < 0) return;
  CP.state = {category: index, items: data.checkpoints[index], page: 0, query: "", opener: document.activeElement};
  var section = document.getElementById("drilldown");
  section.hidden = false;
  document.getElementById("drill-search").value = "";
  var row = data.categories[index];
  document.getElementById("h-drill").textContent = "Check-points of " + row.name + " (" + row.level + ", " + data.checkpoints[index].length + ")";
  CP.showPage(0);
  document.getElementById("h-drill").focus();
};

CP.closeDrilldown = function () {
  document.getElementById("drilldown").hidden = true;
  var opener = CP.state.opener;
  if (opener && opener.focus) opener.focus();
};

/* Lower-cased text of each check-point of a category, built on the first search only. */
CP.searchText = function (cp) {
  var pairs = CP.data.pairs, pair = cp[1], parts = [String(cp[0]), pairs.source[pair].join(" ")];
  cp[3].forEach(function (ref) { parts.push(ref[2]); });
  pairs.references[pair].forEach(function (text) { parts.push(text); });
  pairs.translations.forEach(function (list) { parts.push(list[pair]); });
  return parts.join("\n").toLowerCase();
};
CP.filter = function (query) {
  var all = CP.data.checkpoints[CP.state.category], q = query.trim().toLowerCase();
  if (q === CP.state.query) return;  /* the same search again: keep the page the reader is on */
  CP.state.query = q;
  CP.state.items = q ? all.filter(function (cp) { return CP.searchText(cp).indexOf(q) >= 0; }) : all;
  CP.showPage(0);
};

CP.showPage = function (page) {
  var items = CP.state.items, pages = Math.max(1, Math.ceil(items.length / CP.PAGE));
  page = Math.max(0, Math.min(page, pages - 1));
  CP.state.page = page;
  var start = page * CP.PAGE, shown = items.slice(start, start + CP.PAGE);
  var total = CP.data.checkpoints[CP.state.category].length;
  document.getElementById("drill-status").textContent = items.length
    ? "check-points " + (start + 1) + "–" + (start + shown.length) + " of " + items.length + (CP.state.query ? " matching (of " + total + ")" : "")
    : "no check-point matches";
  document.getElementById("drill-prev").disabled = page === 0;
  document.getElementById("drill-next").disabled = page >= pages - 1;
  var list = document.getElementById("drill-list");
  list.replaceChildren.apply(list, shown.map(CP.checkpointView));
};

CP.checkpointView = function (cp) {
  var data = CP.data, row = data.categories[CP.state.category], pair = cp[1];
  var article = CP.el("article", {"class": "checkpoint", "data-id": cp[0]});
  article.appendChild(CP.el("h3", null, "check-point " + cp[0] + " · " + row.name + " (" + row.level + ") · pair " + data.pairs.ids[pair]));
  var grid = CP.el("dl", {"class": "cp-grid"});
  var source = CP.el("dd", {"class": "source"}), span = new Set(cp[2]);
  data.pairs.source[pair].forEach(function (word, i) {
    if (i) source.appendChild(document.createTextNode(" "));
    if (span.has(i)) source.appendChild(CP.el("mark", {"class": "span"}, "[" + word + "]"));
    else source.appendChild(document.createTextNode(word));
  });
  grid.appendChild(CP.el("dt", null, "source"));
  grid.appendChild(source);
  cp[3].forEach(function (ref) {
    grid.appendChild(CP.el("dt", null, "reference " + ref[0]));
    grid.appendChild(CP.el("dd", {"class": "reference"}, ref[2] + "   (DM = " + CP.fmt(ref[1], 2) + ")"));
  });
  data.systems.forEach(function (name, s) {
    var result = cp[4][s], dt = CP.el("dt", {"class": "system"});
    var icon = CP.svg("svg", {width: 12, height: 12, "aria-hidden": "true"});
    icon.appendChild(CP.marker(s, 6, 6, 4));
    dt.appendChild(icon);
    dt.appendChild(document.createTextNode(" " + name));
    grid.appendChild(dt);
    var ngrams = result ? [].concat.apply([], result[2].map(function (r) { return r[2]; })) : [];
    grid.appendChild(CP.highlighted(data.pairs.translations[s][pair], ngrams));
    if (!result) { grid.appendChild(CP.el("dd", {"class": "dim"}, "not in this system's evaluated categories")); return; }
    result[2].forEach(function (r, i) {
      var text = "ref " + cp[3][i][0] + ": " + r[0] + "/" + r[1] + " matched: " + (r[2].join("; ") || "—") + (i === result[1] ? "  ← r*" : "");
      grid.appendChild(CP.el("dd", {"class": "match" + (i === result[1] ? " chosen" : "")}, text));
    });
    grid.appendChild(CP.el("dd", {"class": "score"}, "score " + CP.fmt(result[0], 2) +
      (result[3] ? " (matched by an alternative: " + result[3] + ")" : "")));
  });
  article.appendChild(grid);
  return article;
};

CP.escapeRegExp = function (text) { return text.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&"); };
/* The translation with every matched n-gram marked. N-grams are in the reference's tokens,
   so words may be glued to punctuation in the translation, and the case may differ
   under lower-case matching: the words are searched in order, case-insensitively. */
CP.highlighted = function (translation, ngrams) {
  var dd = CP.el("dd", {"class": "translation"}), ranges = [], seen = new Set();
  ngrams.forEach(function (ngram) {
    if (seen.has(ngram)) return;
    seen.add(ngram);
    var words = ngram.split(" ").filter(Boolean);
    if (!words.length) return;
    var pattern = words.map(CP.escapeRegExp).join("[^\\p{L}\\p{N}]*");
    if (/^[\p{L}\p{N}]/u.test(words[0])) pattern = "(?<![\\p{L}\\p{N}])" + pattern;
    if (/[\p{L}\p{N}]$/u.test(words[words.length - 1])) pattern += "(?![\\p{L}\\p{N}])";
    var expression = new RegExp(pattern, "giu"), found;
    while ((found = expression.exec(translation)) !== null) {
      if (!found[0].length) { expression.lastIndex++; continue; }
      ranges.push([found.index, found.index + found[0].length]);
    }
  });
  ranges.sort(function (a, b) { return a[0] - b[0]; });
  var merged = [];
  ranges.forEach(function (r) {
    var last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]); else merged.push(r.slice());
  });
  var at = 0;
  merged.forEach(function (r) {
    if (r[0] > at) dd.appendChild(document.createTextNode(translation.slice(at, r[0])));
    dd.appendChild(CP.el("mark", {"class": "ngram"}, translation.slice(r[0], r[1])));
    at = r[1];
  });
  if (at < translation.length) dd.appendChild(document.createTextNode(translation.slice(at)));
  return dd;
};
