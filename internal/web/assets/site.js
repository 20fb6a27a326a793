// Copy buttons: a button with data-copy="ID" copies the text of the
// element with that id. Without JavaScript (or a clipboard) the buttons
// stay hidden and the text stays selectable.
(function () {
  "use strict";
  function wire(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      if (button.dataset.copyWired) return;
      button.dataset.copyWired = "1";
      var source = document.getElementById(button.dataset.copy);
      if (!source) return;
      var label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = label; }, 2000);
        }, function () {
          button.textContent = "Select and copy";
        });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSettle", function (e) { wire(e.target); });
})();

// Filter forms: a form with data-autosubmit submits as soon as one of its
// checkboxes or lists changes, through htmx where it runs. Text fields
// wait for Enter or the form's button, which stays for pages without
// JavaScript.
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var field = e.target;
    var form = field.form;
    if (!form || !form.hasAttribute("data-autosubmit")) return;
    if (field.type !== "checkbox" && field.tagName !== "SELECT") return;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  });
})();

// Folded filters: on a narrow screen the filter form folds behind its
// summary. A choice made in the open form swaps the feed in place (htmx);
// the new form opens again, so that the next choice is one tap away.
(function () {
  "use strict";
  var reopen = false;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form.filters");
    var fold = form && form.querySelector("details.fold");
    reopen = !!(fold && fold.open);
  });
  document.addEventListener("htmx:afterSwap", function () {
    var fold = document.querySelector("form.filters details.fold");
    if (reopen && fold) fold.open = true;
    reopen = false;
  });
})();

// The desk's keys: j and k move between the queue's signals, and a key
// does what the current signal's control marked data-key="KEY" does (a
// button is pressed, a link followed, a list or field focused, a
// takedown opened); x ticks the signal for a decision on several. The
// current signal is the one the address names (the desk leads to the next
// signal after each decision), else the first. Keys typed into a field
// are the field's.
(function () {
  "use strict";
  var items, current = -1;
  // byHash is the element the address's fragment names (a signal's id is
  // escaped in its element's id, as in the address).
  function byHash() {
    var id = location.hash.slice(1);
    return id && document.getElementById(id);
  }
  function select(i, scroll) {
    if (i < 0 || i >= items.length) return;
    if (current >= 0) items[current].classList.remove("current");
    current = i;
    items[i].classList.add("current");
    items[i].focus({ preventScroll: !scroll });
    if (scroll) items[i].scrollIntoView({ block: "start" });
  }
  document.addEventListener("DOMContentLoaded", function () {
    items = Array.prototype.slice.call(document.querySelectorAll(".desk-item"));
    if (!items.length) return;
    var help = document.querySelector(".desk-keys");
    if (help) help.hidden = false;
    var start = 0;
    if (location.hash.length > 1) {
      start = Math.max(0, items.indexOf(byHash()));
    }
    select(start, start > 0);
    items.forEach(function (item, i) {
      item.addEventListener("focusin", function () {
        if (current !== i) select(i, false);
      });
    });
  });
  // Skip follows a link to the next signal's address.
  window.addEventListener("hashchange", function () {
    if (!items) return;
    var i = items.indexOf(byHash());
    if (i >= 0) select(i, true);
  });
  document.addEventListener("keydown", function (e) {
    if (!items || !items.length || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target, tag = t.tagName;
    if (t.isContentEditable || tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && t.type !== "checkbox")) {
      // Escape leaves a field for its signal, where the keys work again.
      if (e.key === "Escape" && current >= 0) items[current].focus();
      return;
    }
    var item = items[current];
    var key = e.key;
    if (key === "j" || key === "k") {
      select(current + (key === "j" ? 1 : -1), true);
    } else if (key === "x") {
      var tick = item.querySelector(".desk-tick input");
      if (tick) tick.checked = !tick.checked;
    } else {
      var control = item.querySelector('[data-key="' + key + '"]');
      if (!control) return;
      if (control.tagName === "SUMMARY") {
        var details = control.parentElement;
        details.open = true;
        var reason = details.querySelector("input[name=reason]");
        if (reason) reason.focus();
      } else if (control.tagName === "BUTTON" || control.tagName === "A") {
        control.click();
      } else {
        control.focus();
      }
    }
    e.preventDefault();
  });
})();
