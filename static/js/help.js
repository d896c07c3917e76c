// Help on the table (issue 27). A card or marker with data-help="help-<topic>" explains itself: its explanation
// is the board's hidden popover with that id (templates/games/_help.html). This script
// - makes each such card its explanation's accessible description (aria-describedby) and, outside a control,
//   a button of its own that keyboards reach (tabindex 0); a card inside a move button or a radio's label
//   describes that control instead (its tap stays the move);
// - shows the explanation beside the card on hover and keyboard focus (desktop) and on tap (phone), one at a
//   time, above the card where there is room (the move form lies below the table), and hides it on leaving,
//   on Escape, on a tap elsewhere and when the table is updated.
// The Popover API puts it in the top layer (no z-index fights); its place is set through the CSSOM (no inline
// style in the markup, so the CSP holds). It never takes a tap or click (pointer-events: none): what lies
// under it stays reachable.
(function () {
  "use strict";
  if (window.mammamiaHelp) { return; }
  window.mammamiaHelp = true;

  var CONTROL = "button, a[href], label, input, select, textarea, summary";
  var GAP = 6;
  var shown = null;   // {pop, trigger, pinned}

  function popFor(trigger) {
    var id = trigger.getAttribute("data-help");
    var pop = id ? document.getElementById(id) : null;
    return pop && pop.classList.contains("help-pop") ? pop : null;
  }

  function describe(element, id) {
    var ids = (element.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    if (ids.indexOf(id) < 0) {
      ids.push(id);
      element.setAttribute("aria-describedby", ids.join(" "));
    }
  }

  // The control a card inside a form stands for: the button itself, or the input a label holds.
  function controlOf(trigger) {
    var control = trigger.parentElement ? trigger.parentElement.closest(CONTROL) : null;
    if (control && control.tagName === "LABEL") {
      return control.querySelector("input, select, textarea") || control;
    }
    return control;
  }

  function upgrade(root) {
    var triggers = (root || document).querySelectorAll("[data-help]");
    Array.prototype.forEach.call(triggers, function (trigger) {
      if (trigger.dataset.helpReady === "1" || !popFor(trigger)) { return; }
      trigger.dataset.helpReady = "1";
      var id = trigger.getAttribute("data-help");
      var control = controlOf(trigger);
      if (control) {
        describe(control, id);
        return;
      }
      trigger.setAttribute("tabindex", "0");
      // A card already named as an image (a revealed face: role="img", "red 1") stays one: as a button its name
      // would have to contain its visible text in the same order (WCAG 2.5.3, axe label-content-name-mismatch),
      // and "1 red" is not how it is named. Focus and the description work the same on either.
      if (trigger.getAttribute("role") !== "img") {
        trigger.setAttribute("role", "button");
        trigger.setAttribute("aria-expanded", "false");
      }
      trigger.classList.add("has-help");
      describe(trigger, id);
    });
  }

  function place(pop, trigger) {
    var box = trigger.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    var height = window.innerHeight;
    pop.style.left = "0px";
    pop.style.top = "0px";
    var size = pop.getBoundingClientRect();
    var left = Math.min(Math.max(GAP, box.left + box.width / 2 - size.width / 2), width - size.width - GAP);
    var top = box.top - size.height - GAP;
    if (top < GAP) {
      top = box.bottom + GAP;   // no room above: below the card
      if (top + size.height > height - GAP) { top = Math.max(GAP, height - size.height - GAP); }
    }
    pop.style.left = Math.max(GAP, left) + "px";
    pop.style.top = top + "px";
  }

  function hide() {
    if (!shown) { return; }
    var current = shown;
    shown = null;
    if (current.trigger.getAttribute("aria-expanded") !== null) {
      current.trigger.setAttribute("aria-expanded", "false");
    }
    try { current.pop.hidePopover(); } catch (error) { /* already hidden (the board was swapped) */ }
  }

  function show(trigger, pinned) {
    var pop = popFor(trigger);
    if (!pop) { return; }
    if (shown && shown.pop === pop && shown.trigger === trigger) {
      shown.pinned = shown.pinned || pinned;
      return;
    }
    hide();
    try { pop.showPopover(); } catch (error) { return; }
    place(pop, trigger);
    if (trigger.getAttribute("aria-expanded") !== null) { trigger.setAttribute("aria-expanded", "true"); }
    shown = {pop: pop, trigger: trigger, pinned: pinned};
  }

  // The card a pointer or focus event is about: the [data-help] element itself, or the one inside a control.
  function triggerOf(target) {
    if (!(target instanceof Element)) { return null; }
    var trigger = target.closest("[data-help]");
    if (trigger) { return trigger; }
    var control = target.closest(CONTROL);
    return control ? control.querySelector("[data-help]") : null;
  }

  document.addEventListener("click", function (event) {
    var trigger = event.target instanceof Element ? event.target.closest("[data-help].has-help") : null;
    if (!trigger) {
      if (shown && !shown.pop.contains(event.target)) { hide(); }
      return;
    }
    if (shown && shown.trigger === trigger && shown.pinned) { hide(); return; }
    show(trigger, true);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { hide(); return; }
    var trigger = event.target instanceof Element && event.target.matches("[data-help].has-help") ? event.target : null;
    if (trigger && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      if (shown && shown.trigger === trigger && shown.pinned) { hide(); } else { show(trigger, true); }
    }
  });

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") { return; }
    var trigger = triggerOf(event.target);
    if (trigger && popFor(trigger)) { show(trigger, false); }
  });

  document.addEventListener("pointerout", function (event) {
    if (!shown || shown.pinned || event.pointerType !== "mouse") { return; }
    var to = event.relatedTarget;
    if (to instanceof Node && (shown.trigger.contains(to) || (controlOf(shown.trigger) || shown.trigger).contains(to))) {
      return;
    }
    hide();
  });

  // A move button or choice shows its card's help on keyboard focus only: tapped or clicked, it is the move.
  function keyboardFocus(element) {
    try { return element.matches(":focus-visible"); } catch (error) { return true; }
  }

  document.addEventListener("focusin", function (event) {
    var trigger = triggerOf(event.target);
    var shows = trigger && popFor(trigger) && (trigger.classList.contains("has-help") || keyboardFocus(event.target));
    if (shows) { show(trigger, false); } else if (shown && !shown.pinned) { hide(); }
  });

  document.addEventListener("focusout", function (event) {
    if (shown && !shown.pinned && !(event.relatedTarget instanceof Node && shown.trigger.contains(event.relatedTarget))) {
      hide();
    }
  });

  window.addEventListener("scroll", function () { if (shown) { place(shown.pop, shown.trigger); } }, {passive: true});
  window.addEventListener("resize", function () { if (shown) { place(shown.pop, shown.trigger); } });

  document.addEventListener("htmx:beforeSwap", hide);
  document.addEventListener("htmx:afterSettle", function () { upgrade(document); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { upgrade(document); });
  } else {
    upgrade(document);
  }
}());
