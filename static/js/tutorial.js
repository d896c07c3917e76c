// The tutorial's step box (issue 27, games/tutorial/panel.py) points at a part of the table: the element its
// data-tutorial-point selector names is outlined, and marked for assistive technology as described by the box.
// Run on load and after every live swap of the table (htmx), since the step changes with the moves.
// When a new step points at a part of the table that is out of sight (on a phone it is often screens below the
// box), the page is scrolled once to bring it under the box, which is sticky: text and table are seen together.
(function () {
  "use strict";
  var MARK = "tutorial-point";
  var GAP = 12;
  var brought = null;   // the step (and its state) whose part of the table was last brought into view

  var touched = false;   // the player scrolled or pressed something since: leave the page where they put it

  function inSight(target, box) {
    var rect = target.getBoundingClientRect();
    var top = Math.max(0, box.getBoundingClientRect().bottom);
    var bottom = window.innerHeight;
    // Its top visible under the box, with some of it showing.
    return rect.top >= top - 1 && rect.top < bottom - Math.min(rect.height, (bottom - top) / 3);
  }

  function bring() {
    var box = document.getElementById("tutorial");
    var target = box && pointed(box);
    if (touched || !target || inSight(target, box)) return;
    // The box sticks to the top once the page scrolls past it: the part goes just below it (a second, small
    // scroll when the box had not reached its sticky place after the first).
    window.scrollBy({ top: target.getBoundingClientRect().top - (box.offsetHeight + GAP + 4), left: 0, behavior: "instant" });
    var under = target.getBoundingClientRect().top - (box.getBoundingClientRect().bottom + GAP);
    if (under < 0) window.scrollBy({ top: under, left: 0, behavior: "instant" });
  }

  function bringIntoView(box) {
    // The step and its state: a step shown while the bots still play is brought again once they are done (the
    // table above it may have grown meanwhile); any other live update leaves the player's scrolling alone.
    var step = box.getAttribute("data-tutorial-point") + "|" + box.textContent.replace(/\s+/g, " ");
    if (step === brought) return;
    brought = step;
    touched = false;
    // A refused move's reason is shown at the top of the table: the page stays there for it to be read.
    if (document.querySelector(".game-error")) return;
    // Now, and again while the page settles (the browser may still restore or anchor its scroll after load).
    [0, 200, 600, 1200].forEach(function (ms) { setTimeout(function () { window.requestAnimationFrame(bring); }, ms); });
  }

  function pointed(box) {
    try {
      return document.querySelector(box.getAttribute("data-tutorial-point") || "");
    } catch (e) {
      return null; // a selector the browser cannot read points at nothing
    }
  }

  function point() {
    var box = document.getElementById("tutorial");
    document.querySelectorAll("." + MARK).forEach(function (el) {
      el.classList.remove(MARK);
      if (el.getAttribute("aria-describedby") === "tutorial-title") el.removeAttribute("aria-describedby");
    });
    if (!box) return;
    // A jump within the page ("Go to your move") lands below the sticky box, not under it (CSSOM: the CSP holds).
    document.documentElement.style.scrollPaddingTop = box.offsetHeight + GAP + 4 + "px";
    var target = pointed(box);
    if (!target) return;
    // Every part the step names is outlined ("the heard list, the oven"); the first is the one brought into view.
    document.querySelectorAll(box.getAttribute("data-tutorial-point")).forEach(function (el) {
      el.classList.add(MARK);
      if (!el.hasAttribute("aria-describedby")) el.setAttribute("aria-describedby", "tutorial-title");
    });
    if (document.readyState === "complete") bringIntoView(box);
  }

  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (name) {
    window.addEventListener(name, function () { touched = true; }, { passive: true });
  });
  document.addEventListener("DOMContentLoaded", point);
  // After load: a "#tutorial" address has been scrolled to by then, and images have their sizes.
  window.addEventListener("load", point);
  document.addEventListener("htmx:afterSettle", point);
})();
