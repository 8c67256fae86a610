// The table companion's small layer over htmx: live polling details, the offline banner,
// keeping half-typed input safe from updates, and a few conveniences for forms.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const meta = () => document.getElementById("live-meta");
  const deferred = new Set();

  // Regions the phone's user is busy in: a focused field, an open dialog or menu.
  function isBusy(region) {
    const active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, select, textarea")) return true;
    return !!region.querySelector("dialog[open], details[open][data-keep-open]");
  }

  function regionHashes() {
    return Array.from(document.querySelectorAll("[data-region]"))
      .map((el) => el.id + ":" + el.dataset.hash)
      .join(",");
  }

  function insideOpenDialog(el) {
    const dialog = el.closest("dialog");
    return dialog && dialog.open;
  }

  // Forms carry the version their user saw; regions swapped in place bring their own,
  // forms elsewhere follow the page unless their user is in the middle of them.
  function refreshVersions() {
    const m = meta();
    if (!m) return;
    document.querySelectorAll("input[data-live-version]").forEach((input) => {
      const region = input.closest("[data-region]");
      if (region && deferred.has(region.id)) return;
      if (insideOpenDialog(input)) return;
      input.value = m.dataset.stateVersion;
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!window.htmx) return;
    htmx.config.timeout = 8000;
    htmx.config.defaultSettleDelay = 0;
    htmx.config.historyCacheSize = 0;
    // Refusals carry a sentence for the form, and a stale tap also the fresh state: swap them.
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "(400|401|403|404|409|422|429)", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
  });

  document.addEventListener("htmx:configRequest", (event) => {
    const m = meta();
    if (!m) return;
    event.detail.parameters.have = regionHashes();
    if (event.detail.elt.matches("[data-poll]")) {
      event.detail.parameters.v = m.dataset.version;
    }
  });

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.matches && target.matches("[data-region]")) {
      if (isBusy(target)) {
        event.detail.shouldSwap = false;
        deferred.add(target.id);
      } else {
        deferred.delete(target.id);
      }
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    const banner = document.getElementById("connection");
    if (!xhr || xhr.status === 0) return;
    if (banner) banner.hidden = true;
    const m = meta();
    if (m && deferred.size) {
      // Ask again next poll: the regions held back while the user typed still need updating.
      m.dataset.version = "-1";
    }
    refreshVersions();
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (xhr.status === 409 && form && m) {
      const input = form.querySelector("input[data-live-version]");
      if (input) input.value = m.dataset.stateVersion;
    }
    if (xhr.status === 200 && form && form.matches(".action")) {
      const dialog = form.closest("dialog");
      const error = form.querySelector(".form-error");
      if (dialog && dialog.open && !(error && error.textContent.trim())) {
        dialog.close();
        // The region around the dialog was held back while it was open: fetch it now.
        const poller = document.querySelector("[data-poll]");
        if (deferred.size && poller && window.htmx) htmx.trigger(poller, "poll-now");
      }
      // Fields listed in data-clear-on-success start empty for the next entry.
      (form.dataset.clearOnSuccess || "").split(" ").filter(Boolean).forEach((name) => {
        if (form.elements[name]) form.elements[name].value = "";
      });
      if (form.querySelector("[data-next-round-target]")) suggestRound(form);
    }
    if (xhr.status === 404 && event.detail.elt.matches("[data-poll]")) {
      showNotice("This table no longer exists.");
    }
  });

  function offline() {
    const banner = document.getElementById("connection");
    if (banner) banner.hidden = false;
  }
  document.addEventListener("htmx:sendError", offline);
  document.addEventListener("htmx:timeout", offline);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr && event.detail.xhr.status >= 500) offline();
  });

  function showNotice(text) {
    const notice = document.getElementById("notice");
    if (notice) notice.textContent = text;
  }

  // A phone waking up asks at once instead of waiting for the next tick.
  document.addEventListener("visibilitychange", () => {
    const poller = document.querySelector("[data-poll]");
    if (poller && document.visibilityState === "visible" && window.htmx) htmx.trigger(poller, "poll-now");
  });

  // -- small conveniences ------------------------------------------------------------
  document.addEventListener("click", (event) => {
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
    const cell = event.target.closest("[data-fill-score]");
    if (cell) {
      const form = document.querySelector("form.score-entry");
      if (!form) return;
      form.elements.player.value = cell.dataset.player;
      form.elements.round.value = cell.dataset.round;
      form.elements.points.value = cell.dataset.points;
      form.scrollIntoView({ block: "center", behavior: "smooth" });
      form.elements.points.focus();
      return;
    }
    const opener = event.target.closest("[data-open-dialog]");
    if (opener) {
      const dialog = document.getElementById(opener.dataset.openDialog);
      if (!dialog) return;
      // Plain links to the rules stay links without JavaScript; with it they open in place.
      if (opener.matches("a:not([hx-get])")) event.preventDefault();
      if (!dialog.open) dialog.showModal();
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
  });

  // The score form suggests the first round the chosen player has no score for.
  function suggestRound(form) {
    const sheet = document.querySelector("[data-next-rounds]");
    const select = form.querySelector("[data-next-round-target]");
    if (!sheet || !select) return;
    const next = JSON.parse(sheet.dataset.nextRounds || "{}");
    if (next[select.value]) form.elements.round.value = next[select.value];
  }
  document.addEventListener("change", (event) => {
    const select = event.target.closest("[data-next-round-target]");
    if (select) suggestRound(select.form);
  });

  // Times in the log are written by the server in UTC; show them in the phone's own time.
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach((el) => {
      const when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    });
  }
  document.addEventListener("DOMContentLoaded", () => localTimes(document));
  document.addEventListener("htmx:oobAfterSwap", (event) => localTimes(event.detail.target || document));
})();
