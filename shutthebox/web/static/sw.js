/* The pages' service worker (docs/WEB.md, "Offline"): it keeps the pages, their modules and the parts of the
 * tables read, so that a game goes on without the network.
 *
 * - The pages' files (FILES: static/ but this file) are kept at install, in a cache named by VERSION (the
 *   package's version and a digest of the files, which `ShutTheBox serve` and `--export` write below), and
 *   answered from it first: a new version is a new worker, which drops the caches of the old one. As it lies
 *   in static/ (served by another server) it is unversioned: the network first, the copy when it fails.
 * - games.json: the network first.
 * - Tables (*.msgpack): the network first, always (a table may be solved again or replaced). Each range that
 *   comes is kept (BLOCKS); with the network down, a range is cut from the table kept whole ("Keep for
 *   offline": KEPT, written by lib/offline.js) or joined from the ranges kept, and a range kept nowhere fails
 *   as it would without this worker. The Cache API keeps no 206, so a range is kept as a 200 under its own
 *   key: the table's URL, the range, the file's size and version (Last-Modified, else ETag). A table whose
 *   version changed loses what was kept of the old one. The ranges kept hold at most BLOCKS_LIMIT bytes, the
 *   least recently read dropped first (a table kept whole is the player's choice, and not counted); a page's
 *   last visit online keeps what it read, its header included, as the newest.
 * - /solve/, other methods, other origins: not touched.
 */

const VERSION = "unversioned";
const FILES = [];

const BASE = new URL("./", self.location).href; // the pages' folder, this worker's scope
const PAGES = `shutthebox-pages ${BASE} `; // + VERSION: one per folder of pages, so two copies on one host keep theirs
const BLOCKS = "shutthebox-blocks";
const KEPT = "shutthebox-kept"; // lib/offline.js's name too
const MARK = /[?&]shutthebox-range=(\d+)-(\d+)&size=(\d+)&version=([^&]*)$/;
// A phone's storage is not ours to fill: a whole game of Goat reads under 2 MB, a browsing session of every
// game's Coach a few; 32 MB keeps several sessions' blocks.
const BLOCKS_LIMIT = 32 * 2 ** 20;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES + VERSION);
    await cache.addAll(FILES.map((file) => new Request(new URL(file, BASE), { cache: "no-cache" })));
    await self.skipWaiting(); // an upgrade takes over at the next load, not once every tab is closed
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(PAGES) && name !== PAGES + VERSION) await caches.delete(name);
    await self.clients.claim(); // the page that installed it is served from now on (lib/offline.js asks again what it read before)
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  url.hash = "";
  if (url.pathname.startsWith(new URL("solve/", BASE).pathname)) return; // a solve's state, never kept
  if (url.pathname.endsWith(".msgpack")) event.respondWith(table(event, request, url.href));
  else if (!url.href.startsWith(BASE)) return;
  else if (url.pathname.endsWith("/games.json") || VERSION === "unversioned") event.respondWith(networkFirst(event, request));
  else event.respondWith(cacheFirst(event, request));
});

/** A page's key: its file, without the link's parameters; the folder's own URL is index.html. */
function pageKey(request) {
  const url = new URL(request.url);
  url.search = url.hash = "";
  return url.href.endsWith("/") ? `${url.href}index.html` : url.href;
}

async function cacheFirst(event, request) {
  const cache = await caches.open(PAGES + VERSION);
  const kept = await cache.match(pageKey(request));
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200 && !response.redirected) event.waitUntil(cache.put(pageKey(request), response.clone()));
  return response;
}

async function networkFirst(event, request) {
  const cache = await caches.open(PAGES + VERSION);
  try {
    const response = await fetch(request);
    if (response.status === 200 && !response.redirected) event.waitUntil(cache.put(pageKey(request), response.clone()));
    return response;
  } catch (error) {
    const kept = await cache.match(pageKey(request));
    if (kept) return kept;
    throw error;
  }
}

// -- tables

/** A table's version as its server names it: the same for a range and for the whole file, gzipped or not (a
 * copy kept says it in VERSION_HEADER). lib/offline.js reads it alike. */
