// Playing together on the game page, progressive enhancement only: every form works without this file.
// - On a phone the log, the chat and the notes become tabs (the choice survives the live refreshes).
// - A chat message sent with htmx empties the box; Enter sends, Shift+Enter breaks the line.
(function () {
  "use strict";
  if (window.mammamiaTogetherJs) { return; }
  window.mammamiaTogetherJs = true;
  var KEY = "together-tab";

  function current() {
    try { return sessionStorage.getItem(KEY) || "log"; } catch (e) { return "log"; }
  }
  function choose(name) {
    try { sessionStorage.setItem(KEY, name); } catch (e) { /* private mode */ }
    apply();
  }
  function apply() {
    var live = document.getElementById("live");
    if (!live) { return; }
    var tabs = live.querySelectorAll(".together-tabs [role=tab]");
    if (!tabs.length) { return; }
    document.body.classList.add("has-tabs");
    var wanted = current();
    var names = Array.prototype.map.call(tabs, function (t) { return t.dataset.tab; });
    if (names.indexOf(wanted) < 0) { wanted = "log"; }
    tabs.forEach(function (tab) {
      var on = tab.dataset.tab === wanted;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
    });
    live.querySelectorAll("[data-tab-pane]").forEach(function (pane) {
      pane.classList.toggle("is-current", pane.dataset.tabPane === wanted);
      pane.setAttribute("role", "tabpanel");
      pane.setAttribute("aria-labelledby", "tab-" + pane.dataset.tabPane);
    });
    var bar = live.querySelector(".together-tabs");
    if (bar) { bar.hidden = false; }
  }

  document.addEventListener("click", function (event) {
    var tab = event.target.closest && event.target.closest(".together-tabs [role=tab]");
    if (tab) { choose(tab.dataset.tab); }
  });
  document.addEventListener("keydown", function (event) {
    var tab = event.target.closest && event.target.closest(".together-tabs [role=tab]");
    if (tab && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      var all = Array.prototype.slice.call(tab.parentNode.querySelectorAll("[role=tab]"));
      var next = all[(all.indexOf(tab) + (event.key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
      choose(next.dataset.tab);
      next.focus();
      event.preventDefault();
      return;
    }
    var box = event.target;
    if (box && box.id === "chat-text" && event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (box.value.trim()) { box.form.requestSubmit(); }
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.matches && form.matches("form[data-chat-form]") && event.detail.successful) {
      form.reset();
    }
  });
  document.addEventListener("DOMContentLoaded", apply);
  document.addEventListener("htmx:afterSettle", apply);
})();
