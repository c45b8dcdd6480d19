// Maneuver's odds page (templates/games/hex/odds_units.html): a click on a unit of the
// scenario adds its token to the attack or the defence, with the flags its checkboxes ask
// for, and the form recomputes (htmx, as odds.js does for every odds page)
(function () {
  document.addEventListener("click", function (e) {
    var add = e.target.closest("button.odds-add");
    if (!add) return;
    var form = document.getElementById("odds-form");
    var input = form.querySelector('input[name="' + add.getAttribute("data-target") + '"]');
    var v = input.value.trim();
    var token = add.getAttribute("data-token");
    // the flags the checkboxes ask for: u (unsupplied) for any unit not in its Capital's
    // hex, h (in its Capital's hex) for an attacker only; the server checks the rest
    var u = document.getElementById("odds-flag-u"), h = document.getElementById("odds-flag-h");
    var capital = token.indexOf("c") >= 0;
    if (u && u.checked && !capital && !(h && h.checked)) token += "u";
    if (h && h.checked && !capital && add.getAttribute("data-target") === "attack") token += "h";
    input.value = (v ? v + "," : "") + token;
    if (window.htmx) htmx.trigger(form, "submit");
  });
})();
