// Keeping the screen on. A phone lying on the table should not go dark mid-game. The switch in
// the top bar holds a screen wake lock where the browser has one (a secure page: https, or this
// very computer). Elsewhere (the table's Wi-Fi over plain HTTP, older phones) NoSleep.js plays a
// silent video in a loop, which the browser starts only from a tap. Either ends when the page
// is hidden and is taken again when it shows (the video at the next tap, where the browser
// wants one). The choice is remembered on this phone; a line under the top bar says in words
// what is still needed, or why this phone cannot keep its screen on.
(function () {
  "use strict";
  const app = window.companion;
  const AWAKE_KEY = "companion-keep-awake";
  const nativeLock = "wakeLock" in navigator;
  let wakeLock = null;
  let noSleep = null;  // NoSleep.js, loaded where there is no wake lock
  let noSleepAsked = false;
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
    awakeNote = app.text("awakeTap");
    if (tapArmed) return;
    tapArmed = true;
    document.addEventListener("click", function again() {
      document.removeEventListener("click", again, true);
      tapArmed = false;
      if (wantAwake() && !awakeHeld()) holdAwake(true);
    }, true);
  }

  function cannotAwake(reason) {
    awakeNote = app.text("awakeRefused", { reason: reason });
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
      if (noSleepFailed) cannotAwake(app.text("awakeNoScript"));
      else tappedWhileLoading = tappedWhileLoading || byTap;
    } else if (!noSleep.noSleepVideo) {
      // NoSleep.js's way for iOS before 10 reloads the page now and then: not here.
      cannotAwake(app.text("awakeOld"));
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

  // NoSleep.js comes from this server, once, to a phone without a wake lock that keeps its
  // screen on: as the page comes up where that is its remembered choice, else with the tap
  // that turns the switch on (its arrival then starts the video for that tap). The others
  // never download its 6.9 KB.
  function loadNoSleep(button) {
    if (noSleepAsked) return;
    noSleepAsked = true;
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

  function setUpAwake() {
    const button = document.getElementById("keep-awake");
    if (!button) return;
    showAwake();
    if (nativeLock) holdAwake(false);
    else if (wantAwake()) loadNoSleep(button);
    button.addEventListener("click", () => {
      const on = !wantAwake();
      try {
        localStorage.setItem(AWAKE_KEY, on ? "on" : "off");
      } catch (e) { /* kept for this page only */ }
      if (on && !nativeLock) loadNoSleep(button);
      if (on) holdAwake(true);
      else releaseAwake();
      showAwake();
    });
  }

  function awakeShown() {
    if (document.visibilityState === "visible") holdAwake(false);
  }

  Object.assign(app, { setUpAwake, awakeShown });
})();
