/* Entry point: read the embedded data, draw every section, then mark the page interactive
   (document.body.dataset.ready and the "cp-interactive" performance mark, which tests read). */
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("report-data").textContent);
  CP.data = data;
  var main = document.getElementById("report");
  var parts = [CP.overview(data)];
  ["word", "phrase", "sentence"].forEach(function (level) {
    var rows = data.categories.filter(function (row) { return row.level === level; });
    if (rows.length) parts.push(CP.levelSection(data, level, rows));
  });
  parts.push(CP.heatMap(data));
  if (data.audit) parts.push(CP.auditSection(data.audit));
  if (data.attribution) parts.push(CP.attributionSection(data.attribution));
  if (data.gate) parts.push(CP.gateSection(data.gate));
  if (data.challenge) parts.push(CP.challengeSection(data.challenge));
  if (data.metrics) parts.push(CP.metricsSection(data.metrics));
  if (data.meta) parts.push(CP.metaSection(data.meta));
  parts.push(CP.drilldownSection());
  main.replaceChildren.apply(main, parts);
  main.setAttribute("aria-busy", "false");
  performance.mark("cp-interactive");
  document.body.dataset.ready = "true";
})();
