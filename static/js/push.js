// The settings page's push controls: subscribe this browser (Push API + our service worker) and tell
// the server, or unsubscribe. Without JavaScript or push support the page still lists and removes browsers.
(function () {
  "use strict";
  const box = document.getElementById("push-controls");
  if (!box) return;
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const status = document.getElementById("push-status");
  const csrf = (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] ||
    (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value;

  function say(which) { status.textContent = status.dataset[which] || ""; status.dataset.state = which; }
  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response;
  }
  async function show() {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const subscription = await registration.pushManager.getSubscription();
    on.hidden = !!subscription; off.hidden = !subscription;
    if (Notification.permission === "denied") { say("denied"); on.hidden = true; return; }
    say(subscription ? "on" : "off");
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  on.addEventListener("click", async () => {
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") { say(permission === "denied" ? "denied" : "off"); return; }
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key),
      });
      await post(box.dataset.subscribe, Object.assign(subscription.toJSON(), { label: navigator.userAgent }));
      window.location.reload();
    } catch (error) { say("failed"); box.dataset.error = String(error); }
  });
  off.addEventListener("click", async () => {
    try {
      const registration = await navigator.serviceWorker.getRegistration("/");
      const subscription = registration && await registration.pushManager.getSubscription();
      if (subscription) {
        await post(box.dataset.unsubscribe, { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      window.location.reload();
    } catch (error) { say("failed"); box.dataset.error = String(error); }
  });
  show().catch((error) => { say("failed"); box.dataset.error = String(error); });
})();