const VERSION_HEADER = "X-ShutTheBox-Version";
const versionOf = (response) => response.headers.get(VERSION_HEADER) || response.headers.get("Last-Modified") ||
  (response.headers.get("ETag") || "").replace(/-gzip"$/, '"');

async function table(event, request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await fromKept(url, request.headers.get("Range"));
    if (kept) return kept;
    throw error;
  }
  if (response.status === 200 || response.status === 206) {
    event.waitUntil(remember(url, response.clone(), request.headers.has("Range")).catch(() => {})); // a full disk keeps nothing, and says nothing
  }
  return response;
}

let index = null; // a promise of: table URL -> { version, size, pieces: [{ start, end, key }] } of BLOCKS
// Every piece kept, least recently read first ([url, piece]; after a restart, in the order they were put), and their bytes.
const stored = { order: [], bytes: 0 };

function blocks() {
  index ??= (async () => {
    const found = new Map();
    for (const request of await (await caches.open(BLOCKS)).keys()) { // in the order they were put
      const m = MARK.exec(request.url);
      if (!m) continue;
      const url = request.url.slice(0, m.index), piece = { start: Number(m[1]), end: Number(m[2]), key: request.url };
      piecesOf(found, url, decodeURIComponent(m[4]), Number(m[3])).push(piece);
      stored.order.push([url, piece]);
      stored.bytes += piece.end + 1 - piece.start;
    }
    return found;
  })();
  return index;
}

/** Drop the oldest pieces kept until they hold at most BLOCKS_LIMIT bytes (the newest always stays). */
async function trim(found) {
  const cache = await caches.open(BLOCKS);
  while (stored.bytes > BLOCKS_LIMIT && stored.order.length > 1) {
    const [url, piece] = stored.order.shift();
    stored.bytes -= piece.end + 1 - piece.start;
    const pieces = found.get(url)?.pieces ?? [];
    if (pieces.includes(piece)) pieces.splice(pieces.indexOf(piece), 1);
    await cache.delete(piece.key);
  }
}

/** A piece read again: now the newest, here and in the cache (a put goes last in its keys' order, which is
 * what a restarted worker reads back). */
async function touch(piece) {
  const at = stored.order.findIndex(([, p]) => p === piece);
  if (at < 0 || at === stored.order.length - 1) return;
  stored.order.push(...stored.order.splice(at, 1));
  const cache = await caches.open(BLOCKS);
  const kept = await cache.match(piece.key);
  if (kept) await cache.put(piece.key, kept);
}

/** Forget the pieces of a table whose version changed (they are deleted from the cache by the caller). */
function forget(url) {
  const others = [];
  for (const [at, piece] of stored.order) {
    if (at === url) stored.bytes -= piece.end + 1 - piece.start;
    else others.push([at, piece]);
  }
  stored.order = others;
}

function piecesOf(found, url, version, size) {
  if (!found.has(url)) found.set(url, { version, size, pieces: [] });
  return found.get(url).pieces;
}

/** Keep a range that came (206), or the whole file sent for a range (`ranged`); drop what was kept of another
 * version of the table. */
async function remember(url, response, ranged) {
  const version = versionOf(response);
  await dropOthers(url, version);
  if (response.status === 200 && ranged) { // a host that refuses ranges sent it whole: kept whole
    const headers = { "Content-Type": "application/vnd.msgpack", [VERSION_HEADER]: version };
    await (await caches.open(KEPT)).put(url, new Response(await response.blob(), { headers }));
    return;
  }
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("Content-Range") || "");
  if (response.status !== 206 || !m) return;
  const [start, end, size] = m.slice(1).map(Number);
  await keepPiece(url, version, start, end, size, () => response.arrayBuffer());
}

/** What was kept of `url` in another version than `version`: dropped. */
async function dropOthers(url, version) {
  const found = await blocks();
  const had = found.get(url);
  if (had && had.version !== version) {
    found.delete(url);
    forget(url);
    const cache = await caches.open(BLOCKS);
    await Promise.all(had.pieces.map((piece) => cache.delete(piece.key)));
  }
  const whole = await (await caches.open(KEPT)).match(url);
  if (whole && whole.headers.get(VERSION_HEADER) !== version) await (await caches.open(KEPT)).delete(url);
}

