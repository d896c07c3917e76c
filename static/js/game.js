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
})();
