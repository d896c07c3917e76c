// The tutorial's step box (issue 27, games/tutorial/panel.py) points at a part of the table: the element its
// data-tutorial-point selector names is outlined, and marked for assistive technology as described by the box.
// Run on load and after every live swap of the table (htmx), since the step changes with the moves.
(function () {
  "use strict";
  var MARK = "tutorial-point";

  function point() {
    var box = document.getElementById("tutorial");
    document.querySelectorAll("." + MARK).forEach(function (el) {
      el.classList.remove(MARK);
      if (el.getAttribute("aria-describedby") === "tutorial-title") el.removeAttribute("aria-describedby");
    });
    if (!box) return;
    var selector = box.getAttribute("data-tutorial-point");
    if (!selector) return;
    var target;
    try {
      target = document.querySelector(selector);
    } catch (e) {
      return; // a selector the browser cannot read points at nothing
    }
    if (!target) return;
    target.classList.add(MARK);
    if (!target.hasAttribute("aria-describedby")) target.setAttribute("aria-describedby", "tutorial-title");
  }

  document.addEventListener("DOMContentLoaded", point);
  document.addEventListener("htmx:afterSettle", point);
})();
