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

  // A live update replaces the whole table (#live, outerHTML): a <details> with an id that the player had
  // opened there ("Resign…") stays open, and the boxes ticked in it stay ticked, so news from the others
  // (a bot's move) never takes a half-made decision away. Only opened ones: what the server closes stays
  // closed unless the player had it open.
  var opened = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var old = document.getElementById("live");
    opened = null;
    if (!old || event.detail.target !== old) { return; }
    opened = [];
    old.querySelectorAll("details[id][open]").forEach(function (details) {
      var ticked = [];
      details.querySelectorAll("input[type=checkbox][id]:checked").forEach(function (box) { ticked.push(box.id); });
      opened.push({ id: details.id, ticked: ticked });
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    (opened || []).forEach(function (kept) {
      var details = document.getElementById(kept.id);
      if (!details || details.tagName !== "DETAILS") { return; }
      details.open = true;
      kept.ticked.forEach(function (id) {
        var box = document.getElementById(id);
        if (box && details.contains(box)) { box.checked = true; }
      });
    });
    opened = null;
  });

  // Issue 32: on a phone "It is your move" (static/css/games.css) sits in its place at the top of the table
  // while that place or the move form is on screen, and sticks to the bottom of the screen in between. It is
  // out of the flow in both places and its room at the top of the table is kept here (measured while it sticks
  // to the bottom), so the table never moves as the bar comes and goes: a move button under a finger stays
  // under it (a tap begun on one button and ended on another sends nothing, or the other move). The body's
  // class "moves-in-view" puts the bar in its place.
  var inPlace = false;
  var queued = false;
  function keepRoom() {
    var status = document.querySelector(".turn-status");
    var bar = status && status.querySelector(".your-move");
    if (!bar) { return; }
    var position = window.getComputedStyle(bar).position;
    if (position === "fixed" || (position === "absolute" && !status.style.minHeight)) {
      status.style.minHeight = bar.offsetHeight + "px";
    }
  }
  function onScreen(element, margin) {
    if (!element) { return false; }
    var box = element.getBoundingClientRect();
    var height = window.innerHeight || document.documentElement.clientHeight;
    return box.height > 0 && box.top < height - margin && box.bottom > margin;
  }
  function placeBar() {
    queued = false;
    keepRoom();
    var next = onScreen(document.querySelector(".turn-status"), 0) || onScreen(document.getElementById("moves"), 80);
    if (next !== inPlace) {
      inPlace = next;
      document.body.classList.toggle("moves-in-view", inPlace);
    }
  }
  function queuePlaceBar() {
    if (!queued) { queued = true; window.requestAnimationFrame(placeBar); }
  }
  document.addEventListener("DOMContentLoaded", function () { keepRoom(); queuePlaceBar(); });
  // Before the browser paints the swapped table: its bar's room is there at once.
  document.addEventListener("htmx:afterSwap", keepRoom);
  document.addEventListener("htmx:afterSettle", queuePlaceBar);
  window.addEventListener("scroll", queuePlaceBar, { passive: true });
  window.addEventListener("resize", function () { keepRoom(); queuePlaceBar(); });
})();

