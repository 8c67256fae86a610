// Taps made without a connection. A move tapped while the server cannot be reached waits on
// this phone with the version it was made against and its Idempotency-Key, and is sent when
// the connection is back. If the first try did arrive and only its answer was lost, the server
// knows the key and records nothing again; if the table moved on meanwhile it refuses the tap
// (409, as any stale tap). Waiting taps survive a reload of the page (sessionStorage), not the
// closing of the tab. The banner shows while the server cannot be reached.
(function () {
  "use strict";
  const app = window.companion;
  const UNSENT_KEY = "companion-unsent:" + location.pathname;
  const WAITING = () => app.text("waiting");
  let unsent = readUnsent();
  let sending = false;

  // The banner pushes the page down, so the page is kept still around it.
  function showBanner(shown) {
    const banner = document.getElementById("connection");
    if (banner && banner.hidden === shown) app.keepStill(() => { banner.hidden = !shown; });
  }
  function online() {
    showBanner(false);
    sendUnsent();
  }

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
      count.textContent = unsent.length === 1 ? app.text("waitsOne")
        : unsent.length ? app.text("waitsMany", { n: unsent.length }) : "";
    }
  }

  function holdUnsent(event) {
    const config = event.detail.requestConfig;
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (!config || !form || String(config.verb).toLowerCase() !== "post") return;
    if (!form.querySelector("input[data-live-version]")) {
      // Without the version it was made against it could land on a table that moved on.
      app.say(form, app.text("notSent"), "refused");
      return;
    }
    // A form redrawn while its tap was on the way: its place as it was when it was sent.
    const place = form.isConnected ? app.whereIs(form) : form.companionPlace;
    unsent.push({
      path: config.path,
      key: (config.headers && config.headers["Idempotency-Key"]) || app.requestKey(),
      fields: Array.from(config.formData.entries()).filter(([name]) => name !== "have"),
      form: place && { el: place.el, region: place.region, steps: place.steps },
      // A request that timed out, or was answered "too busy" or "server away" (502-504), may
      // have arrived (then its key makes the server record it once): only its answer is lost.
      mayHaveArrived: event.type !== "htmx:sendError",
    });
    keepUnsent();
    app.say(form.isConnected ? form : formOf(unsent[unsent.length - 1]), WAITING(), "waiting");
  }

  // No answer (htmx:sendError, htmx:timeout) or an error answer (htmx:responseError): the
  // banner while the server is away, and a move that may not have arrived waits here.
  function requestFailed(event) {
    const answered = event.type === "htmx:responseError";
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!answered || status >= 500) showBanner(true);
    if (!answered || serverAway(status)) holdUnsent(event);
  }

  // The answer to a tap may come after its form was redrawn (the stream brought the change,
  // or another phone's, first): htmx then tells the form no longer on the page, and its
  // events reach none of the listeners. Such a tap's failure is caught on its request.
  function watchTap(event) {
    const { elt, xhr, requestConfig } = event.detail;
    const form = elt && elt.closest && elt.closest("form");
    if (!form || !xhr || !requestConfig || String(requestConfig.verb).toLowerCase() !== "post") return;
    form.companionPlace = app.whereIs(form);
    form.companionSent = Object.fromEntries(new FormData(form));
    const failed = (type) => {
      if (!form.isConnected) holdUnsent({ type, detail: { elt: form, requestConfig } });
    };
    xhr.addEventListener("error", () => failed("htmx:sendError"));
    xhr.addEventListener("timeout", () => failed("htmx:timeout"));
    xhr.addEventListener("load", () => { if (serverAway(xhr.status)) failed("htmx:responseError"); });
  }

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
    const found = tap.form && app.findAgain(tap.form);
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
        if (app.streamReady) headers["X-Live-Stream"] = "open";
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
          app.say(form, app.text("notAgain"), "refused");
        } else if (sentence) app.say(form, app.text("notDone", { sentence }), "refused");
        else app.say(form, app.text("refused", { status: answer.status }), "refused");
      }
    } finally {
      sending = false;
      if (!app.streamReady) app.pollNow();
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
      app.say(form, app.text("sent"), "sent");
    }
    if (!unsent.length) {
      // A form redrawn past recognition still showed the waiting note: it is sent too.
      document.querySelectorAll('.form-error[data-kind="waiting"]').forEach((line) => {
        line.textContent = app.text("sent");
        line.dataset.kind = "sent";
      });
    }
    window.setTimeout(app.catchUpWhenFree, 0);
  }

  // Until the connection is back, every few seconds (the browser's "online" may never come:
  // the Wi-Fi was there all along and the server was not).
  window.setInterval(() => { if (unsent.length) sendUnsent(); }, 4000);

  // Taps left waiting before a reload say so again on their forms, and go out.
  function restore() {
    if (!unsent.length) return;
    keepUnsent();
    unsent.forEach((tap) => { const form = formOf(tap); if (form) app.say(form, WAITING(), "waiting"); });
    sendUnsent();
  }

  Object.assign(app, { online, sendUnsent, requestFailed, watchTap, asSent, restore });
})();
