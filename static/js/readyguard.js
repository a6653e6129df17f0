/* The Ready guard of the pages with a Ready button (the orders page, the deployment): a
 * script of its own, loaded whether the map widget comes or not, since the guard is the page's
 * forms', not the map's (docs/map-widget.md, "Ready and what is not saved").
 */
(function () {
  "use strict";

  /* Ready never leaves behind what the page shows but has not saved (the playthrough of three
     friends: "Fight" ticked, Ready pressed, the orders submitted with no decision, which the
     rules read as no wish to fight). Each order, decision and placing is a form of its own, and
     Ready posts only its own: pressed while another form holds a change not saved yet (a radio
     ticked, a line typed, a box checked: what differs from what the page was drawn with) or is
     still being saved, it is not sent; a line above it says what and which button saves it, and
     the form is outlined. Installed at once, whether Leaflet has come or not. Without this
     script play.css does the same for a decision ticked or a line of march typed or tapped. */
  function unsaved(form) {
    for (var i = 0; i < form.elements.length; i++) {
      var f = form.elements[i];
      if (f.disabled || f.type === "hidden" || f.type === "submit" || f.type === "button") {
        continue;
      }
      if (f.type === "radio" || f.type === "checkbox") {
        if (f.checked !== f.defaultChecked) return f;
      } else if (f.dataset.saved !== undefined) {
        // the line of march: left empty, the unit's saved order stands as it is (issue 43)
        if (f.value.trim() !== "" && f.value.trim() !== f.dataset.saved) return f;
      } else if (f.options) {
        // (a select drawn with no option "selected" shows its first)
        var drawn = 0;
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].defaultSelected) drawn = j;
        }
        if (f.selectedIndex !== drawn) return f;
      } else if (f.value !== f.defaultValue) {
        return f;
      }
    }
    return null;
  }

  function guardReady(ev) {
    var ready = ev.target;
    if (!ready || ready.tagName !== "FORM" || !/\/ready\/$/.test(ready.getAttribute("action") || "")) {
      return;
    }
    var forms = document.querySelectorAll("main form");
    for (var i = 0; i < forms.length; i++) {
      var form = forms[i];
      var saving = form.classList.contains("htmx-request");
      if (form === ready || (form.getAttribute("method") || "").toLowerCase() === "get" || !(saving || unsaved(form))) {
        continue;
      }
      ev.preventDefault();
      ev.stopPropagation();
      var named = form.querySelector("strong");
      var what = form.dataset.unsaved || (named ? "the change to " + named.textContent : "a change on this page");
      var button = form.querySelector("button[type=submit], button:not([type])");
      var line = ready.querySelector(".ready-unsaved");
      if (!line) {
        line = document.createElement("p");
        line.className = "ready-unsaved";
        line.setAttribute("role", "alert");
        ready.insertBefore(line, ready.firstChild);
      }
      line.textContent = saving
        ? "Not submitted: " + what + " is being saved. Press Ready again once it is."
        : "Not submitted: " + what + " is not saved yet (it is still on the page, outlined in red). Press \u201c" +
          (button ? button.textContent.trim() : "Save") + "\u201d, then Ready.";
      Array.prototype.forEach.call(document.querySelectorAll("form.unsaved-here"), function (f) {
        f.classList.remove("unsaved-here");
      });
      form.classList.add("unsaved-here");
      var folded = form.closest("details");
      if (folded) {
        folded.open = true; // (the deployment's rows are folded under their army)
      }
      return;
    }
  }

  document.addEventListener("submit", guardReady, true);
  document.documentElement.classList.add("ready-guard");
})();
