// The console works without this file; it only adds conveniences for
// hands on a handheld scanner.
(function () {
  "use strict";

  // On a wide screen the menu's fold has no button (the stylesheet shows
  // what it holds); a browser that cannot show a closed fold's content
  // gets it open.
  var more = document.querySelector("details.more");
  if (more && window.matchMedia && window.matchMedia("(min-width: 40.01rem)").matches) {
    more.open = true;
  }

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });

  // A page that answers a form's post takes the address of the page the
  // form is on, so that Back and reload fetch that page instead of asking
  // to send the form again.
  var after = document.body.getAttribute("data-url");
  if (after && window.history && history.replaceState) {
    history.replaceState(null, "", after);
  }

  // The next scan must land somewhere: the first field in error, else the
  // field that asks for the focus. Browsers skip autofocus now and then
  // (a page reached through a link to an anchor, a second autofocus), so
  // the focus is given here once the page is shown, unless the worker has
  // already put it somewhere else. A field in error has its text selected,
  // so that the corrected scan replaces it.
  //
  // A page opened at a form's anchor (a GS1 scan opens the goods-in form
  // with its lot and date filled in) gives the focus to that form's first
  // empty field, so that the scan after it fills what is missing.
  function anchoredField() {
    var id = decodeURIComponent(location.hash.slice(1));
    var section = id && document.getElementById(id);
    var form = section && section.querySelector('form[method="post"]');
    if (!form) {
      return null;
    }
    var empty = Array.prototype.filter.call(form.elements, function (el) { return typed(el) && el.value === ""; });
    return empty[0] || null;
  }
  function giveFocus() {
    var target = document.querySelector("[aria-invalid=true]") ||
      document.querySelector(".form-error") ||
      anchoredField() ||
      document.querySelector("[autofocus]");
    var active = document.activeElement;
    var chosen = active && active !== document.body && active !== document.documentElement && !active.hasAttribute("autofocus");
    if (!target || (chosen && active !== target)) {
      return;
    }
    if (active !== target) {
      target.focus();
    }
    // A field in error shows its message below it: both are in view.
    var label = target.getAttribute("aria-invalid") === "true" && target.closest("label");
    if (label) {
      var box = label.getBoundingClientRect();
      if (box.bottom > window.innerHeight && box.height < window.innerHeight) {
        window.scrollBy(0, box.bottom - window.innerHeight + 16);
      }
    }
    if (typeof target.select === "function") {
      target.select();
    }
  }
  if (document.readyState === "complete") {
    giveFocus();
  } else {
    window.addEventListener("load", giveFocus);
  }

  // A scanner ends every code with Enter. In a form that changes
  // something, Enter in a field that is not the form's last moves on to
  // the next field; only Enter in the last one sends the form.
  function typed(el) {
    return el.tagName === "INPUT" && !el.disabled && !el.readOnly &&
      /^(text|search|number|tel|password)$/.test(el.type) && el.getClientRects().length > 0;
  }
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.isComposing || !field.form || !typed(field) ||
        field.form.method.toLowerCase() !== "post") {
      return;
    }
    var fields = Array.prototype.filter.call(field.form.elements, typed);
    var i = fields.indexOf(field);
    if (i < 0 || i === fields.length - 1) {
      return;
    }
    event.preventDefault();
    fields[i + 1].focus();
    fields[i + 1].select();
  });

  // A scanner in keyboard mode sends GS1's group separator (ASCII 29, after
  // a variable-length field such as a lot) as Ctrl+], which a browser types
  // as nothing; every field a scan may go to writes it as "\u241d", which
  // the service reads as the separator. Without this, set the scanner to
  // send "<GS>".
  document.addEventListener("keydown", function (e) {
    var field = e.target;
    if (field.tagName !== "INPUT" || !/^(text|search)$/.test(field.type) ||
        !e.ctrlKey || e.altKey || e.metaKey || !(e.key === "]" || e.code === "BracketRight")) {
      return;
    }
    e.preventDefault();
    field.setRangeText("\u241d", field.selectionStart, field.selectionEnd, "end");
  });
}());
