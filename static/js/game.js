// The game page: keep the tab title in step with the live partial, and let htmx
// swap refused-move answers (400/403/409) so their message shows in place.
(function () {
  "use strict";
  function syncTitle() {
    var live = document.getElementById("live");
    if (live && live.dataset.pageTitle) { document.title = live.dataset.pageTitle; }
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) {
      htmx.config.responseHandling = [
        { code: "204", swap: false },
        { code: "[23]..", swap: true },
        { code: "40[039]", swap: true, error: false },
        { code: "[45]..", swap: false, error: true }
      ];
    }
    syncTitle();
  });
  document.addEventListener("htmx:afterSettle", syncTitle);

  // Issue 32: the phone's bottom bar ("It is your move", static/css/games.css) goes back to its place while
  // the move form is on screen.
  var watched = null;
  var observer = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) { document.body.classList.toggle("moves-in-view", entry.isIntersecting); });
  }) : null;
  function watchMoves() {
    var moves = document.getElementById("moves");
    if (!observer || moves === watched) { return; }
    if (watched) { observer.unobserve(watched); }
    watched = moves;
    if (moves) { observer.observe(moves); } else { document.body.classList.remove("moves-in-view"); }
  }
  document.addEventListener("DOMContentLoaded", watchMoves);
  document.addEventListener("htmx:afterSettle", watchMoves);
})();
