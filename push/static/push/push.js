/* Push notifications on this device (docs/push.md): registers the service worker (/sw.js,
   the whole site its scope), and turns the device's notifications on (the Notification
   permission, PushManager.subscribe with the site's VAPID public key, the subscription posted
   to the site) or off. window.dgkPush.store(subscription) posts a subscription: the browser
   tests call it with one of their own, as headless Chromium has no push service. */
(function () {
  "use strict";

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function post(url, fields) {
    var body = new URLSearchParams(fields);
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
    }).then(function (response) {
      if (!response.ok) throw new Error("the site answered " + response.status);
      return response.json();
    });
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function deviceName() {
    var ua = navigator.userAgent;
    var browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox"
      : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "A browser";
    var system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS"
      : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS"
      : /Linux/.test(ua) ? "Linux" : "";
    return system ? browser + " on " + system : browser;
  }

  function start(section) {
    var state = section.querySelector("[data-push-state]");
    var button = section.querySelector("[data-push-toggle]");
    var registration = null;

    function say(text) { state.textContent = text; }

    function store(subscription) {
      var json = typeof subscription.toJSON === "function" ? subscription.toJSON() : subscription;
      return post(section.dataset.subscribe, {
        endpoint: json.endpoint,
        p256dh: json.keys.p256dh,
        auth: json.keys.auth,
        name: deviceName(),
      });
    }

    function show(subscribed) {
      button.hidden = false;
      button.dataset.on = subscribed ? "1" : "";
      button.textContent = subscribed ? "Stop notifying this device" : "Notify this device";
      if (Notification.permission === "denied") {
        say("This browser blocks notifications from this site: allow them in its settings.");
        button.hidden = true;
      } else {
        say(subscribed ? "This device is notified." : "This device is not notified.");
      }
    }

    function turnOn() {
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error("notifications not allowed");
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(section.dataset.key),
        });
      }).then(store).then(function () { show(true); });
    }

    function turnOff() {
      return registration.pushManager.getSubscription().then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(section.dataset.unsubscribe, { endpoint: endpoint });
        });
      }).then(function () { show(false); });
    }

    window.dgkPush = { store: store, ready: null };

    if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
      say("This browser cannot receive notifications from a site.");
      return;
    }
    window.dgkPush.ready = navigator.serviceWorker
      .register(section.dataset.worker, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (ready) {
        registration = ready;
        return ready.pushManager.getSubscription();
      })
      .then(function (subscription) { show(Boolean(subscription)); })
      .catch(function (error) { say("Notifications cannot start here: " + error.message); });

    button.addEventListener("click", function () {
      button.disabled = true;
      (button.dataset.on ? turnOff() : turnOn())
        .catch(function (error) { say("Not done: " + error.message + "."); })
        .then(function () { button.disabled = false; });
    });
  }

  var section = document.querySelector("[data-push]");
  if (section) start(section);
})();
