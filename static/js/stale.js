// A move refused as stale (issue 32): the answer (#stale-answer, "still play it?" or why not and what changed)
// goes just above the move form and the page scrolls there, so a phone lands at the form, not the top; the
// choice the player had made (#stale-kept) is selected again in the new form wherever it still applies.
(function () {
  "use strict";
  if (window.mammamiaStale) { return; }
  window.mammamiaStale = true;

  function escaped(value) {
    return window.CSS && CSS.escape ? CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&");
  }

  function keep(form, kept) {
    Object.keys(kept).forEach(function (name) {
      (kept[name] || []).forEach(function (value) {
        var selector = '[name="' + escaped(name) + '"][value="' + escaped(value) + '"]';
        form.querySelectorAll(selector).forEach(function (field) {
          if (field.type === "radio" || field.type === "checkbox") {
            field.checked = true;
            field.dispatchEvent(new Event("change", { bubbles: true }));
          } else if (field.tagName === "BUTTON") {
            field.classList.add("is-kept");
          }
        });
        form.querySelectorAll('select[name="' + escaped(name) + '"]').forEach(function (select) {
          if (Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
            select.value = value;
            select.dispatchEvent(new Event("change", { bubbles: true }));
          }
        });
      });
    });
  }

  function place() {
    var answer = document.getElementById("stale-answer");
    if (!answer || answer.dataset.placed) { return; }
    answer.dataset.placed = "1";
    var moves = document.querySelector(".moves-wrap");
    if (moves && moves.classList.contains("move-sheet")) {  // the form open as a sheet (static/js/game.js): in it, under its head
      var head = moves.querySelector(".move-sheet__head");
      moves.insertBefore(answer, head ? head.nextSibling : moves.firstChild);
    } else if (moves) { moves.parentNode.insertBefore(answer, moves); }
    var data = document.getElementById("stale-kept");
    var form = moves ? moves.querySelector("form") : null;
    if (data && form) {
      try { keep(form, JSON.parse(data.textContent)); } catch (error) { /* a choice we cannot read: none kept */ }
    }
    var again = answer.querySelector("[data-stale-again]");
    if (again) {
      again.addEventListener("click", function () {
        var buttons = again.closest("form");
        if (buttons) { buttons.hidden = true; }
      });
    }
    answer.scrollIntoView({ block: "start" });
    answer.focus({ preventScroll: true });
  }

  document.addEventListener("DOMContentLoaded", place);
  document.addEventListener("htmx:afterSettle", place);
})();
