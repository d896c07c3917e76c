// Live updates (README, "Live updates"): one Server-Sent Events stream per page tells it *that*
// something changed; the page then fetches its own partial as it did when it polled.
//   game  -> the game page's #live fetches /games/<id>/table/?v=<its token> (htmx, "live:check")
//   user  -> the header's "My games" link (and the My games list) are fetched again
//   chat  -> a "live:chat" DOM event for the chat to pick up
// On every (re)connection the server says "ready" and the game page checks its version once, so
// nothing published while it was away is lost. Where streaming fails (no EventSource, an error, a
// proxy that buffers the stream) the game page polls every GAME_POLL_SECONDS until a stream is back.
(function () {
  "use strict";
  var body = document.body;
  if (!body || !body.dataset.liveStream) { return; }
  var READY_TIMEOUT_MS = 10000;   // connected but no "ready": something buffers the stream
  var MAX_RETRY_MS = 30000;
  var source = null, readyTimer = null, pollTimer = null, userTimer = null;
  var retryMs = 1000, buffered = false;
  // htmx drops a trigger while the element's request is under way, and a freshly swapped #live hears
  // no trigger until htmx has settled it: news arriving meanwhile (a bot's second move 100 ms after its
  // first) would be lost and the page left a move behind. So news is counted, and while a fetch is
  // under way or settling, the fetch is made again once it is done if news came in the meantime.
  var newsSeen = 0, newsAtRequest = 0, liveRequest = null, busy = false, settleTimer = null;

  function state(name) { document.documentElement.dataset.live = name; }  // for tests and debugging
  function live() { return document.getElementById("live"); }
  function grant() {
    var el = live();
    return (el && el.dataset.liveGrant) || body.dataset.liveGrant || "";
  }
  function check() {
    var el = live();
    if (el && window.htmx && el.getAttribute("hx-get")) { window.htmx.trigger(el, "live:check"); }
  }
  function startPolling() {
    var el = live();
    if (pollTimer || !el || !el.dataset.pollSeconds) { return; }
    state("polling");
    pollTimer = setInterval(check, 1000 * Number(el.dataset.pollSeconds));
  }
  function stopPolling() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }
  function replaceFrom(url, id) {
    return fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "live" } })
      .then(function (response) { return response.status === 200 ? response.text() : null; })
      .then(function (html) {
        var old = document.getElementById(id);
        if (!html || !old) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(id);
        if (fresh) { old.replaceWith(fresh); }
      })
      .catch(function () { /* the next event or page load will do */ });
  }
  function userChanged() {
    // Several events in a burst (a bot's moves, a game start) give one fetch.
    clearTimeout(userTimer);
    userTimer = setTimeout(function () {
      if (body.dataset.liveLink) { replaceFrom(body.dataset.liveLink, "nav-my-games"); }
      if (document.getElementById("my-games-live")) { replaceFrom(window.location.href, "my-games-live"); }
    }, 200);
  }
  function closeSource() {
    clearTimeout(readyTimer);
    if (source) { source.close(); source = null; }
  }
  function connect() {
    var token = grant();
    if (!token) { return; }
    if (!window.EventSource || buffered) { startPolling(); return; }
    state("connecting");
    source = new EventSource(body.dataset.liveStream + "?t=" + encodeURIComponent(token));
    readyTimer = setTimeout(function () {
      buffered = true;   // this page polls from now on
      closeSource();
      startPolling();
    }, READY_TIMEOUT_MS);
    source.addEventListener("ready", function () {
      clearTimeout(readyTimer);
      retryMs = 1000;
      stopPolling();
      state("streaming");
      check();
      document.dispatchEvent(new CustomEvent("live:ready"));
    });
    source.addEventListener("game", function (event) {
      var el = live(), data = JSON.parse(event.data);
      if (el && data.token !== el.dataset.liveToken) {
        newsSeen += 1;
        if (!busy) { check(); }
      }
    });
    source.addEventListener("user", userChanged);
    source.addEventListener("chat", function (event) {
      document.dispatchEvent(new CustomEvent("live:chat", { detail: JSON.parse(event.data) }));
    });
    source.onerror = function () {
      // Our own reconnection (the browser gives up on an HTTP error): back off, poll meanwhile.
      closeSource();
      state("reconnecting");
      startPolling();
      var wait = retryMs / 2 + Math.random() * retryMs;
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      setTimeout(connect, wait);
    };
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "live") {
      busy = true; liveRequest = event.detail.xhr; newsAtRequest = newsSeen;
    }
  });
  function idle() {
    busy = false;
    if (newsSeen > newsAtRequest) { check(); }   // news came while we fetched: it may not be in what we got
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    // Also heard from the element's parent when the swap replaced #live: the first hearing counts.
    if (!liveRequest || event.detail.xhr !== liveRequest) { return; }
    liveRequest = null;
    if (event.detail.xhr.status === 200) {
      // The new #live listens for its trigger only once htmx has settled it (htmx:afterSettle).
      settleTimer = setTimeout(idle, 2000);
    } else {
      setTimeout(idle, 0);   // nothing swapped: the same element, once htmx has released its lock
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (busy && !liveRequest) { clearTimeout(settleTimer); idle(); }
  });
  document.addEventListener("DOMContentLoaded", connect);
  window.addEventListener("pagehide", closeSource);
  window.addEventListener("pageshow", function (event) { if (event.persisted && !source) { connect(); } });
})();
