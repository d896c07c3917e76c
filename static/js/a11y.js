// Playing by keyboard and screen reader (issue 31; the help page, /help/keyboard/, lists the commands).
// - A polite live region (#announcer) reads out what a live update brought, once each: the events since the
//   version the page showed and the start of the player's turn (games/_announce.html, from the seat's own log),
//   new chat messages from others, and a deadline warning when the player's own clock runs low.
//   Nothing else is read again: the live partial itself is no live region.
// - The command box (games/_commands.html) reads out parts of the page on demand: whose move and the time left,
//   the last events, the player's hand, the table. Commands are typed into a text box, as in lichess's blind
//   mode, so a screen reader's own single-key commands never clash; Alt+Shift+K brings focus to the box.
// Everything read out is text the server rendered for this viewer; the script only picks which.
(function () {
  "use strict";
  if (window.mammamiaA11y) { return; }
  window.mammamiaA11y = true;
  var LOW_CLOCK_MS = 3600000;   // as static/js/clocks.js marks a clock low
  var DEFAULT_EVENTS = 3, MAX_EVENTS = 30;
  var announced = {};            // versions whose news was read out (or shown when the page loaded)
  var chatSeen = {};             // chat lines already on the page
  var warnedDeadline = null;     // the deadline whose warning was read out

  function box() { return document.querySelector("[data-commands]"); }
  function phrase(name) { var el = box(); return (el && el.dataset[name]) || ""; }
  function clean(text) { return (text || "").replace(/\s+/g, " ").trim(); }
  // An element's text as read out: without what is hidden from screen readers (arrows, decorations).
  function readable(el) {
    if (!el) { return ""; }
    var copy = el.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true], .jump-to-move, [hidden]").forEach(function (n) { n.remove(); });
    return clean(copy.textContent);
  }
  // Saying the same thing twice still reads it out: empty the region first, then fill it.
  function say(region, message) {
    if (!region || !message) { return; }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = message; }, 60);
  }

  // News from live updates ---------------------------------------------------------------------------------

  function chatLines() { return document.querySelectorAll("#live .chat-line[id]"); }
  function newChat() {
    var said = [];
    chatLines().forEach(function (line) {
      if (chatSeen[line.id]) { return; }
      chatSeen[line.id] = true;
      if (line.classList.contains("is-mine")) { return; }
      var author = readable(line.querySelector(".chat-author")), text = readable(line.querySelector(".chat-text"));
      said.push(phrase("sayChat").replace("{name}", author).replace("{text}", text));
    });
    return said;
  }
  function lowClock() {
    var clock = document.querySelector("#live .your-move .countdown[data-clock-deadline]");
    if (!clock || clock.dataset.clockDeadline === warnedDeadline) { return null; }
    if (Number(clock.dataset.clockDeadline) - Date.now() >= LOW_CLOCK_MS && !clock.classList.contains("is-low")) { return null; }
    warnedDeadline = clock.dataset.clockDeadline;
    return phrase("sayLowClock").replace("{time}", readable(clock.querySelector("[data-clock-text]")) || readable(clock));
  }
  function news() {
    var said = [];
    var fresh = document.querySelector("#live [data-announce]");
    if (fresh && !announced[fresh.dataset.announce]) {
      announced[fresh.dataset.announce] = true;
      fresh.querySelectorAll("p").forEach(function (p) { said.push(clean(p.textContent)); });
    }
    said = said.concat(newChat());
    var warning = lowClock();
    if (warning) { said.push(warning); }
    return said;
  }
  function onUpdate() {
    var said = news();
    if (said.length) { say(document.getElementById("announcer"), said.join(" ")); }
    showCommandsLink();
  }

  // Commands -----------------------------------------------------------------------------------------------

  function reading(part) { return clean((document.querySelector("#live [data-reading=" + part + "]") || {}).textContent); }
  function lastEvents(count) {
    var lines = Array.prototype.slice.call(document.querySelectorAll("#log-pane .log-line"));
    if (!lines.length) { return phrase("sayNoEvents"); }
    return lines.slice(-count).map(readable).join(" · ");
  }
  function goToMove() {
    var moves = document.getElementById("moves");
    var first = moves && moves.querySelector("input:not([type=hidden]):not([disabled]), button:not([disabled]), select, textarea");
    if (!first) { return phrase("sayNoMoves"); }
    first.focus();
    return "";
  }
  function run(command) {
    var match = /^\s*([a-z?])\s*(\d*)\s*$/i.exec(command || "");
    if (!match) { return phrase("sayUnknown"); }
    var letter = match[1].toLowerCase(), number = Number(match[2] || 0);
    if (letter === "t") { return readable(document.querySelector("#live .turn-status")) || phrase("sayNone"); }
    if (letter === "l") { return lastEvents(Math.min(MAX_EVENTS, number || DEFAULT_EVENTS)); }
    if (letter === "h") { return reading("hand") || phrase("sayNone"); }
    if (letter === "b") { return reading("table") || phrase("sayNone"); }
    if (letter === "m") { return goToMove(); }
    if (letter === "?") { return phrase("sayHelp"); }
    return phrase("sayUnknown");
  }
  function showCommandsLink() {
    if (!box()) { return; }
    document.querySelectorAll("[data-commands-link]").forEach(function (el) { el.hidden = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("[data-commands-form]")) { return; }
    event.preventDefault();
    var input = form.querySelector("input[name=command]");
    var answer = run(input.value);
    input.value = "";
    if (answer) { say(document.getElementById("command-output"), answer); }
  });
  document.addEventListener("keydown", function (event) {
    // Alt+Shift+K (by key position, so every keyboard layout has it): no browser or screen reader uses it.
    if (event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === "KeyK") {
      var input = document.getElementById("command-input");
      if (input && box() && !box().hidden) { event.preventDefault(); input.focus(); }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var el = box();
    if (el) { el.hidden = false; }
    // What the page showed when it loaded is read with the page: only later news is announced.
    var shown = document.querySelector("#live [data-announce]");
    if (shown) { announced[shown.dataset.announce] = true; }
    chatLines().forEach(function (line) { chatSeen[line.id] = true; });
    showCommandsLink();
    window.setInterval(function () {
      var warning = lowClock();
      if (warning) { say(document.getElementById("announcer"), warning); }
    }, 30000);
  });
  document.addEventListener("htmx:afterSettle", onUpdate);
})();
