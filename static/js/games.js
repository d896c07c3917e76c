// Game move forms, progressive enhancement only: every form works without this file.
// Mamma Mia!: the turn form says in one line what the chosen radios add up to before it is sent.
(function () {
  "use strict";
  if (window.mammamiaGamesJs) { return; }  // the live partial may bring this file in more than once
  window.mammamiaGamesJs = true;

  function summarise(form) {
    var out = form.querySelector("[data-mm-summary]");
    if (!out) { return; }
    var parts = [];
    form.querySelectorAll("input[data-say]").forEach(function (input) {
      if ((input.type !== "radio" || input.checked) && input.dataset.say) { parts.push(input.dataset.say); }
    });
    out.textContent = parts.length ? (out.dataset.prefix || "") + " " + parts.join(" · ") : "";
    out.hidden = !parts.length;
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-mm-turn]");
    if (form) { summarise(form); }
  });
  function all() { document.querySelectorAll("form[data-mm-turn]").forEach(summarise); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSettle", all);
})();
