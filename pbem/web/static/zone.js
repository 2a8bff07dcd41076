// A form for someone who has not chosen a time zone yet offers UTC; this puts the
// browser's own zone in its place, where the list has it. Without scripts UTC stays.
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  document.querySelectorAll("select[data-guess-zone]").forEach(function (select) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone && select.value === "UTC") {
        select.value = zone;
        return;
      }
    }
  });
})();
