// Game move forms, progressive enhancement only: every form works without this file.
// Mamma Mia!: the turn form says in one line what the chosen radios add up to before it is sent.
(function () {
  "use strict";
  if (window.mammamiaGamesJs) { return; }  // the live partial may bring this file in more than once
  window.mammamiaGamesJs = true;

  function summarise(form) {
    var out = form.querySelector("[data-mm-summary]");
    if (!out) { return; }
    var played = form.querySelector("input[name=play]:checked, input[type=hidden][name=play]");
    var parts = [];
    form.querySelectorAll("input[data-say]").forEach(function (input) {
      if ((input.type !== "radio" || input.checked) && input.dataset.say) { parts.push(input.dataset.say); }
    });
    var show = Boolean(played) && parts.length > 0;  // say nothing until the toppings are chosen
    out.textContent = show ? (out.dataset.prefix || "") + " " + parts.join(" · ") : "";
    out.hidden = !show;
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-mm-turn]");
    if (form) { summarise(form); }
  });
  function all() { document.querySelectorAll("form[data-mm-turn]").forEach(summarise); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSettle", all);
})();
