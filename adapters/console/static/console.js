// The console works without this file; it only adds conveniences.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});

// A scanner in keyboard mode sends GS1's group separator (ASCII 29, after
// a variable-length field such as a lot) as Ctrl+], which a browser types
// as nothing; the search field writes it as "␝", which the search reads as
// the separator. Without this, set the scanner to send "<GS>" instead.
document.querySelectorAll('input[name="q"]').forEach(function (field) {
  field.addEventListener("keydown", function (e) {
    if (e.ctrlKey && !e.altKey && !e.metaKey && (e.key === "]" || e.code === "BracketRight")) {
      e.preventDefault();
      field.setRangeText("\u241d", field.selectionStart, field.selectionEnd, "end");
    }
  });
});
