/* Both pages without the network (docs/WEB.md, "Offline"): the service worker registered (sw.js, beside the
 * pages), the banner while the network or the server is away, and "Keep for offline": a table fetched whole
 * into the worker's cache, its size said before and its progress while it comes.
 *
 * A table read by ranges while the network is away answers from what the worker kept; a part kept nowhere is
 * an Unreachable error (lib/remote.js), which the pages give to `unreachable`: the banner says so, and a
 * question asked again once the network is back is answered. */

import { el } from "./ui.js";
import { Unreachable, keptParts, megabytes, readLog } from "./remote.js";

// sw.js's names: its caches, a range's key in BLOCKS, and how a table's version is read
const KEPT = "shutthebox-kept";
const BLOCKS = "shutthebox-blocks";
const MARK = /[?&]shutthebox-range=(\d+)-(\d+)&size=(\d+)&version=([^&]*)$/;
const versionOf = (response) => response.headers.get("X-ShutTheBox-Version") || response.headers.get("Last-Modified") ||
  (response.headers.get("ETag") || "").replace(/-gzip"$/, '"');
const PROBE_MS = 3000; // while the server cannot be reached but the network is up: how often it is asked again
let banner = null;
let probing = null;
const onBack = [];

/** Register sw.js (where a browser has service workers: https, or http://127.0.0.1 and localhost). Once it
 * controls the page, the ranges read before are asked again through it, so that it keeps them too; then
 * `<html data-worker="ready">`. */
export function register() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext || !("caches" in window)) {
    readLog.ranges = null;
    return;
  }
  keptParts.find = partsKept;
  keptParts.keep = keepRead;
  const ready = async () => {
    const ranges = readLog.ranges || [];
    readLog.ranges = null; // read through the worker from now on
    await Promise.all(ranges.map(([url, start, end]) => fetch(url, { headers: { Range: `bytes=${start}-${end - 1}` },
      cache: "no-store" }).then((response) => response.arrayBuffer(), () => null)));
    document.documentElement.dataset.worker = "ready";
  };
  if (navigator.serviceWorker.controller) ready();
  else navigator.serviceWorker.addEventListener("controllerchange", ready, { once: true });
  navigator.serviceWorker.register("sw.js").catch((error) => console.warn(`No offline use: sw.js (${error.message})`));
}

/** A synchronous request's range (it bypassed the worker), sent to the worker to be kept as if it had passed. */
function keepRead(url, start, bytes, request) {
  const worker = navigator.serviceWorker.controller, range = /\/(\d+)$/.exec(request.getResponseHeader("Content-Range") || "");
  if (!worker || !range || request.status !== 206 || !bytes.length) return;
  const headers = { get: (name) => request.getResponseHeader(name) };
  const copy = bytes.slice().buffer; // the page keeps its own bytes; the copy is handed over
  worker.postMessage({ kind: "range", url: new URL(url, location.href).href, start, end: start + bytes.length - 1,
    size: Number(range[1]), version: versionOf({ headers }), bytes: copy }, [copy]);
}

/** The banner (role=status, before #status): shown while the browser is offline or a table cannot be reached. */
export function watch() {
  banner = el("div", { id: "offline", class: "notice offline", role: "status", hidden: true });
  document.getElementById("status").before(banner);
  window.addEventListener("offline", () => show());
  window.addEventListener("online", back);
  window.addEventListener("unhandledrejection", (event) => { // an async question the network left unanswered
    if (!(event.reason instanceof Unreachable)) return;
    event.preventDefault();
    unreachable(event.reason);
  });
  if (!navigator.onLine) show();
}

function show(detail = "") {
  if (!banner) return;
  const away = navigator.onLine ? "The server cannot be reached" : "Offline";
  banner.textContent = `${away}: answers from kept tables only (the parts read before, and tables kept for offline).` +
    (detail ? ` ${detail}` : "");
  banner.hidden = false;
  if (navigator.onLine && !probing) probing = setInterval(probe, PROBE_MS);
}

/** The server answers again (a HEAD, which the worker leaves to the network): the banner goes. */
function probe() {
  fetch(location.pathname, { method: "HEAD", cache: "no-store" }).then(back, () => {});
}

function back() {
  clearInterval(probing);
  probing = null;
  if (banner) banner.hidden = true;
  for (const again of onBack.splice(0)) again();
}

/** A table could not be reached (an Unreachable error): the banner says what was not answered. */
export function unreachable(error) {
  show(`This asks for a part of ${error.table} not kept here: ask again once the network is back.`);
}

/** `error` an Unreachable: `again()` once the network is back, and the error thrown on (the banner says it).
 * Any other error: thrown on. */
export function retryWhenBack(error, again) {
  if (error instanceof Unreachable) onBack.push(again);
  throw error;
}

/** `again()` once the network is back. */
export const whenBack = (again) => { onBack.push(again); };

/** The page could not start for want of the network: it starts again once the network is back. */
export function failedAtLoad(error) {
  if (!(error instanceof Unreachable)) return;
  show();
  onBack.push(() => location.reload());
}

/** The parts of the table at `url` the worker kept, of the version `response` (its first range) is: the whole
 * file kept for offline, else the ranges read before. -> [[start, bytes]] */
