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

  // The "Enter a score" form's round follows the sheet as any phone fills it: the chosen
  // player's first round without a score, unless the player typed a round of their own.
  function followSheet(chosen) {
    const form = document.querySelector("form.score-entry");
    const sheet = document.querySelector("[data-next-rounds]");
    if (!form || !sheet || !form.elements.round || !form.elements.player) return;
    const round = form.elements.round;
    if (!("suggested" in form.dataset)) form.dataset.suggested = round.defaultValue;
    if (!chosen && round.value !== form.dataset.suggested) return;  // typed by hand: kept
    const next = JSON.parse(sheet.dataset.nextRounds || "{}")[form.elements.player.value];
    if (!next) return;
    round.value = next;
    form.dataset.suggested = String(next);
  }
  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches("form.score-entry select[name=player]")) followSheet(true);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt.closest && event.detail.elt.closest("form.score-entry");
    if (!form || !event.detail.xhr || event.detail.xhr.status !== 200) return;
    form.dataset.suggested = form.elements.round.value;  // sent: the next one follows the sheet
    followSheet(false);
  });

  // Before a score is written, asked once where it would replace a score the sheet holds
  // (from the entry form: a tapped cell shows its value in the dialog) or leave empty rounds.
  let confirmed = null;
  function ask(dialog, title, why, send) {
    dialog.querySelector("h2").textContent = title;
    dialog.querySelector("[data-ask-why]").textContent = why;
    confirmed = send;
    dialog.showModal();
  }
  function lastRound() {
    const written = Array.from(document.querySelectorAll("#scoresheet [data-edit-score]"))
      .filter((cell) => cell.dataset.points !== "").map((cell) => Number(cell.dataset.round));
    return written.length ? Math.max(...written) : 0;
  }
  function heldScore(form) {
    if (!form.matches(".score-entry")) return null;
    const cell = Array.from(document.querySelectorAll("#scoresheet [data-edit-score]")).find((one) =>
      one.dataset.player === form.elements.player.value && one.dataset.round === form.elements.round.value);
    return cell && cell.dataset.points !== "" && cell.dataset.points !== form.elements.points.value ? cell.dataset.points : null;
  }
  document.addEventListener("htmx:confirm", (event) => {
    const form = event.target.closest && event.target.closest("form[data-action=enter_score]");
    if (!form || !form.elements.round) return;
    const send = () => event.detail.issueRequest(true);
    const round = Number(form.elements.round.value);
    const held = heldScore(form);
    const replace = document.getElementById("score-replace");
    if (held !== null && replace) {
      event.preventDefault();
      const fill = (words) => words.replace("{player}", () => form.elements.player.value)
        .replace("{round}", round).replace("{points}", held).replace("{new}", form.elements.points.value);
      ask(replace, fill(replace.dataset.question), fill(replace.dataset.why), send);
      return;
    }
    const gap = document.getElementById("round-gap");
    const last = lastRound();
    if (!gap || !(round > last + 1)) return;
    event.preventDefault();
    const fill = (words) => words.replace("{round}", round).replace("{last}", last)
      .replace("{first}", last + 1).replace("{before}", round - 1);
    ask(gap, fill(gap.dataset.question),
      fill(!last ? gap.dataset.emptyAll : round - 1 === last + 1 ? gap.dataset.emptyOne : gap.dataset.empty), send);
  });
  document.addEventListener("click", (event) => {
    const yes = event.target.closest && event.target.closest("[data-ask-yes]");
    if (!yes) return;
    yes.closest("dialog").close();
    if (confirmed) confirmed();
    confirmed = null;
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
    // The phone's own entry comes first and is the big button; another's is the second choice.
    const other = event.target.querySelector("[data-undo-confirmed]");
    const mine = offer.querySelector("button[type=submit]");
    if (other && mine) {
      other.classList.toggle("primary", !own);
      other.classList.toggle("secondary", !!own);
      mine.classList.toggle("primary", !!own);
      mine.classList.toggle("secondary", !own);
      const row = other.closest(".row");
      if (own) row.before(offer);
      else row.after(offer);
    }
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
    document.addEventListener(name, () => followSheet(false));
  });
  document.addEventListener("DOMContentLoaded", () => followSheet(false));
})();
