// The odds pages (manoeuvre_sim/web/odds/): draw the result's Vega-Lite chart, switch its
// view, keep the matchup's unit and leader lists to the chosen army, and let htmx swap a 400
// fragment (the command line's error line) into the result (a game's own clicks: its
// static/games/<key>/ script, as Maneuver's units of the scenario).
(function () {
  "use strict";

  function drawChart() {
    var data = document.getElementById("odds-spec");
    var target = document.getElementById("odds-chart");
    if (!data || !target || typeof vegaEmbed === "undefined") return;
    var spec = JSON.parse(data.textContent);
    vegaEmbed(target, spec, { actions: { export: true, source: false, compiled: false, editor: false },
                              renderer: "svg" })
      .catch(function (err) { target.textContent = "chart failed: " + err; });
  }

  function form() { return document.getElementById("odds-form"); }

  function submit() {
    var f = form();
    if (f && window.htmx) htmx.trigger(f, "submit");
  }

  // a 400 answer carries the error line for the result area: swap it in
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.xhr.status === 400) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.target && e.target.id === "odds-result") {
      drawChart();
      markField();
    }
  });

  // the form's empty fields are left out of the request, so the address htmx pushes is
  // the input typed and nothing else (an empty field means the option's default)
  document.addEventListener("htmx:configRequest", function (e) {
    if (!e.detail.elt || e.detail.elt.id !== "odds-form") return;
    var fd = e.detail.formData;
    if (fd && typeof fd.keys === "function") {
      var names = [];
      for (var k of fd.keys()) { if (names.indexOf(k) < 0) names.push(k); }
      names.forEach(function (name) {
        var kept = fd.getAll(name).filter(function (v) { return String(v).trim() !== ""; });
        fd.delete(name);
        kept.forEach(function (v) { fd.append(name, v); });
      });
    }
  });

  // the field a 400's message is about (data-field, found by the server): marked
  // aria-invalid with the message beside it; a good answer clears the mark
  function markField() {
    var f = form();
    if (!f) return;
    f.querySelectorAll("[aria-invalid]").forEach(function (el) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    });
    f.querySelectorAll(".field-error").forEach(function (el) { el.remove(); });
    var msg = document.getElementById("error-message");
    var name = msg && msg.getAttribute("data-field");
    if (!name) return;
    var inputs = f.querySelectorAll('[name="' + name + '"]');
    if (!inputs.length) return;
    inputs.forEach(function (el) {
      el.setAttribute("aria-invalid", "true");
      el.setAttribute("aria-describedby", "err-" + name);
    });
    var note = document.createElement("small");
    note.className = "field-error";
    note.id = "err-" + name;
    note.setAttribute("data-for", name);
    note.textContent = msg.textContent;
    var last = inputs[inputs.length - 1];
    var after = last.closest("label, .odds-repeat") || last;
    after.insertAdjacentElement("afterend", note);
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-view]");
    if (b) {
      document.getElementById("odds-view").value = b.getAttribute("data-view");
      submit();
    }
  });

  // the unit and leader lists show the chosen army's only
  document.addEventListener("change", function (e) {
    var army = e.target.closest("select.odds-army");
    if (!army) return;
    var side = army.getAttribute("data-side");
    document.querySelectorAll('select.odds-by-army[data-side="' + side + '"]').forEach(function (sel) {
      var first = null;
      sel.querySelectorAll("optgroup").forEach(function (g) {
        var on = g.getAttribute("data-army") === army.value;
        g.hidden = !on;
        g.disabled = !on;
        if (on && !first) first = g.querySelector("option");
      });
      var cur = sel.options[sel.selectedIndex];
      if (!cur || (cur.parentNode.tagName === "OPTGROUP" && cur.parentNode.disabled)) {
        if (sel.querySelector('option[value=""]')) sel.value = "";
        else if (first) first.selected = true;
      }
    });
  }, true);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawChart);
  else drawChart();
})();