// Issue 32, phone first: on a phone "Move" in that bar opens the move form (.moves-wrap: "What can I do now?",
// the form and the part of the table it acts on) as a modal sheet over the table, under a head saying what is
// awaited and the deadline, with "Back to the table". The form stays the page's one form, where it is in the
// page: the sheet is that element fixed over the table, room for it is kept where it was (the table and the
// log never move under it), everything else is inert while it is open (aria-modal), focus goes into it and
// back to "Move" when it closes (Escape, "Back to the table", a tap beside it). A live update keeps it open on
// the new form (a Konamon! card's next step) and closes it when the move is no longer the player's. Without
// the script the bar keeps its "Go to your move" link down to the form; on a wide screen nothing changes.
(function () {
  "use strict";
  if (!window.matchMedia) { return; }
  var phone = window.matchMedia("(max-width: 40rem)");
  var sheet = null;       // the .moves-wrap open as a sheet
  var inert = [];         // what was made inert while it is open
  var room = null;        // its room in the page, where it was
  var roomHeight = 0;
  var backdrop = null;

  function unmark() {
    inert.forEach(function (element) { element.inert = false; });
    inert = [];
    if (room) { room.remove(); room = null; }
    if (backdrop) { backdrop.remove(); backdrop = null; }
  }
  function mark(wrap) {
    room = document.createElement("div");
    room.className = "move-sheet-room";
    room.setAttribute("aria-hidden", "true");
    room.style.height = roomHeight + "px";
    wrap.parentNode.insertBefore(room, wrap);
    for (var node = wrap; node.parentElement && node !== document.body; node = node.parentElement) {
      Array.prototype.forEach.call(node.parentElement.children, function (sibling) {
        if (sibling !== node && !sibling.inert && !/^(SCRIPT|TEMPLATE|STYLE|LINK)$/.test(sibling.tagName)) {
          sibling.inert = true;
          inert.push(sibling);
        }
      });
    }
    backdrop = document.createElement("div");
    backdrop.className = "move-sheet-backdrop";
    backdrop.setAttribute("data-move-sheet-close", "");
    document.body.appendChild(backdrop);
  }
  function fillHead(wrap) {
    var head = wrap.querySelector(".move-sheet__head");
    var template = document.getElementById("move-sheet-head");
    if (!head && template) {
      head = template.content.firstElementChild.cloneNode(true);
      wrap.insertBefore(head, wrap.firstChild);
    }
    var title = head && head.querySelector(".move-sheet__title");
    var bar = document.querySelector(".turn-status .your-move");
    if (!title || !bar) { return; }
    title.textContent = "";
    Array.prototype.forEach.call(bar.childNodes, function (child) {
      if (child.nodeType === 1 && child.matches(".jump-to-move, .open-move-sheet")) { return; }
      title.appendChild(child.cloneNode(true));
    });
  }
  function setUp(wrap) {
    sheet = wrap;
    wrap.classList.add("move-sheet");
    wrap.setAttribute("role", "dialog");
    wrap.setAttribute("aria-modal", "true");
    wrap.setAttribute("aria-labelledby", "move-sheet-title");
    wrap.tabIndex = -1;
    fillHead(wrap);
    mark(wrap);
    document.querySelectorAll("[data-move-sheet-open]").forEach(function (button) {
      button.setAttribute("aria-expanded", "true");
    });
  }
  function tearDown(wrap) {
    wrap.classList.remove("move-sheet");
    ["role", "aria-modal", "aria-labelledby", "tabindex"].forEach(function (name) { wrap.removeAttribute(name); });
    var head = wrap.querySelector(".move-sheet__head");
    if (head) { head.remove(); }
  }

  function open() {
    var wrap = document.querySelector(".moves-wrap");
    if (!wrap || !phone.matches || sheet) { return false; }
    var x = window.scrollX, y = window.scrollY;
    var next = wrap.nextElementSibling;
    var before = next ? next.getBoundingClientRect().top : 0;
    roomHeight = wrap.offsetHeight;
    document.body.classList.add("move-sheet-open");
    setUp(wrap);
    if (next) {  // what the form's margins took besides its height
      roomHeight = Math.max(0, roomHeight + before - next.getBoundingClientRect().top);
      room.style.height = roomHeight + "px";
    }
    if (window.scrollY !== y) { window.scrollTo(x, y); }
    wrap.scrollTop = 0;
    wrap.focus({ preventScroll: true });
    return true;
  }
  function close(giveBackFocus) {
    if (!sheet) { return; }
    var x = window.scrollX, y = window.scrollY;
    document.body.classList.remove("move-sheet-open");
    tearDown(sheet);
    unmark();
    sheet = null;
    document.querySelectorAll("[data-move-sheet-open]").forEach(function (button) {
      button.setAttribute("aria-expanded", "false");
    });
    if (window.scrollY !== y) { window.scrollTo(x, y); }
    var opener = document.querySelector(".turn-status [data-move-sheet-open]");
    if (giveBackFocus && opener) { opener.focus({ preventScroll: true }); }
  }
  // The table was swapped (before the browser paints it): the sheet follows the new form, or closes.
  function followSwap() {
    if (!sheet) { return; }
    var wrap = document.querySelector(".moves-wrap");
    var focusInside = sheet.contains(document.activeElement) && document.contains(sheet);
    unmark();
    if (!wrap || !phone.matches) {
      var old = sheet;
      sheet = null;
      document.body.classList.remove("move-sheet-open");
      if (document.contains(old)) { tearDown(old); }
      return;
    }
    if (wrap !== sheet && document.contains(sheet)) { tearDown(sheet); }
    if (wrap === sheet) { fillHead(wrap); mark(wrap); } else { setUp(wrap); }
    if (!focusInside) { wrap.focus({ preventScroll: true }); }
  }

  // A move sent from the sheet reloads the page: when the page that comes back is still the player's move in
  // this game (a Konamon! card's next step, "still play it?"), the sheet opens again, where the player was.
  var REOPEN = "mm-move-sheet";
  window.addEventListener("submit", function (event) {  // after the page's own handlers ("Send this move?")
    if (!sheet || event.defaultPrevented || !sheet.contains(event.target)) { return; }
    try { window.sessionStorage.setItem(REOPEN, window.location.pathname); } catch (error) { /* private mode */ }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.body.classList.add("move-sheet-ready");
    var reopen = null;
    try {
      reopen = window.sessionStorage.getItem(REOPEN);
      window.sessionStorage.removeItem(REOPEN);
    } catch (error) { /* private mode */ }
    if (reopen && window.location.pathname.indexOf(reopen) === 0) { open(); }  // the game or its move answer
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : event.target.parentElement;
    if (!target) { return; }
    if (target.closest("[data-move-sheet-open]")) {
      if (open()) { event.preventDefault(); }
      return;
    }
    if (sheet && target.closest("[data-move-sheet-close]")) { close(true); }
  });
  // Escape closes the sheet, unless it is taken back a "Send this move?" or an explanation first (their own
  // scripts close those on the same key).
  window.addEventListener("keydown", function (event) {
    if (!sheet || event.key !== "Escape") { return; }
    var explaining = false;
    try { explaining = !!document.querySelector(".help-pop:popover-open"); } catch (error) { /* no popovers */ }
    if (sheet.querySelector(".confirm-bar") || explaining) { return; }
    close(true);
  }, true);
  document.addEventListener("htmx:afterSwap", followSwap);
  phone.addEventListener("change", function () { if (!phone.matches) { close(false); } });
})();

