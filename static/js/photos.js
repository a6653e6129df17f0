// The battle's photos (docs/tabletop.md, "Photos and accounts of the battle"): the upload form
// sends its files with a progress bar, for a slow line at the club. Without JavaScript the form
// posts as it is and the page comes back with the same messages. The server answers this
// script in JSON ({"next": the battle page}) and keeps its messages for that page, or with
// {"message": ...} when it refused the upload unread (too many this minute): shown here, the
// photos still chosen.
(function () {
  "use strict";
  function percent(loaded, total) {
    return total ? Math.round((loaded / total) * 100) : 0;
  }
  function megabytes(n) {
    return (n / (1024 * 1024)).toFixed(1) + " MB";
  }
  function send(form, event) {
    var input = form.querySelector("input[type=file]");
    if (!input || !input.files || !input.files.length || !window.FormData) {
      return; // nothing chosen, or an old browser: the plain form
    }
    event.preventDefault();
    var bar = form.querySelector("[data-photo-progress]");
    var status = form.querySelector("[data-photo-status]");
    var button = form.querySelector("button[type=submit]");
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.setRequestHeader("X-Photo-Upload", "1");
    xhr.upload.addEventListener("progress", function (e) {
      if (!e.lengthComputable) return;
      bar.hidden = false;
      bar.value = percent(e.loaded, e.total);
      status.textContent = "Sending: " + megabytes(e.loaded) + " of " + megabytes(e.total);
    });
    xhr.upload.addEventListener("load", function () {
      status.textContent = "Sent. The site is reading the photos…";
    });
    xhr.addEventListener("load", function () {
      var answer = {};
      try {
        answer = JSON.parse(xhr.responseText) || {};
      } catch (e) {
        answer = {};
      }
      var next = answer.next;
      if (answer.message) {
        // Refused unread (too many uploads this minute): the page stays, the photos chosen.
        status.textContent = answer.message;
        button.disabled = false;
        bar.hidden = true;
      } else if (next) {
        var target = new URL(next, window.location.href);
        if (target.pathname === window.location.pathname) {
          window.location.hash = target.hash; // the same page: show its messages
          window.location.reload();
        } else {
          window.location.assign(target.href);
        }
      } else {
        status.textContent = "The site did not take the upload (" + xhr.status + "). Try again.";
        button.disabled = false;
      }
    });
    xhr.addEventListener("error", function () {
      status.textContent = "The line dropped before the photos arrived. Try again.";
      button.disabled = false;
      bar.hidden = true;
    });
    button.disabled = true;
    bar.hidden = false;
    bar.value = 0;
    xhr.send(new FormData(form));
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.hasAttribute && form.hasAttribute("data-photo-upload")) {
      send(form, event);
    }
  });
})();
