// The table companion's small layer over htmx: the live stream and its fallback poll, the
// offline banner and taps kept while offline, keeping half-typed input, open menus and the
// scroll position safe from updates, the screen kept awake, and a few conveniences for forms.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const meta = () => document.getElementById("live-meta");
  const streamElement = () => document.getElementById("live-stream");
  const deferred = new Set();
  // A message on a form (a refusal, the fate of a tap sent late) outlives a redraw of its
  // region for this long, so that another phone's move does not wipe it before it is read.
  const NOTE_KEPT_MS = 30000;

  // The words this script shows, in the phone's language: every page carries them as data
  // attributes of #app-texts (templates/app_texts.html, included by base.html). "{n}",
  // "{status}", "{reason}" and "{sentence}" are filled in.
  function text(key, fields) {
    const holder = document.getElementById("app-texts");
    let words = (holder && holder.dataset[key]) || "";
    Object.keys(fields || {}).forEach((name) => {
      words = words.split("{" + name + "}").join(String(fields[name]));
    });
    return words;
  }

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
      online();
    });
    source.addEventListener("deleted", (event) => {
      source.close();
      showNotice(text("deleted"));
      window.setTimeout(() => { window.location.href = event.data || "/"; }, 1500);
    });
    source.addEventListener("error", () => {
      if (stream === source) streamReady = false;  // the poll takes over until "ready" again
    });
  }

  // Regions the phone's user is busy in: a focused field, an open dialog, a menu marked
  // data-keep-open, or any open menu (<details>, popover) with a choice made in it but not sent.
  // Other open menus do not hold their region back: the region is redrawn and the menu opened
  // again in the new copy (see noteCarried), so the player sees the change and keeps the menu.
  function isBusy(region) {
    const active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, select, textarea, [contenteditable]")) return true;
    if (region.querySelector("dialog[open], details[open][data-keep-open]")) return true;
    return openMenus(region).some(changedFields);
  }

  function openMenus(root) {
    const menus = Array.from(root.querySelectorAll("details[open]"));
    try {
      menus.push(...root.querySelectorAll("[popover]:popover-open"));
    } catch (e) { /* a browser without popovers has none open */ }
    return menus;
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
    } else if (String(event.detail.verb).toLowerCase() === "post") {
      // One key per tap; a retry of the tap sends the same one, and the server records it once.
      event.detail.headers["Idempotency-Key"] = requestKey();
    }
  });

  // 128 random bits as hex (crypto.randomUUID needs a secure page; a LAN address is not one).
  function requestKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.matches && target.matches("[data-region]")) {
      if (isBusy(target)) {
        event.detail.shouldSwap = false;
        deferred.add(target.id);
      } else {
        deferred.delete(target.id);
        beginSwaps();
        noteCarried(target);
      }
    }
  });
  // The answer to a tap (its sentence for the form) and the poll's regions come this way.
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.shouldSwap) beginSwaps();
  });
  document.addEventListener("htmx:sseBeforeMessage", beginSwaps);

  // -- keeping the page still --------------------------------------------------------------
  // htmx redraws a region by putting the new copy in and taking the old one out. The browser's
  // own scroll anchoring (CSS overflow-anchor) had picked its anchor inside the old copy, often
  // the very button tapped, and on losing it scrolled the page by the height of whole regions:
  // hundreds to thousands of pixels. app.css turns that off for the page, and here every batch
  // of swaps keeps what the player looked at in place instead: the control just tapped when it
  // is on screen, else what is at the top (or middle) of the screen, found again in the new
  // copy of its region. Focus, open menus, inner scroll positions and a fresh message on a form
  // are carried over to the new copies too.
  let swaps = null;
  let lastTap = null;
  let pageTap = null;  // the last control tapped outside any dialog (say, the one that opened it)

  // Where an element sits in its region, as steps from the region's root down: enough to find
  // the same control in a new copy of the region, which holds new elements.
  function whereIs(el) {
    if (!el || el === document.body || !el.isConnected) return null;
    const region = el.closest("[data-region]");
    const steps = [];
    for (let node = el; region && node !== region; node = node.parentElement) {
      const key = keyOf(node);
      const siblings = Array.from(node.parentElement.children);
      steps.unshift({ key, tag: node.tagName, nth: siblings.filter((s) => keyOf(s) === key).indexOf(node),
                      index: siblings.indexOf(node), top: node.getBoundingClientRect().top });
    }
    return { el, id: el.id || null, region: region ? region.id : null, steps, top: el.getBoundingClientRect().top,
             regionTop: region ? region.getBoundingClientRect().top : 0 };
  }

  function keyOf(el) {
    let key = el.tagName;
    for (const name of ["id", "name", "data-action", "aria-label", "href", "for", "type"]) {
      const value = el.getAttribute(name);
      if (value !== null) key += "|" + name + "=" + value;
    }
    if (el.tagName === "BUTTON" && el.hasAttribute("value")) key += "|value=" + el.getAttribute("value");
    return key;
  }

  // The element again (itself, or the one in the same place in the region's new copy): whether
  // it is the same control or only the nearest part of the region that is still there, how
  // many steps down that is, and where that part was before.
  function findAgain(place) {
    if (!place) return null;
    if (place.el && place.el.isConnected) return { el: place.el, exact: true, depth: place.steps.length, top: place.top };
    // An element with an id is that element wherever the new copy puts it.
    const same = place.id && document.getElementById(place.id);
    if (same) return { el: same, exact: true, depth: place.steps.length, top: place.top };
    const region = place.region && document.getElementById(place.region);
    if (!region) return null;
    let node = region;
    let exact = true;
    let top = place.regionTop;
    let depth = 0;
    for (const step of place.steps) {
      const children = Array.from(node.children);
      let next = children.filter((c) => keyOf(c) === step.key)[step.nth];
      if (!next) {
        const same = children[step.index];
        if (same && same.tagName === step.tag) {
          next = same;
          exact = false;
        }
      }
      if (!next) return { el: node, exact: false, depth, top };
      node = next;
      top = step.top;
      depth += 1;
    }
    return { el: node, exact, depth, top };
  }

  function onScreen(el) {
    const box = el.getBoundingClientRect();
    return box.height > 0 && box.bottom > topOfScreen() && box.top < window.innerHeight;
  }

  // Below the sticky top bar (and the offline banner when it shows).
  function topOfScreen() {
    let top = 0;
    document.querySelectorAll(".topbar, #connection").forEach((el) => {
      if (!el.hidden && getComputedStyle(el).position === "sticky") top = Math.max(top, el.getBoundingClientRect().bottom);
    });
    return top;
  }

  // What the player looks at, best first: the control just tapped, then what is at the top and
  // in the middle of the screen; never something that does not scroll with the page (inside an
  // open dialog, a sticky or fixed bar).
  function lookedAt() {
    const places = [];
    // A tap inside a dialog does not scroll with the page: keep the control that opened it.
    const tap = lastTap && !scrollsWithPage(lastTap) && pageTap ? pageTap : lastTap;
    if (tap && tap.isConnected && onScreen(tap) && scrollsWithPage(tap)) places.push(tap);
    const top = topOfScreen();
    for (const y of [top + 8, top + 48, (top + window.innerHeight) / 2]) {
      const el = document.elementFromPoint(window.innerWidth / 2, y);
      if (el && el !== document.documentElement && el !== document.body && scrollsWithPage(el)) places.push(el);
    }
    const found = places.map(whereIs);
    if (found[0] && tap && places[0] === tap) found[0].tapped = true;
    return found.filter(Boolean);
  }

  function scrollsWithPage(el) {
    if (el.closest("dialog")) return false;
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === "fixed" || position === "sticky") return false;
    }
    return true;
  }

  function beginSwaps() {
    if (swaps) return;
    const active = document.activeElement;
    swaps = {
      looked: lookedAt(),
      focus: active && active !== document.body && active.closest("[data-region]") ? whereIs(active) : null,
      tap: lastTap && lastTap.isConnected ? whereIs(lastTap) : null,
      carried: [],
      reveal: [],
    };
    // htmx swaps a whole answer or stream event in one go: the page is put back right after,
    // before the browser paints.
    queueMicrotask(endSwaps);
  }

  // What the player set up in a region that its new copy would lose.
  function noteCarried(region) {
    if (!swaps) return;
    openMenus(region).forEach((menu) => swaps.carried.push({ place: whereIs(menu), open: true }));
    region.querySelectorAll("*").forEach((el) => {
      if (el.scrollTop || el.scrollLeft) swaps.carried.push({ place: whereIs(el), scrollTop: el.scrollTop, scrollLeft: el.scrollLeft });
    });
    region.querySelectorAll(".form-error[data-said]").forEach((line) => {
      if (Date.now() - Number(line.dataset.said) < NOTE_KEPT_MS && line.textContent.trim()) {
        swaps.carried.push({ place: whereIs(line), note: line.innerHTML, kind: line.dataset.kind || "", said: line.dataset.said });
      }
    });
  }

  function endSwaps() {
    const done = swaps;
    swaps = null;
    if (!done) return;
    done.carried.forEach((item) => {
      const found = findAgain(item.place);
      if (!found || !found.exact || found.el === item.place.el) return;
      const el = found.el;
      if (item.open) {
        if (el.tagName === "DETAILS") el.open = true;
        else if (el.showPopover) try { el.showPopover(); } catch (e) { /* already open */ }
      }
      if (item.scrollTop !== undefined) {
        el.scrollTop = item.scrollTop;
        el.scrollLeft = item.scrollLeft;
      }
      if (item.note !== undefined && !el.textContent.trim()) {
        el.innerHTML = item.note;
        el.dataset.said = item.said;
        if (item.kind) el.dataset.kind = item.kind;
      }
    });
    // The page back where it was: the first thing looked at that is still there, else the
    // deepest part of a region that held one of them.
    let anchor = null;
    for (const place of done.looked) {
      const found = findAgain(place);
      // The tapped control (or its nearest surviving part) wins over what is at the screen's top.
      if (found && (found.exact || (place.tapped && found.depth > 1))) { anchor = found; break; }
      if (found && (!anchor || found.depth > anchor.depth)) anchor = found;
    }
    if (anchor) {
      const moved = anchor.el.getBoundingClientRect().top - anchor.top;
      if (Math.abs(moved) >= 1) window.scrollTo({ top: window.scrollY + moved, behavior: "instant" });
    }
    // The control tapped, when it was redrawn, is the new copy from now on; it had the focus,
    // so its copy gets it back (without scrolling: the page is where it should be).
    const tapped = done.tap && findAgain(done.tap);
    if (tapped && tapped.exact) lastTap = tapped.el;
    if (done.focus && !done.focus.el.isConnected) {
      const focus = findAgain(done.focus);
      const active = document.activeElement;
      if (focus && focus.exact && (!active || active === document.body) && focusable(focus.el)) {
        focus.el.focus({ preventScroll: true });
      }
    }
    done.reveal.forEach(reveal);
  }

  function focusable(el) {
    return el.matches("a[href], button, input, select, textarea, summary, [tabindex]") && !el.disabled &&
      !el.closest("fieldset[disabled], [hidden]");
  }

  // Changes app.js makes itself outside of a swap (the banner, a message on a form) keep the
  // page still the same way.
  function keepStill(change) {
    beginSwaps();
    change();
  }

  document.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("button, a, summary, label, input, select, [role=button]");
    if (control) lastTap = control;
    if (control && scrollsWithPage(control)) pageTap = control;
  }, true);

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
  function catchUpWhenFree() {
    const busy = Array.from(deferred).some((id) => {
      const region = document.getElementById(id);
      return region && isBusy(region);
    });
    if (!busy) catchUpHeldBack();
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
    if (!xhr || xhr.status === 0) return;
    online();
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
      // Fields listed in data-clear-on-success start empty for the next entry, unless the
      // player already typed that entry (the stream can show the change before this answer).
      (form.dataset.clearOnSuccess || "").split(" ").filter(Boolean).forEach((name) => {
        if (form.elements[name] && asSent(form, name)) form.elements[name].value = "";
      });
      // A choice made in an open menu held its region back; once sent, it is no longer the
      // player's unsent work, and the region (with the menu open again) can catch up.
      if (!dialog && openMenus(document).some((menu) => menu.contains(form))) {
        form.reset();
        window.setTimeout(catchUpWhenFree, 0);
      }
    }
    if (xhr.status === 404 && event.detail.elt.matches("[data-poll]")) {
      showNotice(text("gone"));
    }
  });

  // The banner shows while the server cannot be reached; it pushes the page down, so the page
  // is kept still around it.
  function showBanner(shown) {
    const banner = document.getElementById("connection");
    if (banner && banner.hidden === shown) keepStill(() => { banner.hidden = !shown; });
  }
  function offline() {
    showBanner(true);
  }
  function online() {
    showBanner(false);
    sendUnsent();
  }
  document.addEventListener("htmx:sendError", offline);
  document.addEventListener("htmx:timeout", offline);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr && event.detail.xhr.status >= 500) offline();
  });
  window.addEventListener("online", sendUnsent);

  // A notice is news for the whole page (the table is gone, a move with no form of its own):
  // unlike the banner, it is let push the page, so that it shows.
  function showNotice(text) {
    const notice = document.getElementById("notice");
    if (notice) notice.textContent = text;
  }

  // -- a message on the form, where the player looks ------------------------------------------
  // A refusal lands in the form's .form-error (hx-target), right under its submit button. It
  // has to be seen without scrolling: inside a dialog the dialog scrolls to it (the page
  // behind stays), on the page the page moves just enough to show it.
  document.addEventListener("htmx:afterSwap", (event) => {
    const line = event.detail.target;
    if (!line || !line.matches || !line.matches(".form-error")) return;
    if (line.textContent.trim()) {
      line.dataset.said = String(Date.now());
      line.dataset.kind = "refused";
      showLater(line);
    } else {
      delete line.dataset.said;
      delete line.dataset.kind;
    }
  });

  function say(form, text, kind) {
    const line = form && form.querySelector(".form-error");
    if (!line) {
      showNotice(text);
      return;
    }
    keepStill(() => {
      line.textContent = text;
      line.dataset.said = String(Date.now());
      line.dataset.kind = kind;
    });
    showLater(line);
  }

  // After the swaps in progress have put the page back (see endSwaps).
  function showLater(line) {
    if (swaps) swaps.reveal.push(line);
    else reveal(line);
  }

  function reveal(line) {
    if (!line.isConnected) return;
    const box = line.getBoundingClientRect();
    const dialog = line.closest("dialog");
    if (dialog) {
      let scroller = line.parentElement;
      while (scroller && scroller !== dialog && !(scroller.scrollHeight > scroller.clientHeight &&
             /(auto|scroll)/.test(getComputedStyle(scroller).overflowY))) scroller = scroller.parentElement;
      if (!scroller) return;
      const area = scroller.getBoundingClientRect();
      if (box.bottom > area.bottom) scroller.scrollTop += box.bottom - area.bottom + 8;
      else if (box.top < area.top) scroller.scrollTop -= area.top - box.top + 8;
      return;
    }
    const top = topOfScreen();
    // A tap left waiting: its whole form where it fits, never under the offline banner.
    const form = line.dataset.kind === "waiting" && line.closest("form");
    const whole = form && form.getBoundingClientRect();
    if (whole && whole.height > 0 && whole.height <= window.innerHeight - top - 16 && whole.top < top) {
      window.scrollTo({ top: window.scrollY + whole.top - top - 8, behavior: "instant" });
      return;
    }
    let by = 0;
    if (box.bottom > window.innerHeight) by = box.bottom - window.innerHeight + 8;
    else if (box.top < top) by = box.top - top - 8;
    if (by) window.scrollTo({ top: window.scrollY + by, behavior: "instant" });
  }

  // -- taps made without a connection ------------------------------------------------------
  // A move tapped while the server cannot be reached waits on this phone with the version it
  // was made against and its Idempotency-Key, and is sent when the connection is back. If the
  // first try did arrive and only its answer was lost, the server knows the key and records
  // nothing again; if the table moved on meanwhile it refuses the tap (409, as any stale tap).
  // Waiting taps survive a reload of the page (sessionStorage), not the closing of the tab.
  const UNSENT_KEY = "companion-unsent:" + location.pathname;
  const WAITING = () => text("waiting");
  let unsent = readUnsent();
  let sending = false;

  function readUnsent() {
    try {
      return JSON.parse(sessionStorage.getItem(UNSENT_KEY) || "[]");
    } catch (e) {
      return [];
    }
  }
  function keepUnsent() {
    try {
      // The form itself stays in memory: after a reload its place finds it again.
      if (unsent.length) sessionStorage.setItem(UNSENT_KEY, JSON.stringify(unsent, (k, v) => (k === "el" ? undefined : v)));
      else sessionStorage.removeItem(UNSENT_KEY);
    } catch (e) { /* private mode: they wait in memory only */ }
    const count = document.getElementById("unsent-count");
    if (count) {
      count.textContent = unsent.length === 1 ? text("waitsOne")
        : unsent.length ? text("waitsMany", { n: unsent.length }) : "";
    }
  }

  function holdUnsent(event) {
    const config = event.detail.requestConfig;
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (!config || !form || String(config.verb).toLowerCase() !== "post") return;
    if (!form.querySelector("input[data-live-version]")) {
      // Without the version it was made against it could land on a table that moved on.
      say(form, text("notSent"), "refused");
      return;
    }
    // A form redrawn while its tap was on the way: its place as it was when it was sent.
    const place = form.isConnected ? whereIs(form) : form.companionPlace;
    unsent.push({
      path: config.path,
      key: (config.headers && config.headers["Idempotency-Key"]) || requestKey(),
      fields: Array.from(config.formData.entries()).filter(([name]) => name !== "have"),
      form: place && { el: place.el, region: place.region, steps: place.steps },
      // A request that timed out, or was answered "too busy" or "server away" (502-504), may
      // have arrived (then its key makes the server record it once): only its answer is lost.
      mayHaveArrived: event.type !== "htmx:sendError",
    });
    keepUnsent();
    say(form.isConnected ? form : formOf(unsent[unsent.length - 1]), WAITING(), "waiting");
  }
  document.addEventListener("htmx:sendError", holdUnsent);
  document.addEventListener("htmx:timeout", holdUnsent);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr && serverAway(event.detail.xhr.status)) holdUnsent(event);
  });
  // The answer to a tap may come after its form was redrawn (the stream brought the change,
  // or another phone's, first): htmx then tells the form no longer on the page, and its
  // events reach none of the listeners above. Such a tap's failure is caught on its request.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const { elt, xhr, requestConfig } = event.detail;
    const form = elt && elt.closest && elt.closest("form");
    if (!form || !xhr || !requestConfig || String(requestConfig.verb).toLowerCase() !== "post") return;
    form.companionPlace = whereIs(form);
    form.companionSent = Object.fromEntries(new FormData(form));
    const failed = (type) => {
      if (!form.isConnected) holdUnsent({ type, detail: { elt: form, requestConfig } });
    };
    xhr.addEventListener("error", () => failed("htmx:sendError"));
    xhr.addEventListener("timeout", () => failed("htmx:timeout"));
    xhr.addEventListener("load", () => { if (serverAway(xhr.status)) failed("htmx:responseError"); });
  });

  // Whether a field still holds what its form's last request sent.
  function asSent(form, name) {
    const field = form.elements[name];
    return !form.companionSent || !field || field.value === (form.companionSent[name] ?? "");
  }

  // Too busy (503), or a proxy in front saying the server is away or did not answer (502, 504).
  function serverAway(status) {
    return status >= 502 && status <= 504;
  }

  function formOf(tap) {
    const found = tap.form && findAgain(tap.form);
    return found && found.exact ? found.el : null;
  }

  // The sentence of an answer: its text outside the regions that may come with it.
  function sentenceOf(body) {
    const template = document.createElement("template");
    template.innerHTML = body;
    return Array.from(template.content.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join(" ").replace(/\s+/g, " ").trim();
  }

  async function sendUnsent() {
    if (sending || !unsent.length) return;
    sending = true;
    try {
      while (unsent.length) {
        const tap = unsent[0];
        const headers = { "HX-Request": "true" };
        if (tap.key) headers["Idempotency-Key"] = tap.key;  // arrived already? then recorded once
        const token = document.querySelector('meta[name="csrf-token"]');
        if (token) headers["X-CSRFToken"] = token.content;
        // With the stream open the change comes on it; without, the poll below fetches it.
        if (streamReady) headers["X-Live-Stream"] = "open";
        let answer;
        try {
          answer = await fetch(tap.path, { method: "POST", body: new URLSearchParams(tap.fields), headers, credentials: "same-origin" });
        } catch (e) {
          return;  // still no connection: the next try comes with it
        }
        if (serverAway(answer.status)) return;
        showBanner(false);
        unsent.shift();
        keepUnsent();
        const sentence = sentenceOf(await answer.text());
        const form = formOf(tap);
        if (answer.ok) sentAfterAll(form);
        else if (answer.status === 409 && tap.mayHaveArrived) {
          say(form, text("notAgain"), "refused");
        } else if (sentence) say(form, text("notDone", { sentence }), "refused");
        else say(form, text("refused", { status: answer.status }), "refused");
      }
    } finally {
      sending = false;
      if (!streamReady) pollNow();
    }
  }
  // A waiting tap that went out: a short word where "not sent yet" stood, and its fields
  // start empty, so its region (held back while they were filled in) catches up at once.
  function sentAfterAll(form) {
    if (form) {
      form.reset();
      (form.dataset.clearOnSuccess || "").split(" ").filter(Boolean).forEach((name) => {
        if (form.elements[name]) form.elements[name].value = "";
      });
      say(form, text("sent"), "sent");
    }
    if (!unsent.length) {
      // A form redrawn past recognition still showed the waiting note: it is sent too.
      document.querySelectorAll('.form-error[data-kind="waiting"]').forEach((line) => {
        line.textContent = text("sent");
        line.dataset.kind = "sent";
      });
    }
    window.setTimeout(catchUpWhenFree, 0);
  }

  // Until the connection is back, every few seconds (the browser's "online" may never come:
  // the Wi-Fi was there all along and the server was not).
  window.setInterval(() => { if (unsent.length) sendUnsent(); }, 4000);
  document.addEventListener("DOMContentLoaded", () => {
    if (!unsent.length) return;
    keepUnsent();
    unsent.forEach((tap) => { const form = formOf(tap); if (form) say(form, WAITING(), "waiting"); });
    sendUnsent();
  });

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

  // -- taking back another player's move -----------------------------------------------------
  // The undo under the thumb names the move it takes back; when that move is another
  // player's (or the host's), the phone asks once, naming whose it is, before sending.
  let confirmedUndo = null;

  function movedByOther(form) {
    const me = document.querySelector("[data-region=me]");
    const mine = me ? me.dataset.seat || (me.dataset.host ? "" : null) : null;
    return mine === null || form.dataset.moveBy !== mine;
  }

  document.addEventListener("htmx:confirm", (event) => {
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
    const m = meta();
    if (m) dialog.querySelectorAll("input[data-live-version]").forEach((input) => { input.value = m.dataset.stateVersion; });
    dialog.dispatchEvent(new CustomEvent("companion:undo-asked", { bubbles: true }));
    dialog.showModal();
  });

  document.addEventListener("click", (event) => {
    if (!event.target.closest("[data-undo-confirmed]")) return;
    const dialog = document.getElementById("undo-confirm");
    if (dialog) dialog.close();
    if (confirmedUndo) confirmedUndo();
    confirmedUndo = null;
  });

  // -- keeping the screen on ---------------------------------------------------------------
  // A phone lying on the table should not go dark mid-game. The switch in the top bar holds a
  // screen wake lock where the browser has one (a secure page: https, or this very computer).
  // Elsewhere (the table's Wi-Fi over plain HTTP, older phones) NoSleep.js plays a silent video
  // in a loop, which the browser starts only from a tap. Either ends when the page is hidden
  // and is taken again when it shows (the video at the next tap, where the browser wants one).
  // The choice is remembered on this phone; a line under the top bar says in words what is
  // still needed, or why this phone cannot keep its screen on.
  const AWAKE_KEY = "companion-keep-awake";
  const nativeLock = "wakeLock" in navigator;
  let wakeLock = null;
  let noSleep = null;  // NoSleep.js, loaded where there is no wake lock
  let noSleepFailed = false;
  let tappedWhileLoading = false;
  let awakeNote = "";  // what the line under the top bar says ("" when nothing is wrong)
  let tapArmed = false;

  function wantAwake() {
    try {
      return localStorage.getItem(AWAKE_KEY) === "on";
    } catch (e) {
      return false;
    }
  }

  function awakeHeld() {
    if (nativeLock) return !!(wakeLock && !wakeLock.released);
    return !!(noSleep && noSleep.isEnabled && noSleep.noSleepVideo && !noSleep.noSleepVideo.paused);
  }

  function showAwake() {
    const button = document.getElementById("keep-awake");
    const note = document.getElementById("awake-note");
    if (!button) return;
    const on = wantAwake();
    const held = on && awakeHeld();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.classList.toggle("held", held);
    if (note) {
      note.textContent = on && !held ? awakeNote : "";
      note.hidden = !note.textContent;
    }
  }

  // The next tap anywhere on the page starts the video (a browser plays it only from a tap).
  function armForTap() {
    awakeNote = text("awakeTap");
    if (tapArmed) return;
    tapArmed = true;
    document.addEventListener("click", function again() {
      document.removeEventListener("click", again, true);
      tapArmed = false;
      if (wantAwake() && !awakeHeld()) holdAwake(true);
    }, true);
  }

  function cannotAwake(reason) {
    awakeNote = text("awakeRefused", { reason: reason });
  }

  async function holdAwake(byTap) {
    if (!wantAwake() || document.visibilityState !== "visible" || awakeHeld()) {
      showAwake();
      return;
    }
    if (nativeLock) {
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        wakeLock.addEventListener("release", () => showAwake());
        awakeNote = "";
      } catch (e) {
        wakeLock = null;
        cannotAwake(e.message || e.name);
      }
    } else if (!noSleep) {
      // Still loading: its arrival asks again, with this tap if there was one.
      if (noSleepFailed) cannotAwake(text("awakeNoScript"));
      else tappedWhileLoading = tappedWhileLoading || byTap;
    } else if (!noSleep.noSleepVideo) {
      // NoSleep.js's way for iOS before 10 reloads the page now and then: not here.
      cannotAwake(text("awakeOld"));
    } else {
      try {
        await noSleep.enable();
        awakeNote = "";
        noSleep.noSleepVideo.addEventListener("pause", () => showAwake(), { once: true });
      } catch (e) {
        if (e.name === "NotAllowedError" && !byTap) armForTap();
        else cannotAwake(e.message || e.name);
      }
    }
    showAwake();
  }

  function releaseAwake() {
    if (wakeLock) wakeLock.release();
    wakeLock = null;
    if (noSleep && noSleep.isEnabled) noSleep.disable();
    awakeNote = "";
  }

  // NoSleep.js comes from this server, fetched once the page is up where it may be needed.
  function loadNoSleep(button) {
    const script = document.createElement("script");
    script.src = button.dataset.fallback;
    script.addEventListener("load", () => {
      noSleep = new window.NoSleep();
      // Muted: a playing video with sound takes the phone's audio, and the table's music stops.
      if (noSleep.noSleepVideo) {
        noSleep.noSleepVideo.muted = true;
        noSleep.noSleepVideo.setAttribute("muted", "");
      }
      holdAwake(tappedWhileLoading);
    });
    script.addEventListener("error", () => {
      noSleepFailed = true;
      holdAwake(false);
    });
    document.head.appendChild(script);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("keep-awake");
    if (!button) return;
    showAwake();
    if (nativeLock) holdAwake(false);
    else loadNoSleep(button);
    button.addEventListener("click", () => {
      const on = !wantAwake();
      try {
        localStorage.setItem(AWAKE_KEY, on ? "on" : "off");
      } catch (e) { /* kept for this page only */ }
      if (on) holdAwake(true);
      else releaseAwake();
      showAwake();
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") holdAwake(false);
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
  document.addEventListener("DOMContentLoaded", () => localTimes(document));
  // A download written in local time (the group's CSV) is written in the phone's own zone.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-add-time-zone]");
    const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (link && zone) {
      const url = new URL(link.href);
      url.searchParams.set("tz", zone);
      link.href = url.toString();
    }
  });
  document.addEventListener("htmx:oobAfterSwap", (event) => localTimes(event.detail.target || document));

  // The rematch: once someone starts it, #live-meta names where this table's phones go next;
  // every phone follows (each gets its own place there: the same seat, host if host here).
  let following = false;
  function followRematch() {
    const m = meta();
    if (following || !m || !m.dataset.next) return;
    following = true;
    window.setTimeout(() => { window.location.assign(m.dataset.next); }, 600);
  }
  document.addEventListener("htmx:oobAfterSwap", followRematch);
  document.addEventListener("htmx:afterSwap", followRematch);
})();
