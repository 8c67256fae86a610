// Every listener of the parts before (core.js says which part does what): one per event, and
// where several parts answer the same event, they are called here in this order.
(function () {
  "use strict";
  const app = window.companion;
  const on = (name, listener, capture) => document.addEventListener(name, listener, capture);

  on("DOMContentLoaded", () => {
    app.configure();
    app.restore();
    app.setUpAwake();
    app.localTimes(document);
  });
  // Before anything else hears of a tap: what the player touched (still.js).
  on("click", app.noteTap, true);
  on("click", app.clicked);
  on("submit", app.fillToken, true);
  on("focusout", app.leftField);
  // Neither bubbles: heard on their way down.
  on("close", app.dialogClosed, true);
  on("toggle", app.menuToggled, true);
  on("visibilitychange", () => {
    app.shown();
    app.awakeShown();
  });
  window.addEventListener("online", app.sendUnsent);

  on("htmx:confirm", app.confirmUndo);
  on("htmx:beforeRequest", (event) => {
    app.restPoll(event);
    app.watchTap(event);
  });
  on("htmx:configRequest", app.configRequest);
  // The answer to a tap (its sentence for the form) and the poll's regions come this way.
  on("htmx:beforeSwap", (event) => { if (event.detail.shouldSwap) app.beginSwaps(); });
  on("htmx:sseBeforeMessage", app.beginSwaps);
  on("htmx:oobBeforeSwap", app.regionArriving);
  on("htmx:sseMessage", app.streamMessage);
  on("htmx:afterSwap", (event) => {
    app.refusalSwapped(event);
    app.followRematch();
  });
  on("htmx:oobAfterSwap", (event) => {
    app.localTimes(event.detail.target || document);
    app.followRematch();
  });
  on("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0) return;
    app.online();
    app.answered(event);
    app.answeredForm(event);
  });
  on("htmx:sendError", app.requestFailed);
  on("htmx:timeout", app.requestFailed);
  on("htmx:responseError", app.requestFailed);
})();
