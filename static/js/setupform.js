// The set-up form follows the number of players (1.2): only the seats that exist for the
// chosen count show an invitation box and an "organiser seat" choice. Without JavaScript every
// box shows and the server refuses an invitation to a seat that does not exist.
(function () {
  "use strict";
  function follow(players) {
    var seats;
    try {
      seats = JSON.parse(players.dataset.seats)[players.value] || [];
    } catch (e) {
      return;
    }
    document.querySelectorAll("[data-seat-row]").forEach(function (row) {
      var here = seats.indexOf(row.dataset.seatRow) >= 0;
      row.hidden = !here;
      var input = row.querySelector("input");
      if (input && !here) input.value = "";
    });
    document.querySelectorAll("select[data-seat-choice] option").forEach(function (option) {
      var here = option.value === "" || seats.indexOf(option.value) >= 0;
      option.hidden = !here;
      option.disabled = !here;
      if (!here && option.selected) option.parentNode.value = "";
    });
  }
  function start() {
    var players = document.querySelector("select[data-seats]");
    if (!players) return;
    players.addEventListener("change", function () { follow(players); });
    follow(players);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
