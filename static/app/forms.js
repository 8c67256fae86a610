// Forms and dialogs: what follows an accepted move, taking back another player's move, the
// dialogs and the rules overlay, the set-up form's rows, times in the phone's own zone, and
// the rematch every phone follows.
(function () {
  "use strict";
  const app = window.companion;
  let confirmedUndo = null;
  let following = false;

  // An accepted move (200) from a form of the page.
  function answered(event) {
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (event.detail.xhr.status !== 200 || !form || !form.matches(".action")) return;
    const dialog = form.closest("dialog");
    const error = form.querySelector(".form-error");
    if (dialog && dialog.open && !(error && error.textContent.trim())) {
      dialog.close();  // its "close" fetches the region held back behind it
    }
    // Fields listed in data-clear-on-success start empty for the next entry, unless the
    // player already typed that entry (the stream can show the change before this answer).
    (form.dataset.clearOnSuccess || "").split(" ").filter(Boolean).forEach((name) => {
      if (form.elements[name] && app.asSent(form, name)) form.elements[name].value = "";
    });
    // A choice made in an open menu held its region back; once sent, it is no longer the
    // player's unsent work, and the region (with the menu open again) can catch up.
    if (!dialog && app.openMenus(document).some((menu) => menu.contains(form))) {
      form.reset();
      window.setTimeout(app.catchUpWhenFree, 0);
    }
  }

  // Regions sent on the stream carry no CSRF token (one render serves many phones); a plain
  // form submitted without htmx takes the page's.
  function fillToken(event) {
    const token = document.querySelector('meta[name="csrf-token"]');
    const field = event.target.querySelector && event.target.querySelector('input[name="csrf_token"]');
    if (token && field && !field.value) field.value = token.content;
  }

  // -- taking back another player's move -----------------------------------------------------
  // The undo under the thumb names the move it takes back; when that move is another
  // player's (or the host's), the phone asks once, naming whose it is, before sending.
  function movedByOther(form) {
    const me = document.querySelector("[data-region=me]");
    const mine = me ? me.dataset.seat || (me.dataset.host ? "" : null) : null;
    return mine === null || form.dataset.moveBy !== mine;
  }

  function confirmUndo(event) {
    const form = event.target.closest && event.target.closest("form[data-move-text]");
    const dialog = document.getElementById("undo-confirm");
    if (!form || !dialog || !movedByOther(form)) return;
    event.preventDefault();
    const by = form.dataset.moveBy;
    dialog.querySelector("h2").textContent = by
      ? dialog.dataset.question.split("{player}").join(by) : dialog.dataset.questionHost;
    dialog.querySelector(".undo-confirm-move").textContent = form.dataset.moveText;
    confirmedUndo = () => event.detail.issueRequest(true);
    // Its forms take the version the page shows now; a game may offer something instead.
    app.takePageVersion(dialog);
    dialog.dispatchEvent(new CustomEvent("companion:undo-asked", { bubbles: true }));
    dialog.showModal();
  }

  function undoConfirmed(event) {
    if (!event.target.closest("[data-undo-confirmed]")) return;
    const dialog = document.getElementById("undo-confirm");
    if (dialog) dialog.close();
    if (confirmedUndo) confirmedUndo();
    confirmedUndo = null;
  }

  // -- small conveniences ------------------------------------------------------------
  function convenience(event) {
    const add = event.target.closest("[data-add-player]");
    if (add) {
      const next = document.querySelector(".player-row.extra");
      if (next) {
        next.classList.remove("extra");
        next.querySelector("input").focus();
      }
      if (!document.querySelector(".player-row.extra")) add.hidden = true;
      return;
    }
    const flip = event.target.closest("[data-flip-sign]");
    if (flip) {
      const input = flip.parentElement.querySelector("input");
      const value = input.value.trim();
      input.value = value.startsWith("-") ? value.slice(1) : "-" + (value || "");
      input.focus();
      return;
    }
    // A "?" beside a control (web/templating.help_link: /rules/<game>#<section>) opens its
    // section in the rules overlay.
    const help = event.target.closest("a.help");
    const rules = document.getElementById("rules-dialog");
    if (help && rules && window.htmx) {
      event.preventDefault();
      if (!rules.open) rules.showModal();
      htmx.ajax("GET", help.getAttribute("href").replace("#", "/"), "#rules-dialog-body");
      return;
    }
    const opener = event.target.closest("[data-open-dialog]");
    if (opener) {
      const dialog = document.getElementById(opener.dataset.openDialog);
      if (!dialog) return;
      // Plain links to the rules stay links without JavaScript; with it they open in place.
      if (opener.matches("a:not([hx-get])")) event.preventDefault();
      if (!dialog.open) dialog.showModal();
      // A dialog that stays on the page kept the version of its last use: take the page's.
      app.takePageVersion(dialog);
      const focus = opener.dataset.focus && dialog.querySelector(opener.dataset.focus);
      if (focus) focus.focus();
      return;
    }
    // A link to another section inside the overlay opens that section in the overlay too.
    const inner = event.target.closest("#rules-dialog-body article[data-game] a[href^='#']");
    if (inner && window.htmx) {
      event.preventDefault();
      const game = inner.closest("article").dataset.game;
      const section = inner.getAttribute("href").slice(1);
      htmx.ajax("GET", `/rules/${encodeURIComponent(game)}/${encodeURIComponent(section)}`, "#rules-dialog-body");
      return;
    }
    const back = event.target.closest("[data-rules-back]");
    if (back) {
      const input = document.getElementById("rules-q");
      if (input && window.htmx) htmx.trigger(input, "search");
      return;
    }
    const closer = event.target.closest("[data-close-dialog]");
    if (closer) {
      const dialog = closer.closest("dialog");
      if (dialog) dialog.close();
    }
  }

  // A download written in local time (the group's CSV) is written in the phone's own zone.
  function addTimeZone(event) {
    const link = event.target.closest && event.target.closest("a[data-add-time-zone]");
    const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (link && zone) {
      const url = new URL(link.href);
      url.searchParams.set("tz", zone);
      link.href = url.toString();
    }
  }

  function clicked(event) {
    undoConfirmed(event);
    convenience(event);
    addTimeZone(event);
  }

  // Times in the log are written by the server in UTC; show them in the phone's own time.
  // In the page's language (a German page: "21:05"), as the phone's own locales of that
  // language write it (en-GB keeps its 24 hours; en-US says "9:05 PM").
  function timeLocales() {
    const lang = (document.documentElement.lang || "").toLowerCase();
    if (!lang) return [];
    const own = (navigator.languages || []).filter((tag) => tag.toLowerCase().split("-")[0] === lang);
    return own.length ? own : [lang];
  }
  // A play's end (data-show="day") is told with its day and year: "3. Dez. 2026, 17:44".
  function localTimes(root) {
    const locales = timeLocales();
    const clock = { hour: "2-digit", minute: "2-digit" };
    root.querySelectorAll("time[datetime]").forEach((el) => {
      const when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      el.textContent = el.dataset.show === "day"
        ? when.toLocaleString(locales, { day: "numeric", month: "short", year: "numeric", ...clock })
        : when.toLocaleTimeString(locales, clock);
    });
  }

  // The rematch: once someone starts it, #live-meta names where this table's phones go next;
  // every phone follows (each gets its own place there: the same seat, host if host here).
  function followRematch() {
    const m = app.meta();
    if (following || !m || !m.dataset.next) return;
    following = true;
    window.setTimeout(() => { window.location.assign(m.dataset.next); }, 600);
  }

  Object.assign(app, { answeredForm: answered, fillToken, confirmUndo, clicked, localTimes, followRematch });
})();
