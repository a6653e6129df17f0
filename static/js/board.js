// The organiser's board refreshes itself every minute (htmx): the seats opened on it stay open.
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target.id !== "board") return;
    open = Array.from(document.querySelectorAll("#board details[open][id]")).map(function (d) {
      return d.id;
    });
  });
  document.addEventListener("htmx:afterSettle", function () {
    open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
  });
})();
