// Issue 30 (docs/fairness.md): this page's own 128 random bits for the deal. Drawn with the browser's
// cryptographic generator when a form that takes a seat is sent (create, take a seat, accept an invitation),
// or, in a game the site seated (a league's), when its page is first opened,
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

  // A game the site seated (a league's): its deal waits for this player's bits, sent as the page first opens
  // (once per browser session and game, so a refused send never loops; the button stays for a second try).
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-contribution-auto]");
    if (!form || !window.crypto || !window.crypto.getRandomValues) return;
    var key = "mm-contribution-sent:" + form.getAttribute("action");
    try {
      if (window.sessionStorage.getItem(key)) return;
      window.sessionStorage.setItem(key, "1");
    } catch (ignored) { return; }
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();  // through the capture listener above, which draws the bits
    } else {
      form.querySelector("input[data-contribution]").value = randomHex();
      form.submit();
    }
  });

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
