// Players' clocks tick in the browser, without requests: each running clock carries its deadline and its
// pauses until then (quiet days, an absence) in milliseconds, so the time left at any moment is the time until
// the deadline minus the pauses still to come (clocks/display.py). Progressive enhancement: without this file
// the page says when each clock runs out.
(function () {
  "use strict";
  if (window.mammamiaClocks) { return; }
  window.mammamiaClocks = true;

  function pauses(el) {
    return (el.dataset.clockPauses || "").split(",").filter(Boolean).map(function (pair) {
      return pair.split("-").map(Number);
    });
  }

  function reading(el, now) {
    var deadline = Number(el.dataset.clockDeadline);
    var left = deadline - now;
    var paused = false;
    if (left <= 0) { return { ms: 0, paused: false }; }
    pauses(el).forEach(function (p) {
      var begin = Math.max(p[0], now), end = Math.min(p[1], deadline);
      if (end > begin) { left -= end - begin; }
      if (p[0] <= now && now < p[1]) { paused = true; }
    });
    return { ms: Math.max(0, left), paused: paused };
  }

  function two(n) { return n < 10 ? "0" + n : String(n); }

  function format(el, ms) {
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    var pattern = d > 0 ? el.dataset.fmtDh : (h > 0 ? el.dataset.fmtHm : el.dataset.fmtMs);
    return (pattern || "").replace("{d}", d).replace("{h}", h).replace("{m}", h > 0 ? two(m) : m)
      .replace("{s}", two(s % 60));
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock-deadline]").forEach(function (el) {
      var r = reading(el, now);
      var out = el.querySelector("[data-clock-text]");
      var text = format(el, r.ms);
      if (out && out.textContent !== text) { out.textContent = text; }
      var stopped = el.querySelector("[data-clock-paused]");
      if (stopped) { stopped.hidden = !r.paused; }
      el.classList.toggle("is-paused", r.paused);
      el.classList.toggle("is-low", r.ms < 3600000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSettle", tick);
})();
