// The set-up form follows the number of players (1.2): only the seats that exist for the
// chosen count show an invitation box and an "organiser seat" choice, and each box's help says
// which armies the seat commands with that count (the engine's presets, campaign/forms.py
// seat_texts_by_players). Without JavaScript every box shows, with the help of the count the
// page was drawn for, and the server refuses an invitation to a seat that does not exist. Fields
// that depend on another's choice (the courier's phases, the organiser's seat, the Clock of
// Fate's details) show only with it.
(function () {
  "use strict";
  function helpOf(row, input) {
    var help = row.querySelector(".helptext");
    if (!help && input) {
      help = document.createElement("div");
      help.className = "helptext";
      help.id = input.id + "_helptext";
      input.insertAdjacentElement("afterend", help);
      input.setAttribute("aria-describedby", help.id);
    }
    return help;
  }
  function follow(players) {
    var seats, texts;
    try {
      seats = JSON.parse(players.dataset.seats)[players.value] || [];
      texts = JSON.parse(players.dataset.seatTexts || "{}")[players.value] || {};
    } catch (e) {
      return;
    }
    document.querySelectorAll("[data-seat-row]").forEach(function (row) {
      var here = seats.indexOf(row.dataset.seatRow) >= 0;
      row.hidden = !here;
      var input = row.querySelector("input");
      if (input && !here) input.value = "";
      var help = helpOf(row, input);
      if (help) help.textContent = texts[row.dataset.seatRow] || "";
    });
    // The organiser's seat: only the seats of this count are options at all (a hidden option
    // still shows in some phones' pickers), the choice kept when its seat is still there.
    document.querySelectorAll("select[data-seat-choice]").forEach(function (select) {
      if (!select.allOptions) select.allOptions = Array.prototype.slice.call(select.options);
      var chosen = select.value;
      while (select.options.length) select.remove(0);
      select.allOptions.forEach(function (option) {
        if (option.value === "" || seats.indexOf(option.value) >= 0) select.add(option);
      });
      select.value = seats.indexOf(chosen) >= 0 ? chosen : "";
    });
  }
  // A field that says something only with another's choice (data-shown-by, the other's name;
  // data-shown-when, the value that shows it: "" any but empty, "on" a ticked box) shows then;
  // one with a problem to put right always shows.
  function shownBy() {
    document.querySelectorAll("[data-shown-by]").forEach(function (input) {
      var row = input.closest(".field");
      var by = document.getElementById("id_" + input.dataset.shownBy);
      if (!row || !by) return;
      var when = input.dataset.shownWhen || "";
      var on = by.type === "checkbox" ? by.checked : when ? by.value === when : by.value !== "";
      row.hidden = !on && !row.classList.contains("has-error");
    });
  }
  function start() {
    var players = document.querySelector("select[data-seats]");
    if (!players) return;
    players.addEventListener("change", function () { follow(players); });
    follow(players);
    players.form.addEventListener("change", shownBy);
    shownBy();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