// Radio groups that must take different values (Konamon!'s "card to play" and "card to discard", two players
// without a pair): the value ticked in one group is greyed out (disabled) in the others, so the form cannot send
// a move the server would refuse ("You cannot discard the card you play"). The server still checks; without
// the script it says so.
(function () {
  "use strict";
  function keepDistinct(form) {
    var groups = form.querySelectorAll("fieldset[data-distinct]");
    if (groups.length < 2) { return; }
    // A tap cannot tick a greyed value; a form the browser restored (back, reload) may hold one value twice:
    // the later group's tick goes.
    var ticked = [];
    groups.forEach(function (group) {
      var radio = group.querySelector("input[type=radio]:checked");
      if (radio && ticked.indexOf(radio.value) >= 0) { radio.checked = false; radio = null; }
      ticked.push(radio ? radio.value : null);
    });
    groups.forEach(function (group, index) {
      group.querySelectorAll("input[type=radio]").forEach(function (radio) {
        radio.disabled = ticked.some(function (value, other) { return other !== index && value === radio.value; });
      });
    });
  }
  document.addEventListener("change", function (event) {
    var radio = event.target;
    if (radio.type === "radio" && radio.form && radio.closest("fieldset[data-distinct]")) { keepDistinct(radio.form); }
  });
  function all() { document.querySelectorAll("form").forEach(keepDistinct); }
  document.addEventListener("DOMContentLoaded", all);
  window.addEventListener("pageshow", all);
  document.addEventListener("htmx:afterSettle", all);
})();
