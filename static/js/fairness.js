// Issue 30 (docs/fairness.md): this page's own 128 random bits for the deal. Drawn with the browser's
// cryptographic generator when a form that takes a seat is sent (create, take a seat, accept an invitation),
// so the site never chose them; the game's page "How you can check this game" lists them from then on.
(function () {
  "use strict";

  function randomHex() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // Capture: before htmx or anything else reads the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var field = form && form.querySelector ? form.querySelector("input[data-contribution]") : null;
    if (field && !field.value && window.crypto && window.crypto.getRandomValues) {
      field.value = randomHex();
      try {
        window.sessionStorage.setItem("mm-contribution", field.value);
      } catch (ignored) { /* private mode: nothing to remember */ }
    }
  }, true);

  // The check page marks the contribution this browser sent last, so a player sees theirs is the one listed.
  document.addEventListener("DOMContentLoaded", function () {
    var sent = null;
    try { sent = window.sessionStorage.getItem("mm-contribution"); } catch (ignored) { return; }
    if (!sent) return;
    document.querySelectorAll("[data-contribution-value]").forEach(function (cell) {
      if (cell.getAttribute("data-contribution-value") !== sent) return;
      cell.classList.add("contribution--mine");
      var table = cell.closest("[data-mine-label]");
      if (table) {
        var note = document.createElement("span");
        note.className = "muted contribution-note";
        note.textContent = " " + table.getAttribute("data-mine-label");
        cell.after(note);
      }
    });
  });
})();
