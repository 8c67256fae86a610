// Teaching mode ("Our first game"): the coach card's control highlighted, and this phone's own
// choices about it, kept in localStorage: "I've got it" hides the card for this game, and the
// tips can be switched off. The card itself comes with the table's live regions.
(function () {
  "use strict";

  const HIDDEN = "coach-hidden:";  // + the game's id
  const NO_TIPS = "coach-tips-off";

  function stored(key) {
    try { return localStorage.getItem(key) === "1"; } catch (e) { return false; }
  }

  function store(key, on) {
    try {
      if (on) localStorage.setItem(key, "1");
      else localStorage.removeItem(key);
    } catch (e) { /* this page only */ }
  }

  // The control the card names, where this phone may use it now: a form of that move whose
  // controls are not disabled (another player's phone shows it greyed, and unmarked).
  function mark() {
    const card = document.getElementById("coach");
    document.querySelectorAll(".coach-target").forEach((element) => {
      element.classList.remove("coach-target");
      element.removeAttribute("data-coach-label");
      element.removeAttribute("data-coach-for");
    });
    const root = document.documentElement;
    if (!card) return;
    const hidden = stored(HIDDEN + card.dataset.game);
    root.classList.toggle("coach-hidden", hidden);
    root.classList.toggle("coach-tips-off", stored(NO_TIPS));
    card.querySelectorAll("[data-coach-hints]").forEach((button) => {
      button.textContent = stored(NO_TIPS) ? button.dataset.off : button.dataset.on;
      button.setAttribute("aria-pressed", stored(NO_TIPS) ? "false" : "true");
    });
    // Read aloud where the browser can speak: the introduction is said to the whole table.
    card.querySelectorAll("[data-coach-read]").forEach((button) => { button.hidden = !("speechSynthesis" in window); });
    const control = card.dataset.control;
    if (card.hidden || hidden || !control) return;
    const target = (element, label) => {
      element.classList.add("coach-target");
      if (label) element.dataset.coachLabel = card.dataset.tapLabel;
      element.dataset.coachFor = control;
    };
    document.querySelectorAll(`form[data-action="${CSS.escape(control)}"]`).forEach((form) => {
      const fieldset = form.querySelector("fieldset");
      if (fieldset && fieldset.disabled) return;
      // A form laid out in its parent's grid (display: contents) has no box: its boxes are
      // outlined, without "Tap here" above each arrow or colour.
      if (getComputedStyle(form).display === "contents") inner(form).forEach((box) => target(box, false));
      else target(form, true);
      // A form in a closed dialog is reached through what opens the dialog: mark that too.
      const dialog = form.closest("dialog");
      if (dialog && dialog.id && !dialog.open) {
        document.querySelectorAll(`a[href="#${CSS.escape(dialog.id)}"], [data-open-dialog="${CSS.escape(dialog.id)}"]`)
          .forEach((opener) => { if (!opener.disabled) target(opener, true); });
      }
      // A form in a closed menu is reached through the outermost closed menu's summary.
      const menu = outermostClosed(form);
      if (menu && menu.querySelector(":scope > summary")) target(menu.querySelector(":scope > summary"), true);
    });
    offerWay(card);
  }

  function outermostClosed(element) {
    let found = null;
    for (let menu = element.closest("details"); menu; menu = menu.parentElement.closest("details")) {
      if (!menu.open) found = menu;
    }
    return found;
  }

  // "↓ Tap here" in the card while the first control it marks on this phone is off screen:
  // one tap brings it into view.
  let watching = null;
  function offerWay(card) {
    const way = card.querySelector("[data-coach-goto]");
    if (watching) watching.disconnect();
    watching = null;
    const first = Array.from(document.querySelectorAll(".coach-target"))
      .find((element) => !card.contains(element) && element.getClientRects().length);
    if (!way) return;
    // Its place is kept while the control is in sight (only its visibility changes): the
    // card's height must not change with it, or the control would move in and out of sight.
    way.hidden = !first || !("IntersectionObserver" in window);
    if (way.hidden) return;
    way.coachTarget = first;
    way.classList.add("coach-goto-idle");
    // On screen: whole, or (a tall board) over half the screen's height.
    watching = new IntersectionObserver((seen) => {
      const entry = seen[seen.length - 1];
      const shown = entry.intersectionRatio > 0.99 || entry.intersectionRect.height > window.innerHeight / 2;
      way.classList.toggle("coach-goto-idle", shown);
      way.textContent = entry.boundingClientRect.top < 0 ? way.dataset.up : way.dataset.down;
    }, { threshold: [0, 0.25, 0.5, 0.75, 1] });
    watching.observe(first);
  }

  function goTo(way) {
    const first = way.coachTarget;
    if (!first || !first.isConnected) return;
    first.scrollIntoView({ block: "center", behavior: "smooth" });
    const control = first.matches("summary, button, a, input, select") ? first
      : first.querySelector("button:not([disabled]), input:not([type=hidden]), select, summary, a[href]");
    if (control) control.focus({ preventScroll: true });
  }

  // The visible boxes inside an element with display: contents.
  function inner(element) {
    return Array.from(element.children).flatMap((child) => {
      const display = getComputedStyle(child).display;
      if (display === "contents") return inner(child);
      return display !== "none" && child.offsetHeight ? [child] : [];
    });
  }

  document.addEventListener("click", (event) => {
    const card = document.getElementById("coach");
    if (!card) return;
    if (event.target.closest("[data-coach-hide]")) store(HIDDEN + card.dataset.game, true);
    else if (event.target.closest("[data-coach-show]")) store(HIDDEN + card.dataset.game, false);
    else if (event.target.closest("[data-coach-hints]")) store(NO_TIPS, !stored(NO_TIPS));
    else if (event.target.closest("[data-coach-goto]")) {
      event.preventDefault();
      goTo(event.target.closest("[data-coach-goto]"));
      return;
    }
    else if (event.target.closest("[data-coach-read]")) {
      const text = Array.from(card.querySelectorAll(".coach-intro-again [data-coach-words]"), (part) => part.textContent);
      const words = new SpeechSynthesisUtterance(text.join(" "));
      words.lang = document.documentElement.lang;
      speechSynthesis.cancel();
      speechSynthesis.speak(words);
      return;
    } else return;
    mark();
  });
  // Loaded on demand (app/core.js: loadWanted) once the card shows: maybe after the page came up.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  // After every region the stream or a tap's answer swaps in: the card or the control may be new.
  document.addEventListener("htmx:oobAfterSwap", mark);
  document.addEventListener("htmx:afterSwap", mark);
  // A menu opened or closed: what the card marks inside it is visible now, or folded again.
  document.addEventListener("toggle", (event) => { if (event.target.matches && event.target.matches("details")) mark(); }, true);
})();
