// Asterix & Co.: one shared dialog each for a character's moves, for playing a character, for
// a player's powers and for an album's note. The link that opens one carries what to fill in
// (data-*), so the live regions send only what a player sees and taps, not a copy of every
// form per character.
(function () {
  "use strict";

  function fill(dialog, selector, value) {
    dialog.querySelectorAll(selector).forEach((field) => { field.value = value; });
  }

  function say(dialog, selector, text) {
    dialog.querySelectorAll(selector).forEach((el) => { el.textContent = text; });
  }

  // The words come from the page, in the phone's language: an element's data-NAME-text
  // holds a sentence with {album}, {side} or {player} to fill in.
  function words(dialog, selector, name, values) {
    const el = dialog.querySelector(selector);
    let text = (el && el.dataset[name + "Text"]) || "";
    Object.keys(values).forEach((key) => { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  // A fresh start each time: nothing left over from the last character or side, and the
  // version the page shows now (the dialog stays on the page, so its last use may be stale).
  function prepare(id) {
    const dialog = document.getElementById(id);
    if (!dialog) return null;
    dialog.querySelectorAll("form").forEach((form) => form.reset());
    dialog.querySelectorAll(".form-error").forEach((line) => { line.textContent = ""; });
    const meta = document.getElementById("live-meta");
    if (meta) fill(dialog, "input[data-live-version]", meta.dataset.stateVersion);
    return dialog;
  }

  function show(dialog) {
    if (!dialog.open) dialog.showModal();
  }

  function openMoves(link) {
    const dialog = prepare("ac-moves");
    if (!dialog) return false;
    const moves = link.dataset.moves.split(" ").filter(Boolean);
    dialog.querySelectorAll("[data-move]").forEach((el) => { el.hidden = !moves.includes(el.dataset.move); });
    dialog.querySelectorAll("[data-move-not]").forEach((el) => { el.hidden = moves.includes(el.dataset.moveNot); });
    // A group's heading only over moves that are offered.
    let heading = null;
    Array.from(dialog.children).forEach((el) => {
      if (el.matches(".ac-menu-group")) {
        heading = el;
        heading.hidden = true;
      } else if (heading && el.matches("[data-move]") && !el.hidden) {
        heading.hidden = false;
      }
    });
    fill(dialog, "[data-ac-character]", link.dataset.acChar);
    // Whose token: the player whose turn it is, as on the ledger.
    const turn = document.querySelector("[data-turn]");
    if (turn) fill(dialog, "[data-ac-turn]", turn.dataset.turn);
    // The card as the table sees it: its name, what it shows, its album (never the page's id).
    const name = link.querySelector("strong");
    say(dialog, "[data-ac-title]", name ? name.textContent.trim() : "");
    const details = link.querySelector("small");
    let shown = "";
    if (details) {
      const copy = details.cloneNode(true);
      copy.querySelectorAll(".ac-nojs").forEach((part) => part.remove());
      shown = copy.textContent.replace(/\s+/g, " ").trim() + " · ";
    }
    say(dialog, "[data-ac-what]", shown + words(dialog, "[data-ac-what]", "album", { album: link.dataset.album }));
    show(dialog);
    return true;
  }

  function openPlay(link) {
    const dialog = prepare("ac-play");
    if (!dialog) return false;
    const { album, faction, player } = link.dataset;
    const title = dialog.querySelector("[data-ac-title]");
    const side = (title && title.dataset[faction === "gaul" ? "sideGaul" : "sideRoman"]) || "";
    fill(dialog, "[data-ac-album]", album);
    fill(dialog, "[data-ac-player]", player);
    // A side takes its own faction's colour or Neutral; its own colour is the usual one.
    dialog.querySelectorAll("[data-faction]").forEach((chip) => {
      chip.hidden = chip.dataset.faction !== faction;
      chip.querySelector("input").checked = !chip.hidden;
    });
    const badge = dialog.querySelector("[data-ac-badge]");
    if (badge) {
      badge.className = "fx fx-" + faction;
      badge.textContent = faction[0].toUpperCase();
      badge.hidden = false;
    }
    say(dialog, "[data-ac-title]", words(dialog, "[data-ac-title]", "album", { album, side }));
    say(dialog, "[data-ac-what]", words(dialog, "[data-ac-what]", "player", { player }));
    say(dialog, "[data-ac-submit]", words(dialog, "[data-ac-submit]", "album", { album }));
    show(dialog);
    return true;
  }

  function openPowers(link) {
    const dialog = prepare("ac-powers");
    if (!dialog) return false;
    const player = link.dataset.acPowers;
    fill(dialog, "[data-ac-player]", player);
    say(dialog, "[data-ac-name]", player);
    say(dialog, "[data-ac-title]", ": " + player);
    show(dialog);
    return true;
  }

  function openNote(link) {
    const dialog = prepare("ac-note");
    if (!dialog) return false;
    fill(dialog, "[data-ac-album]", link.dataset.album);
    fill(dialog, "[data-ac-note-text]", link.dataset.note);
    say(dialog, "[data-ac-title]", words(dialog, "[data-ac-title]", "album", { album: link.dataset.album }));
    show(dialog);
    return true;
  }

  // A refusal lands in its form's error line, inside the dialog: bring that line into the
  // dialog's view (the dialog scrolls, the page behind it does not move).
  document.addEventListener("htmx:afterSwap", (event) => {
    const line = event.detail.target;
    if (!line || !line.matches || !line.matches(".ac-menu .form-error")) return;
    if (line.textContent.trim() && line.closest("dialog[open]")) line.scrollIntoView({ block: "nearest" });
  });

  const OPENERS = { acChar: openMoves, acPlay: openPlay, acPowers: openPowers, acNote: openNote };

  document.addEventListener("click", (event) => {
    const link = event.target.closest("[data-ac-char], [data-ac-play], [data-ac-powers], [data-ac-note]");
    if (!link) return;
    const kind = Object.keys(OPENERS).find((key) => key in link.dataset);
    const opened = OPENERS[kind](link);
    // Without its dialog (not on the page yet) the link still jumps to the form in place.
    if (opened) event.preventDefault();
  });
})();
