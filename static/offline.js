// The app over HTTPS: where the page is a secure context (HTTPS, or the host's laptop at
// localhost) it registers the service worker (static/worker.js) and hands it the page as it
// shows now, whenever the table changes and when the phone leaves the page, so that a reload
// without the network shows the table as this phone last saw it. Such a copy says so in the
// offline banner until the connection is back; app/unsent.js keeps and sends the taps made on it.
// Over plain HTTP (a phone on the table's Wi-Fi) browsers allow no worker: nothing here runs.
(function () {
  "use strict";
  const worker = document.querySelector('meta[name="offline-worker"]');
  if (!worker || !window.isSecureContext || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(worker.content, { scope: worker.dataset.scope }).catch(() => undefined);
  // The scripts the page came with; one added later (a helper loaded on demand) is not kept.
  const ownScripts = new Set(Array.from(document.scripts, (script) => script.src));

  // The page as the server would send it again: what this phone's scripts set up on top
  // (styles set by script, which the policy forbids as attributes; open dialogs; sentences on
  // forms; the banners; htmx's passing classes) goes, and they set it up again on the copy.
  function pageNow() {
    const copy = document.documentElement.cloneNode(true);
    copy.removeAttribute("data-offline-copy");
    copy.querySelectorAll("[style]").forEach((el) => el.removeAttribute("style"));
    copy.querySelectorAll("dialog[open]").forEach((el) => el.removeAttribute("open"));
    copy.querySelectorAll(".form-error, #notice, #unsent-count").forEach((el) => { el.textContent = ""; });
    copy.querySelectorAll("#connection, #awake-note, #offline-copy").forEach((el) => { el.hidden = true; });
    copy.querySelectorAll("script").forEach((el) => { if (!ownScripts.has(el.src)) el.remove(); });
    copy.querySelectorAll('[class*="htmx-"]').forEach((el) => {
      el.classList.remove(...Array.from(el.classList).filter((name) => name.startsWith("htmx-")));
    });
    // A region held back while its player typed shows an older copy than the version says:
    // opened from the copy, the stream compares every region's hash instead.
    const live = copy.querySelector("#live-meta");
    if (live) live.dataset.version = "-1";
    return "<!doctype html>\n" + copy.outerHTML;
  }

  function filesNow() {
    return Array.from(document.querySelectorAll("script[src], link[href], img[src]"),
      (el) => el.src || el.href);
  }

  let keeping = 0;
  function keepSoon() {
    if (!worker.hasAttribute("data-keep")) return;
    window.clearTimeout(keeping);
    keeping = window.setTimeout(keepNow, 300);
  }
  function keepNow() {
    window.clearTimeout(keeping);
    if (!worker.hasAttribute("data-keep")) return;
    const kept = { page: location.href.split("#")[0], html: pageNow(), files: filesNow() };
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) registration.active.postMessage(kept);
    });
  }
  window.addEventListener("load", keepSoon);
  document.addEventListener("htmx:sseMessage", keepSoon);
  document.addEventListener("htmx:afterSettle", keepSoon);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") keepNow();
  });

  // A copy opened without the network: the banner says so until the connection is back
  // (app/unsent.js hides the banner then, and the line goes with it for good).
  document.addEventListener("DOMContentLoaded", () => {
    const banner = document.getElementById("connection");
    const line = document.getElementById("offline-copy");
    if (!document.documentElement.hasAttribute("data-offline-copy") || !banner || !line) return;
    line.hidden = false;
    banner.hidden = false;
    const back = new MutationObserver(() => {
      if (!banner.hidden) return;
      line.hidden = true;
      back.disconnect();
    });
    back.observe(banner, { attributes: true, attributeFilter: ["hidden"] });
  });
})();