/** Keep bytes `start`..`end` of `url` (`size` bytes, `version`), unless a piece kept holds them already;
 * `read()`: a promise of the bytes, asked only when they are to be kept. */
async function keepPiece(url, version, start, end, size, read) {
  const found = await blocks();
  const pieces = piecesOf(found, url, version, size);
  const covering = pieces.find((p) => p.start <= start && end <= p.end);
  if (covering) { await touch(covering); return; }
  const bytes = await read();
  if (bytes.byteLength !== end + 1 - start) return;
  const key = `${url}${url.includes("?") ? "&" : "?"}shutthebox-range=${start}-${end}&size=${size}&version=${encodeURIComponent(version)}`;
  await (await caches.open(BLOCKS)).put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  const piece = { start, end, key };
  pieces.push(piece);
  stored.order.push([url, piece]);
  stored.bytes += end + 1 - start;
  await trim(found);
}

// A page's synchronous requests (the games read their arrays synchronously) never reach this worker: the page
// sends what they brought (lib/offline.js), to be kept as the ranges fetched through it are.
self.addEventListener("message", (event) => {
  const got = event.data, origin = self.location.origin;
  if (!got || got.kind !== "range" || !(got.bytes instanceof ArrayBuffer) || typeof got.version !== "string") return;
  const url = new URL(String(got.url), BASE);
  const [start, end, size] = [got.start, got.end, got.size].map(Number);
  if (url.origin !== origin || !url.pathname.endsWith(".msgpack") || url.hash || !(Number.isSafeInteger(start) &&
      Number.isSafeInteger(end) && Number.isSafeInteger(size) && 0 <= start && start <= end && end < size)) return;
  event.waitUntil((async () => {
    await dropOthers(url.href, got.version);
    await keepPiece(url.href, got.version, start, end, size, async () => got.bytes);
  })().catch(() => {}));
});

/** The answer to a request for `url` (`range`: its Range header, or null) from what is kept, or null. */
async function fromKept(url, range) {
  const whole = await (await caches.open(KEPT)).match(url);
  if (whole && !range) return whole;
  const asked = /^bytes=(\d*)-(\d*)$/.exec((range || "").replace(/\s/g, ""));
  if (!asked || (asked[1] === "" && asked[2] === "")) return null;
  if (whole) {
    const body = await whole.blob();
    const [start, end] = span(asked, body.size);
    return start > end ? null : partial(body.slice(start, end + 1), start, end, body.size, whole.headers.get(VERSION_HEADER));
  }
  const entry = (await blocks()).get(url);
  if (!entry) return null;
  const [start, end] = span(asked, entry.size);
  const parts = [];
  for (let at = start; at <= end;) { // the pieces covering start..end, each reaching furthest
    const piece = entry.pieces.filter((p) => p.start <= at && at <= p.end).sort((a, b) => b.end - a.end)[0];
    if (!piece) return null;
    parts.push([piece, at, Math.min(end, piece.end)]);
    at = Math.min(end, piece.end) + 1;
  }
  const cache = await caches.open(BLOCKS);
  const bytes = [];
  for (const [piece, from, to] of parts) {
    await touch(piece);
    const kept = await cache.match(piece.key);
    if (!kept) return null; // the browser evicted it
    bytes.push((await kept.arrayBuffer()).slice(from - piece.start, to + 1 - piece.start));
  }
  return start > end ? null : partial(new Blob(bytes), start, end, entry.size, entry.version);
}

/** [first, last] of a range `bytes=A-B`, `A-` or `-N` in a file of `size` bytes (first > last: none). */
function span([, a, b], size) {
  if (a === "") return [Math.max(0, size - Number(b)), size - 1];
  return [Number(a), b === "" ? size - 1 : Math.min(Number(b), size - 1)];
}

function partial(body, start, end, size, version) {
  return new Response(body, { status: 206, headers: { "Content-Type": "application/vnd.msgpack",
    "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(end + 1 - start), [VERSION_HEADER]: version } });
}
