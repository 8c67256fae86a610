// The table companion's small layer over htmx: the live stream and its fallback poll, the
// offline banner, keeping half-typed input safe from updates, and a few conveniences for forms.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const meta = () => document.getElementById("live-meta");
  const streamElement = () => document.getElementById("live-stream");
  const deferred = new Set();

  // -- the live stream -------------------------------------------------------------------
  // The page holds one server-sent-events stream (htmx's sse extension, sse-connect on
  // #live-stream). Once its "ready" event arrives, changes come from it and the poll rests;
  // while it is closed or not yet proven (a proxy may buffer it), the poll runs as before.
  let stream = null;
  let streamReady = false;
  let forcePoll = false;

  // The address the stream reopens with: the version and region hashes the page shows now,
  // so that the server sends exactly what this phone misses.
  function streamUrl() {
    const el = streamElement();
    const m = meta();
    if (!el || !m) return null;
    const base = (el.getAttribute("sse-connect") || "").split("?")[0];
    return base + "?v=" + encodeURIComponent(shownVersion()) + "&have=" + encodeURIComponent(regionHashes());
  }

  // The version the page shows, or -1 while regions were held back: then the server compares
  // every region with what the page really has and sends the ones it misses.
  function shownVersion() {
    const m = meta();
    return deferred.size ? "-1" : (m ? m.dataset.version : "-1");
  }

  function refreshStreamUrl() {
    const el = streamElement();
    const url = streamUrl();
    if (el && url) el.setAttribute("sse-connect", url);
  }

  function pollNow() {
    const poller = document.querySelector("[data-poll]");
    if (poller && window.htmx) {
      forcePoll = true;
      htmx.trigger(poller, "poll-now");
    }
  }

  // Start afresh with what the page shows (after regions were held back while typing).
  function reopenStream() {
    const el = streamElement();
    if (!el || !window.htmx) return;
    if (stream) stream.close();
    stream = null;
    streamReady = false;
    const fresh = el.cloneNode(false);
    el.replaceWith(fresh);
    fresh.setAttribute("sse-connect", streamUrl());
    htmx.process(fresh);
  }

  function watchStream(source) {
    stream = source;
    streamReady = false;
    source.addEventListener("ready", () => {
      if (stream !== source) return;
      streamReady = true;
      const banner = document.getElementById("connection");
      if (banner) banner.hidden = true;
    });
    source.addEventListener("deleted", (event) => {
      source.close();
      showNotice("This table was deleted by its host.");
      window.setTimeout(() => { window.location.href = event.data || "/"; }, 1500);
    });
    source.addEventListener("error", () => {
      if (stream === source) streamReady = false;  // the poll takes over until "ready" again
    });
  }

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

  if (window.htmx && htmx.createEventSource) {
    const create = htmx.createEventSource;
    htmx.createEventSource = (url) => {
      const source = create(url);
      watchStream(source);
      return source;
    };
  }
  // Before htmx opens the stream: the address carries the hashes of what the page shows.
  refreshStreamUrl();

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

  // The poll rests while the stream works; a poll asked for on purpose still goes.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.detail.elt.matches("[data-poll]")) return;
    if (streamReady && !forcePoll) event.preventDefault();
    forcePoll = false;
  });

  document.addEventListener("htmx:configRequest", (event) => {
    const m = meta();
    if (!m) return;
    // With the stream open, the change comes back on it like on every other phone.
    if (streamReady && !event.detail.elt.matches("[data-poll]")) {
      event.detail.headers["X-Live-Stream"] = "open";
    }
    event.detail.parameters.have = regionHashes();
    if (event.detail.elt.matches("[data-poll]")) {
      event.detail.parameters.v = shownVersion();
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

  // After a stream event: versions of forms, and the address a reopened stream would use.
  document.addEventListener("htmx:sseMessage", () => {
    refreshVersions();
    refreshStreamUrl();
  });

  // Regions held back while the user typed or had a dialog open: fetch them once the user is
  // done (the stream already counts them as sent, so it is reopened with what the page shows).
  function catchUpHeldBack() {
    if (!deferred.size) return;
    if (streamReady) reopenStream();
    else pollNow();
  }
  document.addEventListener("focusout", (event) => {
    const region = event.target.closest && event.target.closest("[data-region]");
    if (region && deferred.has(region.id)) window.setTimeout(() => { if (!isBusy(region)) catchUpHeldBack(); }, 0);
  });
  document.addEventListener("close", (event) => {
    if (event.target.matches && event.target.matches("dialog")) window.setTimeout(catchUpHeldBack, 0);
  }, true);
  document.addEventListener("toggle", (event) => {
    if (event.target.matches && event.target.matches("details") && !event.target.open) window.setTimeout(catchUpHeldBack, 0);
  }, true);

  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    const banner = document.getElementById("connection");
    if (!xhr || xhr.status === 0) return;
    if (banner) banner.hidden = true;
    const m = meta();
    refreshVersions();
    refreshStreamUrl();
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (xhr.status === 409 && form && m) {
      const input = form.querySelector("input[data-live-version]");
      if (input) input.value = m.dataset.stateVersion;
    }
    if (xhr.status === 200 && form && form.matches(".action")) {
      const dialog = form.closest("dialog");
      const error = form.querySelector(".form-error");
      if (dialog && dialog.open && !(error && error.textContent.trim())) {
        dialog.close();  // its "close" fetches the region held back behind it
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

  // A phone waking up asks at once instead of waiting for the next tick (its stream may
  // have died in its sleep; the browser reopens it by itself).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !streamReady) pollNow();
  });

  // Regions sent on the stream carry no CSRF token (one render serves many phones); a plain
  // form submitted without htmx takes the page's.
  document.addEventListener("submit", (event) => {
    const token = document.querySelector('meta[name="csrf-token"]');
    const field = event.target.querySelector && event.target.querySelector('input[name="csrf_token"]');
    if (token && field && !field.value) field.value = token.content;
  }, true);

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
      // A dialog that stays on the page kept the version of its last use: take the page's.
      const m = meta();
      if (m) dialog.querySelectorAll("input[data-live-version]").forEach((input) => { input.value = m.dataset.stateVersion; });
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
