// The live stream. The page holds one server-sent-events stream (htmx's sse extension,
// sse-connect on #live-stream). Once its "ready" event arrives, changes come from it and the
// poll rests; while it is closed or not yet proven (a proxy may buffer it), the poll runs as
// before. A region the player is busy in is held back, and fetched once the player is done.
(function () {
  "use strict";
  const app = window.companion;
  const streamElement = () => document.getElementById("live-stream");
  const deferred = new Set();  // the ids of regions held back
  let stream = null;
  let forcePoll = false;

  // The address the stream reopens with: the version and region hashes the page shows now,
  // so that the server sends exactly what this phone misses.
  function streamUrl() {
    const el = streamElement();
    if (!el || !app.meta()) return null;
    const base = (el.getAttribute("sse-connect") || "").split("?")[0];
    return base + "?v=" + encodeURIComponent(shownVersion()) + "&have=" + encodeURIComponent(regionHashes());
  }

  // The version the page shows, or -1 while regions were held back: then the server compares
  // every region with what the page really has and sends the ones it misses.
  function shownVersion() {
    const m = app.meta();
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
    app.streamReady = false;
    const fresh = el.cloneNode(false);
    el.replaceWith(fresh);
    fresh.setAttribute("sse-connect", streamUrl());
    htmx.process(fresh);
  }

  function watchStream(source) {
    stream = source;
    app.streamReady = false;
    source.addEventListener("ready", () => {
      if (stream !== source) return;
      app.streamReady = true;
      app.online();
    });
    source.addEventListener("deleted", (event) => {
      source.close();
      app.showNotice(app.text("deleted"));
      window.setTimeout(() => { window.location.href = event.data || "/"; }, 1500);
    });
    source.addEventListener("error", () => {
      if (stream === source) app.streamReady = false;  // the poll takes over until "ready" again
    });
  }

  // Regions the phone's user is busy in: a focused field, an open dialog, a menu marked
  // data-keep-open, or any open menu (<details>, popover) with a choice made in it but not sent.
  // Other open menus do not hold their region back: the region is redrawn and the menu opened
  // again in the new copy (still.js), so the player sees the change and keeps the menu.
  function isBusy(region) {
    const active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, select, textarea, [contenteditable]")) return true;
    if (region.querySelector("dialog[open], details[open][data-keep-open]")) return true;
    return app.openMenus(region).some(changedFields);
  }

  // A field whose value the player changed and has not sent yet.
  function changedFields(root) {
    return Array.from(root.querySelectorAll("input, select, textarea")).some((field) => {
      if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
      if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
      if (field.tagName === "SELECT") {
        // With no option marked selected, the browser shows the first: that is no choice made.
        const options = Array.from(field.options);
        const marked = options.some((o) => o.defaultSelected);
        return options.some((o, i) => o.selected !== (marked ? o.defaultSelected : !field.multiple && i === 0));
      }
      return field.value !== field.defaultValue;
    });
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
    const m = app.meta();
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

  function configure() {
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
  }

  // The poll rests while the stream works; a poll asked for on purpose still goes.
  function restPoll(event) {
    if (!event.detail.elt.matches("[data-poll]")) return;
    if (app.streamReady && !forcePoll) event.preventDefault();
    forcePoll = false;
  }

  function configRequest(event) {
    if (!app.meta()) return;
    // With the stream open, the change comes back on it like on every other phone.
    if (app.streamReady && !event.detail.elt.matches("[data-poll]")) {
      event.detail.headers["X-Live-Stream"] = "open";
    }
    event.detail.parameters.have = regionHashes();
    if (event.detail.elt.matches("[data-poll]")) {
      event.detail.parameters.v = shownVersion();
    } else if (String(event.detail.verb).toLowerCase() === "post") {
      // One key per tap; a retry of the tap sends the same one, and the server records it once.
      event.detail.headers["Idempotency-Key"] = app.requestKey();
    }
  }

  // A region arriving out of band waits while the player is busy in it.
  function regionArriving(event) {
    const target = event.detail.target;
    if (target && target.matches && target.matches("[data-region]")) {
      if (isBusy(target)) {
        event.detail.shouldSwap = false;
        deferred.add(target.id);
      } else {
        deferred.delete(target.id);
        app.beginSwaps();
        app.noteCarried(target);
      }
    }
  }

  // After a stream event: versions of forms, and the address a reopened stream would use.
  function streamMessage() {
    refreshVersions();
    refreshStreamUrl();
  }

  // Regions held back while the user typed or had a dialog open: fetch them once the user is
  // done (the stream already counts them as sent, so it is reopened with what the page shows).
  function catchUpHeldBack() {
    if (!deferred.size) return;
    if (app.streamReady) reopenStream();
    else pollNow();
  }
  function catchUpWhenFree() {
    const busy = Array.from(deferred).some((id) => {
      const region = document.getElementById(id);
      return region && isBusy(region);
    });
    if (!busy) catchUpHeldBack();
  }
  function leftField(event) {
    const region = event.target.closest && event.target.closest("[data-region]");
    if (region && deferred.has(region.id)) window.setTimeout(() => { if (!isBusy(region)) catchUpHeldBack(); }, 0);
  }
  function dialogClosed(event) {
    if (event.target.matches && event.target.matches("dialog")) window.setTimeout(catchUpHeldBack, 0);
  }
  function menuToggled(event) {
    if (event.target.matches && event.target.matches("details") && !event.target.open) window.setTimeout(catchUpHeldBack, 0);
  }

  // An answer came: the versions the page's forms carry, and what the poll was told.
  function answered(event) {
    const m = app.meta();
    refreshVersions();
    refreshStreamUrl();
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (event.detail.xhr.status === 409 && form && m) {
      const input = form.querySelector("input[data-live-version]");
      if (input) input.value = m.dataset.stateVersion;
    }
    if (event.detail.xhr.status === 404 && event.detail.elt.matches("[data-poll]")) {
      app.showNotice(app.text("gone"));
    }
  }

  // A phone waking up asks at once instead of waiting for the next tick (its stream may
  // have died in its sleep; the browser reopens it by itself).
  function shown() {
    if (document.visibilityState === "visible" && !app.streamReady) pollNow();
  }

  Object.assign(app, { pollNow, catchUpWhenFree, configure, restPoll, configRequest, regionArriving,
                       streamMessage, leftField, dialogClosed, menuToggled, answered, shown });
})();
