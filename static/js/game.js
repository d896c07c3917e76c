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
  // the move form is on screen. Putting it back moves the form down by the bar's height and taking it out moves
  // the form up, so the two thresholds lie further apart than that: the bar cannot flip back and forth.
  var inView = false;
  var queued = false;
  function placeBar() {
    queued = false;
    var moves = document.getElementById("moves");
    var next = false;
    if (moves) {
      var box = moves.getBoundingClientRect();
      var height = window.innerHeight || document.documentElement.clientHeight;
      next = inView ? !(box.top > height - 40 || box.bottom < 40) : (box.top < height * 0.6 && box.bottom > 160);
    }
    if (next !== inView) {
      inView = next;
      document.body.classList.toggle("moves-in-view", inView);
    }
  }
  function queuePlaceBar() {
    if (!queued) { queued = true; window.requestAnimationFrame(placeBar); }
  }
  document.addEventListener("DOMContentLoaded", queuePlaceBar);
  document.addEventListener("htmx:afterSettle", queuePlaceBar);
  window.addEventListener("scroll", queuePlaceBar, { passive: true });
  window.addEventListener("resize", queuePlaceBar);
})();
