// The picture's card help on a phone: a place of the picture with help carries it as
// its <title>, which a mouse shows on hover but a finger never sees.  Tapping such a
// place (one that is not a move: those are links) writes its help into the line under
// the picture, which screen readers announce.  Without scripts, hover and the list of
// moves with its help still say the same.
(function () {
  document.querySelectorAll("figure.table-picture").forEach(function (figure) {
    var line = figure.querySelector(".card-help");
    if (!line) return;
    figure.addEventListener("click", function (event) {
      var place = event.target.closest("g[data-region]");
      if (!place || event.target.closest("a")) return;
      var title = place.querySelector(":scope > title");
      if (!title) return;
      line.textContent = title.textContent;
      line.hidden = false;
    });
  });
})();
