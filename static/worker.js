// The companion's service worker, registered by static/offline.js where the page is a secure
// context (HTTPS, or the host's laptop at localhost). It keeps this phone's copy of the home
// page and of each table page it opened, as the page last showed them (the page sends it),
// and the versioned scripts, styles and icons they load. A page asked for while the server
// cannot be reached is answered with its copy, marked data-offline-copy on <html>; app/unsent.js
// keeps the taps made there and sends them when the connection is back.
//
// One cache per release: the page registers this file with ?release=<hash of every script
// and style sheet and of this file>, so a new release installs a new worker, whose
// activation deletes the caches of the ones before. Everything else (taps, the live stream,
// the poll, the API) goes past the worker to the network, as without it.
"use strict";

const RELEASE = new URL(location.href).searchParams.get("release") || "";
const CACHE = "companion-" + RELEASE;
const STATIC = new URL("./", location.href).pathname;  // this file's folder: the static files
const PAGES_KEPT = 30;
// A page whose server has not answered by then is shown from its copy (the Wi-Fi is up but
// leads nowhere); without a copy the phone goes on waiting for the network.
const WAIT_MS = 10000;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("companion-") && name !== CACHE) await caches.delete(name);
    }
    // The page's request starts while the worker wakes up, not after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// A page of ours, as it shows now, and the files it loads (static/offline.js sends them).
// One after the other, and a page asked for meanwhile waits for them: a phone reloading the
// page sends its copy as it leaves, and the reload must find that copy, not none.
let keeping = Promise.resolve();
self.addEventListener("message", (event) => {
  const kept = event.data || {};
  if (typeof kept.page !== "string" || typeof kept.html !== "string" || !ours(kept.page)) return;
  keeping = keeping.then(() => keep(kept.page, kept.html, Array.isArray(kept.files) ? kept.files : []))
    .catch(() => undefined);
  event.waitUntil(keeping);
});

async function keep(page, html, files) {
  const cache = await caches.open(CACHE);
  await cache.put(page, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
  // The page's files are in the browser's cache already (it just loaded them): no download.
  await Promise.all(files.filter(versioned).map(async (file) => {
    if (!(await cache.match(file))) await cache.add(file).catch(() => undefined);
  }));
  // The newest pages stay (the cache lists its entries in the order they were put).
  const pages = (await cache.keys()).filter((request) => !versioned(request.url));
  await Promise.all(pages.slice(0, -PAGES_KEPT).map((request) => cache.delete(request)));
}

function ours(url) {
  return new URL(url, location.href).origin === location.origin;
}

// A static file whose address carries its version (?v=): its content never changes.
function versioned(url) {
  const address = new URL(url, location.href);
  return ours(url) && address.pathname.startsWith(STATIC) && address.searchParams.has("v");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && ours(request.url)) event.respondWith(page(event));
  else if (versioned(request.url)) event.respondWith(file(request));
});

async function file(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

// The network first; its copy when the network fails, the server is away behind its proxy
// (502 to 504), or nothing came within WAIT_MS.
async function page(event) {
  const network = (async () => (await event.preloadResponse) || fetch(event.request))();
  event.waitUntil(network.catch(() => undefined));
  const answer = await Promise.race([network.catch(() => null),
    new Promise((resolve) => setTimeout(resolve, WAIT_MS, null))]);
  if (answer && (answer.status < 502 || answer.status > 504)) return answer;
  await keeping;
  const copy = await (await caches.open(CACHE)).match(event.request.url);
  if (!copy) return network;
  const html = (await copy.text()).replace("<html", "<html data-offline-copy");
  return new Response(html, { headers: copy.headers });
}
