// Small helpers for every page; each only improves a page that works without it (no inline script: CSP).
// - An account without a time zone of its own choosing takes the browser's (Intl) once: <body data-tz-detect>.
// - Settings: "Use this device's time zone" fills the time-zone field.
// - Copy buttons: <button data-copy="id of the field"> copies its value and says so.
// - Creating a game: the seat list and the length line follow the chosen game.
(function () {
  "use strict";

  function browserZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function detectTimeZone() {
    var url = document.body.getAttribute("data-tz-detect");
    var zone = browserZone();
    if (!url || !zone || !window.fetch) { return; }
    var body = new URLSearchParams();
    body.set("time_zone", zone);
    fetch(url, { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrfToken() }, body: body })
      .catch(function () { /* the next page tries again */ });
  }

  function offerBrowserZone() {
    var button = document.querySelector("[data-browser-zone]");
    var field = document.getElementById("id_time_zone");
    var zone = browserZone();
    if (!button || !field || !zone) { return; }
    button.textContent = button.getAttribute("data-label").replace("{zone}", zone);
    // Not chosen yet: the browser's zone is what the account is about to take, so the form shows it.
    if (document.body.hasAttribute("data-tz-detect")) { field.value = zone; }
    button.closest(".js-only").hidden = false;
    button.addEventListener("click", function () { field.value = zone; field.focus(); });
  }

  function copy(button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById(button.getAttribute("data-copy-status"));
    if (!field) { return; }
    function done(ok) {
      if (status) { status.textContent = button.getAttribute(ok ? "data-copied" : "data-copy-failed"); }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done(true); }, function () { done(false); });
      return;
    }
    field.select();
    try { done(document.execCommand("copy")); } catch (e) { done(false); }
  }

  function followChosenGame(form) {
    var seats = form.querySelector("select[name=players]");
    var line = document.getElementById("seat-length");
    var text = document.getElementById("seat-length-text");
    if (!seats) { return; }
    var all = Array.prototype.map.call(seats.options, function (o) { return o.cloneNode(true); });
    function update() {
      var chosen = form.querySelector("input[name=engine_slug]:checked");
      if (!chosen) { return; }
      var low = +chosen.getAttribute("data-min"), high = +chosen.getAttribute("data-max");
      var wanted = +seats.value;
      seats.innerHTML = "";
      all.forEach(function (o) {
        if (+o.value >= low && +o.value <= high) { seats.appendChild(o.cloneNode(true)); }
      });
      seats.value = String(Math.min(Math.max(wanted, low), high));
      var lengths = JSON.parse(chosen.getAttribute("data-lengths") || "{}");
      if (line && text) {
        var length = lengths[seats.value];
        line.textContent = length ? text.content.textContent.replace("{length}", length) : "";
      }
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "engine_slug" || event.target.name === "players") { update(); }
    });
    update();
  }

  // One level per bot seat: show as many level choices as bots are chosen (all of them without JavaScript).
  function followBotCount(form) {
    var bots = form.querySelector("select[name=bots]");
    var box = form.querySelector("[data-bot-levels]");
    if (!bots || !box) { return; }
    function update() {
      var count = +bots.value;
      box.hidden = count === 0;
      Array.prototype.forEach.call(box.querySelectorAll("[data-bot-level]"), function (line) {
        line.hidden = +line.getAttribute("data-bot-level") > count;
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "bots") { update(); }
    });
    update();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (button) { event.preventDefault(); copy(button); }
  });

  function revealCopyButtons() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-copy][hidden]"), function (b) { b.hidden = false; });
  }

  // Pages swapped in by htmx (the waiting room refreshes itself) bring their own copy buttons.
  document.addEventListener("htmx:afterSettle", revealCopyButtons);

  function start() {
    revealCopyButtons();
    detectTimeZone();
    offerBrowserZone();
    var form = document.querySelector("[data-create-form]");
    if (form) { followChosenGame(form); followBotCount(form); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
