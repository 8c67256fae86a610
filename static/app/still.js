// Keeping the page still. htmx redraws a region by putting the new copy in and taking the old
// one out. The browser's own scroll anchoring (CSS overflow-anchor) had picked its anchor
// inside the old copy, often the very button tapped, and on losing it scrolled the page by the
// height of whole regions: hundreds to thousands of pixels. app.css turns that off for the
// page, and here every batch of swaps keeps what the player looked at in place instead: the
// control just tapped when it is on screen, else what is at the top (or middle) of the screen,
// found again in the new copy of its region. Focus, open menus, inner scroll positions and a
// fresh message on a form are carried over to the new copies too.
(function () {
  "use strict";
  const app = window.companion;
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
    app.openMenus(region).forEach((menu) => swaps.carried.push({ place: whereIs(menu), open: true }));
    region.querySelectorAll("*").forEach((el) => {
      if (el.scrollTop || el.scrollLeft) swaps.carried.push({ place: whereIs(el), scrollTop: el.scrollTop, scrollLeft: el.scrollLeft });
    });
    region.querySelectorAll(".form-error[data-said]").forEach((line) => {
      if (Date.now() - Number(line.dataset.said) < app.NOTE_KEPT_MS && line.textContent.trim()) {
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

  // Changes the scripts make themselves outside of a swap (the banner, a message on a form)
  // keep the page still the same way.
  function keepStill(change) {
    beginSwaps();
    change();
  }

  function noteTap(event) {
    const control = event.target.closest && event.target.closest("button, a, summary, label, input, select, [role=button]");
    if (control) lastTap = control;
    if (control && scrollsWithPage(control)) pageTap = control;
  }

  // -- a message on the form, where the player looks ------------------------------------------
  // A refusal lands in the form's .form-error (hx-target), right under its submit button. It
  // has to be seen without scrolling: inside a dialog the dialog scrolls to it (the page
  // behind stays), on the page the page moves just enough to show it.
  function refusalSwapped(event) {
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
  }

  function say(form, words, kind) {
    const line = form && form.querySelector(".form-error");
    if (!line) {
      app.showNotice(words);
      return;
    }
    keepStill(() => {
      line.textContent = words;
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

  Object.assign(app, { whereIs, findAgain, beginSwaps, noteCarried, keepStill, noteTap, refusalSwapped, say });
})();
