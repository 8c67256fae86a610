// The table companion's small layer over htmx, in parts put together in this order into every
// bundle (companion/web/assets.py): core.js (this: what the parts share), still.js (the page
// kept still around swaps, and a message on a form shown where the player looks), live.js (the
// live stream, its fallback poll, regions held back while the player is busy), unsent.js (the
// offline banner and taps kept while offline), awake.js (the screen kept on), forms.js (forms
// and dialogs), events.js (the listeners: one per event, calling the parts in order).
// The parts share state and call each other only through this one object: a part takes what
// the parts before it gave when it loads, and calls what a later part gives through it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  window.companion = {
    // The live stream said "ready": changes come on it and the poll rests (live.js sets it).
    streamReady: false,
    // A message on a form (a refusal, the fate of a tap sent late) outlives a redraw of its
    // region for this long, so that another phone's move does not wipe it before it is read.
    NOTE_KEPT_MS: 30000,

    meta: () => document.getElementById("live-meta"),

    // The words the scripts show, in the phone's language: every page carries them as data
    // attributes of #app-texts (templates/app_texts.html, included by base.html). "{n}",
    // "{status}", "{reason}" and "{sentence}" are filled in.
    text(key, fields) {
      const holder = document.getElementById("app-texts");
      let words = (holder && holder.dataset[key]) || "";
      Object.keys(fields || {}).forEach((name) => {
        words = words.split("{" + name + "}").join(String(fields[name]));
      });
      return words;
    },

    // A notice is news for the whole page (the table is gone, a move with no form of its own):
    // unlike the offline banner, it is let push the page, so that it shows.
    showNotice(words) {
      const notice = document.getElementById("notice");
      if (notice) notice.textContent = words;
    },

    // 128 random bits as hex (crypto.randomUUID needs a secure page; a LAN address is not one).
    requestKey() {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    },

    // Open menus: <details> and popovers.
    openMenus(root) {
      const menus = Array.from(root.querySelectorAll("details[open]"));
      try {
        menus.push(...root.querySelectorAll("[popover]:popover-open"));
      } catch (e) { /* a browser without popovers has none open */ }
      return menus;
    },

    // The forms of a dialog take the version the page shows now.
    takePageVersion(dialog) {
      const m = window.companion.meta();
      if (m) dialog.querySelectorAll("input[data-live-version]").forEach((input) => { input.value = m.dataset.stateVersion; });
    },
  };
})();
