// The private note on a seat page is saved as its player types: a moment after the
// last key, and at once when the page is left. Without scripts the Save button does it.
(function () {
  var form = document.querySelector("form[data-note]");
  if (!form || !window.fetch || !window.FormData) {
    return;
  }
  var status = form.querySelector(".note-status");
  var timer = null;
  var dirty = false;

  function say(key) {
    if (status) {
      status.textContent = form.getAttribute("data-" + key) || "";
    }
  }

  function save(leaving) {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (!dirty) {
      return;
    }
    dirty = false;
    if (!leaving) {
      say("saving");
    }
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Requested-With": "note.js" },
      keepalive: leaving,
    }).then(function (response) {
      if (!leaving) {
        say(response.ok ? "saved" : "failed");
      }
      if (!response.ok) {
        dirty = true;
      }
    }, function () {
      dirty = true;
      if (!leaving) {
        say("failed");
      }
    });
  }

  form.querySelector("textarea").addEventListener("input", function () {
    dirty = true;
    if (timer !== null) {
      clearTimeout(timer);
    }
    timer = setTimeout(function () { save(false); }, 800);
  });
  window.addEventListener("pagehide", function () { save(true); });
})();
