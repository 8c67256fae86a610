// Score pad: a tap on a cell of the sheet opens one small dialog to write that cell. The dialog
// opens over the sheet, so the page does not move and the cell is where it was after Save.
// A sheet wider than the screen says so (it scrolls sideways under its fixed round column).
(function () {
  "use strict";

  function openCell(cell) {
    const dialog = document.getElementById("score-cell");
    if (!dialog) return;
    const form = dialog.querySelector("form");
    if (form) {
      form.elements.player.value = cell.dataset.player;
      form.elements.round.value = cell.dataset.round;
      form.elements.points.value = cell.dataset.points;
      form.querySelectorAll(".form-error").forEach((line) => { line.textContent = ""; });
      // The dialog stays on the page between uses: it takes the version the page shows now.
      const meta = document.getElementById("live-meta");
      if (meta) form.querySelectorAll("input[data-live-version]").forEach((input) => { input.value = meta.dataset.stateVersion; });
    }
    const title = dialog.querySelector("[data-cell-title]");
    // The words come from the page (data-round-title, in the phone's language).
    if (title) {
      const pattern = title.dataset.roundTitle || "{player}, round {round}";
      title.textContent = pattern.replace("{player}", () => cell.dataset.player).replace("{round}", () => cell.dataset.round);
    }
    if (!dialog.open) dialog.showModal();
    const points = form && form.elements.points;
    if (points) {
      points.focus({ preventScroll: true });
      points.select();
    }
  }

  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest("[data-edit-score]");
    if (cell) openCell(cell);
  });

  // A round past the sheet's next one would leave empty rounds between: asked once first.
  let gapConfirmed = null;
  function lastRound() {
    const written = Array.from(document.querySelectorAll("#scoresheet [data-edit-score]"))
      .filter((cell) => cell.dataset.points !== "").map((cell) => Number(cell.dataset.round));
    return written.length ? Math.max(...written) : 0;
  }
  document.addEventListener("htmx:confirm", (event) => {
    const form = event.target.closest && event.target.closest("form[data-action=enter_score]");
    const dialog = document.getElementById("round-gap");
    if (!form || !dialog || !form.elements.round) return;
    const round = Number(form.elements.round.value);
    const last = lastRound();
    if (!(round > last + 1)) return;
    event.preventDefault();
    const fill = (words) => words.replace("{round}", round).replace("{last}", last)
      .replace("{first}", last + 1).replace("{before}", round - 1);
    dialog.querySelector("h2").textContent = fill(dialog.dataset.question);
    dialog.querySelector("[data-round-gap-why]").textContent =
      fill(!last ? dialog.dataset.emptyAll : round - 1 === last + 1 ? dialog.dataset.emptyOne : dialog.dataset.empty);
    gapConfirmed = () => event.detail.issueRequest(true);
    dialog.showModal();
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest("[data-round-gap-yes]")) return;
    document.getElementById("round-gap").close();
    if (gapConfirmed) gapConfirmed();
    gapConfirmed = null;
  });

  // Asked before taking back another player's entry, a phone may take back its own last one
  // instead, when its cell still reads it (the sheet's data-own-last, by seat).
  document.addEventListener("companion:undo-asked", (event) => {
    const offer = event.target.querySelector("[data-take-back]");
    const sheet = document.querySelector("[data-own-last]");
    const me = document.querySelector("[data-region=me]");
    if (!offer || !sheet || !me) return;
    const own = JSON.parse(sheet.dataset.ownLast || "{}")[me.dataset.seat];
    offer.hidden = !own;
    if (!own) return;
    const form = offer.querySelector("form");
    if (!form) return;
    form.elements.player.value = own.player;
    form.elements.round.value = own.round;
    form.querySelector("button[type=submit]").textContent = offer.dataset.label
      .replace("{points}", () => own.points).replace("{player}", () => own.player)
      .replace("{round}", () => own.round);
    form.querySelectorAll(".form-error").forEach((line) => { line.textContent = ""; });
  });

  // Kept on the page's root, not on the sheet: a live update redraws the sheet, and the hint
  // above it must not vanish and come back (the sheet would move under the finger).
  function markWide() {
    const scroller = document.querySelector(".sheet .sheet-scroll");
    if (scroller) document.documentElement.classList.toggle("sheet-wide", scroller.scrollWidth > scroller.clientWidth + 1);
  }
  document.addEventListener("DOMContentLoaded", markWide);
  window.addEventListener("resize", markWide);
  ["htmx:oobAfterSwap", "htmx:afterSwap", "htmx:afterSettle", "htmx:sseMessage"].forEach((name) => {
    document.addEventListener(name, markWide);
  });
})();
