// mammamia's service worker: shows push notifications and opens the game when one is clicked.
// It does not intercept page loads, so every page works the same with or without it.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = {}; }
  const title = message.title || "mammamia";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || "mammamia",
    renotify: true,
    icon: "{{ icon }}",
    badge: "{{ icon }}",
    data: { url: message.url || "/games/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/games/", self.location.origin);
  // Only ever open our own site.
  const url = target.origin === self.location.origin ? target.href : new URL("/games/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
