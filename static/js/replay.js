// The replay (issue 19): the arrow keys step back and forth, Home and End go to the start and the end,
// without full page loads (the step links are boosted by htmx: only #replay-view is swapped and the
// address follows). Keys typed into a form field are left alone. Without this file the links and the
// "go to" forms work as ordinary ones.
(function () {
  "use strict";
  if (window.mammamiaReplay) { return; }
  window.mammamiaReplay = true;
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  // The keys are told only where the main pointer is a mouse, which comes with a keyboard: not on a touch screen.
  var KEYBOARD = window.matchMedia ? window.matchMedia("(hover: hover) and (pointer: fine)") : null;

  function showKeys() {
    var hint = document.querySelector("[data-replay-keys]");
    if (hint) { hint.hidden = !(KEYBOARD && KEYBOARD.matches); }
  }

  // A key pressed while a step is on its way waits for it (the new links are boosted once settled; a
  // click before that would load the whole page).
  var loading = false, queued = null;

  function go(which) {
    var view = document.getElementById("replay-view");
    var link = view && view.querySelector('[data-replay="' + which + '"]');
    if (!link) { return false; }
    var step = Number(view.dataset.step), total = Number(view.dataset.total);
    if ((which === "prev" || which === "first") && step === 0) { return false; }
    if ((which === "next" || which === "last") && step === total) { return false; }
    if (loading) { queued = which; return true; }
    loading = Boolean(window.htmx);
    link.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) { return; }
    if (go(which)) { event.preventDefault(); }
  });
  document.addEventListener("DOMContentLoaded", showKeys);
  document.addEventListener("htmx:afterSettle", function () {
    showKeys();
    loading = false;
    if (queued) { var next = queued; queued = null; go(next); }
  });
  document.addEventListener("htmx:responseError", function () { loading = false; queued = null; });
  document.addEventListener("htmx:sendError", function () { loading = false; queued = null; });
})();
