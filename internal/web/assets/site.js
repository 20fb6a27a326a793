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
