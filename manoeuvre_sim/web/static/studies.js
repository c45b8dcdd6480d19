/* The study pages: Vega-Lite charts from the page's JSON specs (a mark whose datum has an
   href opens it when clicked: the heatmap's cells open their pairing), and sortable
   tables (click a column's head; again to reverse; the head's arrow shows the order, the
   server marks the column a table arrives sorted by). No data is computed here. */
(function () {
  "use strict";

  function embedCharts() {
    if (typeof vegaEmbed !== "function") { return; }
    document.querySelectorAll("script.vega-spec").forEach(function (el) {
      var target = document.getElementById(el.dataset.target);
      if (!target) { return; }
      var spec = JSON.parse(el.textContent);
      vegaEmbed(target, spec, { actions: { export: true, source: false, compiled: false, editor: false },
                                renderer: "svg" })
        .then(function (result) {
          var view = result.view;
          target.vegaView = view;  // the tests find a cell's position through it
          view.addEventListener("click", function (event, item) {
            var href = item && item.datum && item.datum.href;
            if (href && href.charAt(0) === "/") { window.location.assign(href); }
          });
        })
        .catch(function (err) {
          target.textContent = "the chart could not be drawn: " + err;
        });
    });
  }

  function sortKey(td, numeric) {
    var v = td.getAttribute("data-sort");
    if (v === null) { v = td.textContent; }
    if (!numeric) { return v.toLowerCase(); }
    if (v === "" || v === "None") { return null; }
    var n = parseFloat(v);
    return isNaN(n) ? null : n;
  }

  function sortBy(table, th) {
    var idx = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.dataset.type === "num";
    var asc = th.dataset.order !== "asc";
    th.parentNode.querySelectorAll("th").forEach(function (h) {
      delete h.dataset.order; h.classList.remove("sorted-asc", "sorted-desc");
      if (h.classList.contains("sortable")) { h.setAttribute("aria-sort", "none"); }
    });
    th.dataset.order = asc ? "asc" : "desc";
    th.classList.add(asc ? "sorted-asc" : "sorted-desc");
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = sortKey(a.cells[idx], numeric), y = sortKey(b.cells[idx], numeric);
      if (x === y) { return 0; }
      if (x === null) { return 1; }   // blanks last either way
      if (y === null) { return -1; }
      return (x < y ? -1 : 1) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function sortableTables() {
    document.querySelectorAll("table.sortable-table").forEach(function (table) {
      table.querySelectorAll("th.sortable").forEach(function (th) {
        th.addEventListener("click", function () { sortBy(table, th); });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    sortableTables();
    embedCharts();
  });
})();