async function partsKept(url, response) {
  const key = keyOf(url), version = versionOf(response);
  const whole = await (await caches.open(KEPT)).match(key);
  if (whole && versionOf(whole) === version) return [[0, new Uint8Array(await whole.arrayBuffer())]];
  const cache = await caches.open(BLOCKS);
  const mine = (await cache.keys()).map((request) => [request, MARK.exec(request.url)])
    .filter(([request, m]) => m && request.url.slice(0, m.index) === key && decodeURIComponent(m[4]) === version);
  return Promise.all(mine.map(async ([request, m]) => [Number(m[1]), new Uint8Array(await (await cache.match(request)).arrayBuffer())]));
}

// -- "Keep for offline"

/** The absolute URL a table is kept under (the worker's key). */
const keyOf = (url) => new URL(url, location.href).href.split("#")[0];

/** Is every table of `list` ([{ url }]) kept whole? */
async function kept(list) {
  const cache = await caches.open(KEPT);
  return (await Promise.all(list.map((t) => cache.match(keyOf(t.url))))).every(Boolean);
}

/** A table's size in bytes: `known`, else its server's word (a range's total, or the whole file's length). */
async function sizeOf(url, known) {
  if (Number.isFinite(known)) return known;
  const response = await fetch(url, { headers: { Range: "bytes=0-0" }, cache: "no-store" });
  await response.body?.cancel();
  const total = /\/(\d+)$/.exec(response.headers.get("Content-Range") || "");
  return total ? Number(total[1]) : Number(response.headers.get("Content-Length")) || 0;
}

/** Fetch `url` whole into KEPT, `progress(bytes)` as they come: a 200 kept under its URL, with its version as
 * the worker reads it (so that a table replaced on the server is dropped, not mixed with the new one). */
async function keepOne(url, progress) {
  const response = await fetch(url, { cache: "no-cache" });
  if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
  const version = versionOf(response);
  const [counted, stored] = response.body.tee();
  const put = caches.open(KEPT).then((cache) => cache.put(keyOf(url), new Response(stored, {
    headers: { "Content-Type": "application/vnd.msgpack", "X-ShutTheBox-Version": version } })));
  const reader = counted.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    progress(value.length);
  }
  await put;
}

/**
 * The "Keep for offline" control in `box`: `targets()` -> the tables shown ([{ url, name, size }]). ->
 * { refresh() }: say again what would be kept (after the tables shown change). Hidden where the browser
 * keeps nothing (no service worker, or not a secure context).
 */
export function keepControl(box, targets) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext || !("caches" in window)) return { refresh() {} };
  const button = el("button", { type: "button", id: "keep-offline", class: "small" }, "Keep for offline");
  const text = el("span", { id: "keep-text" });
  const bar = el("progress", { id: "keep-progress", max: "1", value: "0", "aria-labelledby": "keep-text", hidden: true });
  box.replaceChildren(button, " ", text, " ", bar);
  let list = [], busy = false, shown = 0;
  const names = () => list.map((t) => t.name).join(" and ");

  async function refresh() {
    if (busy) return;
    const asked = ++shown;
    list = targets().filter(Boolean).map((t) => ({ url: t.url, name: t.name || t.url, size: t.size }));
    box.hidden = !list.length;
    if (!list.length) return;
    try {
      const have = await kept(list);
      const found = await Promise.all(list.map((t) => sizeOf(t.url, t.size)));
      if (asked !== shown) return; // the tables shown changed meanwhile
      list.forEach((t, i) => { t.size = found[i]; });
      if (have) say(`${names()}: kept on this device, ${megabytes(sizes())}; the game works without the network.`, "Remove");
      else say(`${names()}, ${megabytes(sizes())}: fetched whole and kept on this device, the game then works without the network.`, "Keep for offline");
    } catch (error) {
      if (asked === shown) say(`${names()}: its size cannot be had now (${error.message}).`, "Keep for offline");
    }
  }
  const sizes = () => list.reduce((n, t) => n + (t.size || 0), 0);
  function say(words, action) {
    text.textContent = words;
    button.textContent = action;
    button.dataset.action = action === "Remove" ? "remove" : "keep";
  }

  button.addEventListener("click", async () => {
    if (busy) return;
    if (button.dataset.action === "remove") {
      const cache = await caches.open(KEPT);
      await Promise.all(list.map((t) => cache.delete(keyOf(t.url))));
      refresh();
      return;
    }
    busy = true;
    button.setAttribute("aria-disabled", "true");
    const total = sizes();
    let done = 0;
    const progress = (n) => {
      done += n;
      text.textContent = `Keeping ${names()}: ${megabytes(done)} of ${megabytes(total)}…`;
      if (total) bar.value = Math.min(1, done / total);
    };
    bar.hidden = false;
    progress(0);
    try {
      for (const t of list) await keepOne(t.url, progress);
      busy = false;
      await refresh();
    } catch (error) {
      busy = false;
      say(`${names()} could not be kept (${error.message}).`, "Keep for offline");
    } finally {
      bar.hidden = true;
      button.removeAttribute("aria-disabled");
    }
  });
  refresh();
  return { refresh };
}
