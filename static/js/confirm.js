// Confirm one-tap moves (issue 19). A move form marked one-tap (an input named "one_tap": a Konamon! card,
// a Marumiere pile or card) sends its move with a single tap. When the player wants a confirmation (their
// setting on the page's data-confirm-moves: "always", or "auto" on a touch screen, i.e. the primary pointer
// is coarse), the tapped choice is marked and a bar asks "Send this move?" before it goes. Either way the
// form then carries confirmed=1, so the server does not ask again; without this script the server asks on
// a page of its own (accounts/confirm.py).
(function () {
  "use strict";
  if (window.mammamiaConfirm) { return; }
  window.mammamiaConfirm = true;

  function wanted() {
    var holder = document.querySelector("[data-confirm-moves]");
    var mode = holder ? holder.dataset.confirmMoves : "auto";
    if (mode === "always") { return true; }
    if (mode === "never") { return false; }
    return window.matchMedia ? window.matchMedia("(pointer: coarse)").matches : false;
  }

  function hidden(form, name, value) {
    var input = form.querySelector('input[type="hidden"][name="' + name + '"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  function labelOf(button) {
    var text = button.getAttribute("aria-label") || button.getAttribute("title") || button.textContent || "";
    return text.replace(/\s+/g, " ").trim();
  }

  // One confirmation per decision (issue 32): a form marked data-confirm-once (a Konamon! card's steps) asks
  // for its first step only; the card's later steps go with one tap. Kept for this tab (sessionStorage).
  function onceKey(form) { return form.dataset.confirmOnce ? "mm-confirmed:" + form.dataset.confirmOnce : null; }

  function confirmedOnce(form) {
    var key = onceKey(form);
    try { return !!key && window.sessionStorage.getItem(key) === "1"; } catch (error) { return false; }
  }

  function rememberOnce(form) {
    var key = onceKey(form);
    try { if (key) { window.sessionStorage.setItem(key, "1"); } } catch (error) { /* private mode: ask again */ }
  }

  var pending = null; // {form, button, bar}

  function clear(restoreFocus) {
    if (!pending) { return; }
    var button = pending.button;
    button.classList.remove("is-pending");
    button.removeAttribute("aria-pressed");
    if (pending.bar.parentNode) { pending.bar.parentNode.removeChild(pending.bar); }
    pending = null;
    if (restoreFocus && document.contains(button)) { button.focus(); }
  }

  function ask(form, button) {
    var template = document.getElementById("confirm-move-bar");
    if (!template) { return false; }
    clear(false);
    var bar = template.content.firstElementChild.cloneNode(true);
    bar.querySelector("[data-confirm-label]").textContent = labelOf(button);
    button.classList.add("is-pending");
    button.setAttribute("aria-pressed", "true");
    // After the form's section, so the bar sits under the choices (and sticks to the screen's bottom).
    var section = form.closest(".mv") || form;
    section.appendChild(bar);
    pending = { form: form, button: button, bar: bar };
    bar.querySelector("[data-confirm-send]").addEventListener("click", function () {
      var chosen = pending;
      if (!chosen) { return; }
      chosen.form.dataset.confirmed = "1";
      rememberOnce(chosen.form);
      hidden(chosen.form, "confirmed", "1");
      chosen.bar.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      if (chosen.form.requestSubmit) { chosen.form.requestSubmit(chosen.button); } else { chosen.button.click(); }
    });
    bar.querySelector("[data-confirm-cancel]").addEventListener("click", function () { clear(true); });
    bar.querySelector("[data-confirm-send]").focus({ preventScroll: true });
    bar.scrollIntoView({ block: "nearest" });
    return true;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.querySelector('input[name="one_tap"]')) { return; }
    var button = event.submitter;
    // The script decided: the server must not ask again.
    hidden(form, "confirmed", "1");
    if (form.dataset.confirmed === "1" || !button || button.name !== "move" || !wanted()) { return; }
    if (confirmedOnce(form)) { return; }
    if (ask(form, button)) { event.preventDefault(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && pending) { clear(true); }
  });
})();
