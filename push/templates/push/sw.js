/* The service worker of the site's push notifications (docs/push.md). A push carries only a
   title, a line and the page to open on this site; it never carries a report, an order or a
   letter's words. */
"use strict";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Der Grosse König", {
      body: data.body || "Something happened in your campaign.",
      tag: data.tag || undefined,
      data: { url: data.url || "/" },
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  // Only a page of this site is opened.
  var url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url.href && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url.href);
    })
  );
});
