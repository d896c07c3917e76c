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

  // Issue 32: on a phone "It is your move" (static/css/games.css) sits in its place at the top of the table
  // while that place or the move form is on screen, and sticks to the bottom of the screen in between. It is
  // out of the flow in both places and its room at the top of the table is kept here (measured while it sticks
  // to the bottom), so the table never moves as the bar comes and goes: a move button under a finger stays
  // under it (a tap begun on one button and ended on another sends nothing, or the other move). The body's
  // class "moves-in-view" puts the bar in its place.
  var inPlace = false;
  var queued = false;
  function keepRoom() {
    var status = document.querySelector(".turn-status");
    var bar = status && status.querySelector(".your-move");
    if (!bar) { return; }
    var position = window.getComputedStyle(bar).position;
    if (position === "fixed" || (position === "absolute" && !status.style.minHeight)) {
      status.style.minHeight = bar.offsetHeight + "px";
    }
  }
  function onScreen(element, margin) {
    if (!element) { return false; }
    var box = element.getBoundingClientRect();
    var height = window.innerHeight || document.documentElement.clientHeight;
    return box.height > 0 && box.top < height - margin && box.bottom > margin;
  }
  function placeBar() {
    queued = false;
    keepRoom();
    var next = onScreen(document.querySelector(".turn-status"), 0) || onScreen(document.getElementById("moves"), 80);
    if (next !== inPlace) {
      inPlace = next;
      document.body.classList.toggle("moves-in-view", inPlace);
    }
  }
  function queuePlaceBar() {
    if (!queued) { queued = true; window.requestAnimationFrame(placeBar); }
  }
  document.addEventListener("DOMContentLoaded", function () { keepRoom(); queuePlaceBar(); });
  // Before the browser paints the swapped table: its bar's room is there at once.
  document.addEventListener("htmx:afterSwap", keepRoom);
  document.addEventListener("htmx:afterSettle", queuePlaceBar);
  window.addEventListener("scroll", queuePlaceBar, { passive: true });
  window.addEventListener("resize", function () { keepRoom(); queuePlaceBar(); });
})();
