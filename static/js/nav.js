// The header's menu on a phone (issue 19): the toggle opens and closes the folded links in place (without
// this file it is a link to #nav-more, which the stylesheet opens as the page's target). Escape closes it.
(function () {
  "use strict";
  if (window.mammamiaNav) { return; }
  window.mammamiaNav = true;
  function set(toggle, open) {
    var menu = document.getElementById(toggle.getAttribute("aria-controls"));
    if (!menu) { return; }
    menu.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".nav-more__toggle");
    if (!toggle) { return; }
    event.preventDefault();
    set(toggle, toggle.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var toggle = document.querySelector('.nav-more__toggle[aria-expanded="true"]');
    if (toggle) { set(toggle, false); toggle.focus(); }
  });
})();
