/* A table read by HTTP ranges, the way a map client reads a PMTiles archive (docs/FORMAT.md section 4:
 * the header checksum, then each block's): the file's first bytes, more only if the header is longer;
 * then the array descriptors (one round of ranges, their places foreseen from the arrays the page
 * asks for); then only the blocks a question reads (each array's `block_size`: 8 KiB in the shipped
 * tables), each verified by its CRC-32 when it comes and kept. A host that refuses ranges (a 200 with
 * the whole body) gets today's whole-file read, its size and progress said while it comes.
 *
 *   const opened = await openRemote(url, { name, arrays });    // lib/format.js's openTable, by ranges
 *   const t = readOpened(opened, options);                    // t.arrays.NAME[i] as before
 *
 * Reading an element of a block not fetched yet: in a browser, a synchronous request for that block (the
 * games read their arrays synchronously; `prefetch` fetches ahead without waiting); where there is no
 * synchronous request (Node.js), a BlockMissing error that `settle` catches: it fetches the block and runs
 * the question again, until it is answered from verified blocks alone.
 *
 * Nothing the host does is trusted: no more is read than a range asked, or than a whole file's declared size
 * (Content-Length, which it must declare); any other answer is a TableError in one line, and so is one later
 * than `timeout`.
 */

import {
  CRC_TAIL, DTYPES, EndsEarly, TableError, blockCrc, checkHeaderCrc, checkStart, crc32, damaged, decoderOf,
  headerOf, keyAt, layoutOf, mapAt, openTable, readOpened, skipValue, typed,
} from "./format.js";

const FIRST = 4096; // bytes asked first: the header (a few hundred bytes in every table) and often the first descriptor
const MOST_HEADER = 1 << 20; // a header longer than this is no table's
const SLACK = 64; // bytes each side of a descriptor's foreseen place (its crc32's width is not known before)
// Foreseen places this close are asked in one request: on a phone each request costs a round trip (150 ms,
// about 30 KB at 1.6 Mbit/s), but the bytes between cost their time too, and requests of one round go
// side by side.
const MERGE = 16384;
// The block size foreseen for a descriptor not read yet (the one our writer writes; the descriptor's own
// is used once read): a wrong guess only moves the foreseen place, and the walk asks again.
const FORESEEN_BLOCK = 8192;
// The ranges after the first bypass the browser's cache: a browser lets one request at a time write a URL's
// cache entry, so concurrent ranges of one file would come one after another (a round trip each). Each
// block is kept for the page's life here instead. (The first range goes through the cache: from a host
// that refuses ranges, a reload then reads the whole file from it; see RangeFile.get.)
const RANGES_CACHE = "no-store";

/** A block not fetched yet, where it cannot be fetched synchronously: `settle` fetches it and asks again. */
export class BlockMissing extends Error {
  constructor(file, key, block) {
    super(`block ${block} of array ${key} of ${file.name} is not fetched yet`);
    Object.assign(this, { name: "BlockMissing", file, key, block });
  }
}

const loadError = (name, url, why, hint) => new TableError(`The table ${name} could not be loaded: ${url} (${why}).` + hint);

/** The network failed (offline, or the server stopped), not the table: the page says so and goes on (lib/offline.js). */
export class Unreachable extends TableError {
  constructor(name, error) {
    super(`The table ${name} cannot be reached: the network or its server is down (${error.message}).`);
    Object.assign(this, { name: "Unreachable", table: name });
  }
}

/** Every range read, [url, start, end), while `ranges` is a list: lib/offline.js asks them again through the
 * service worker once it controls the page, so that what was read before it did is kept for offline use too. */
export const readLog = { ranges: [] };

/** `find(url, firstResponse)`, set by lib/offline.js: a promise of the parts of the table kept on this device,
 * [[start, bytes]], of the version the first range came from. They are read from memory like the parts
 * fetched: a browser's synchronous request bypasses the service worker, so with the network away a block
 * kept must be here before a question reads it (each is still checked by its CRC-32 when read). For the same
 * reason `keep(url, start, bytes, request)` hands what a synchronous request brought to the worker. */
export const keptParts = { find: null, keep: null };

/** A size as the pages say it: 11.6 MB. */
export const megabytes = (n) => `${(n / 1e6).toFixed(1)} MB`;

/** The Content-Length `response` declares (of the bytes it sends as they are, not encoded), or null. */
function declaredLength(response) {
  const encoding = response.headers.get("Content-Encoding");
  const text = (response.headers.get("Content-Length") || "").trim();
  return (!encoding || encoding === "identity") && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** The bytes of `response`, with `progress({ done, total })` as they come; never more than `most + 1`: the
 * reading stops once they are more than `most` (the caller refuses such a body). */
async function bodyOf(response, most, progress = null) {
  if (most < 0) return new Uint8Array(0);
  const total = declaredLength(response) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer()).subarray(0, most + 1);
  progress?.({ done: 0, total });
  const reader = response.body.getReader();
  const parts = [];
  let done = 0;
  while (done <= most) {
    const { done: end, value } = await reader.read();
    if (end) break;
    parts.push(value);
    done += value.length;
    progress?.({ done, total });
  }
  if (done > most) reader.cancel().catch(() => {}); // a body longer than asked: the rest is not read
  const bytes = new Uint8Array(Math.min(done, most + 1));
  let at = 0;
  for (const part of parts) {
    bytes.set(part.subarray(0, bytes.length - at), at);
    at += Math.min(part.length, bytes.length - at);
  }
  return bytes;
}

/**
 * One request to `host` ({ url, name, fetcher, timeout, longer }), read by `read(response, body)` (`await
 * body(most, progress)`: its bytes, at most `most + 1`), all within `host.timeout` seconds when it is set:
 * from asking to the last byte, however slowly the bytes come. -> what `read` returns. A request that
 * fails is Unreachable; one that takes longer, or a body longer than asked, is dropped at once.
 */
async function request(host, init, read) {
  const stop = new AbortController();
  let late = false;
  const timer = host.timeout ? setTimeout(() => { late = true; stop.abort(); }, host.timeout * 1000) : null;
  try {
    const response = await host.fetcher(host.url, { ...init, signal: stop.signal });
    return await read(response, (most, progress) => bodyOf(response, most, progress));
  } catch (error) {
    if (late) {
      const longer = host.longer ? `; ${host.longer}` : "";
      throw loadError(host.name, host.url, `no whole answer within ${host.timeout} s${longer}`, host.hint || "");
    }
    if (error instanceof TableError) throw error;
    // Node.js says why a fetch failed: the network ("connect ECONNREFUSED ...", a system error's code), or
    // an answer that is no HTTP (a garbage status, a redirect loop, a body shorter than declared)
    const cause = error.cause;
    if (!cause || /^(E[A-Z]+|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(cause.code || "")) {
      throw new Unreachable(host.name, { message: (cause && (cause.message || cause.code)) || error.message });
    }
    throw loadError(host.name, host.url, cause.message || cause.code || error.message, host.hint || "");
  } finally {
    clearTimeout(timer);
    stop.abort(); // an answer refused or read in part: its connection dropped (no-op once read whole)
  }
}

/** The parts of a file fetched so far: ranges of bytes, found by offset. */
class Chunks {
  constructor() { this.list = []; }
  add(start, bytes) { this.list.push({ start, bytes }); }
  /** bytes[start, end) when one chunk holds them, else null. */
  get(start, end) {
    for (const c of this.list) if (c.start <= start && end <= c.start + c.bytes.length) return c.bytes.subarray(start - c.start, end - c.start);
    return null;
  }
  /** The chunk holding `start` (its bytes from there on), else null. */
  from(start) {
    for (const c of this.list) if (c.start <= start && start < c.start + c.bytes.length) return c.bytes.subarray(start - c.start);
    return null;
  }
}

/**
 * One file read by ranges: `get(start, end)` (a promise of the bytes), `getSync` (null where no
 * synchronous request exists), the chunks fetched, the count of bytes and requests.
 */
class RangeFile {
  constructor(url, name, size, hint, fetcher, { timeout = 0, longer = "" } = {}) {
    Object.assign(this, { url, name, size, hint, fetcher, timeout, longer, chunks: new Chunks(), fetched: 0, requests: 0,
      arrays: new Map(), recording: null, cache: RANGES_CACHE });
  }

  refused(why) { return loadError(this.name, this.url, why, this.hint); }

  check(status, range, length, start, end) {
    if (status !== 206) throw this.refused(`HTTP ${status} for the bytes ${start}-${end - 1}, not 206`);
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range || "");
    if (!m || Number(m[1]) !== start || Number(m[2]) !== end - 1 || length !== end - start || (m[3] !== "*" && Number(m[3]) !== this.size)) {
      throw this.refused(`the server sent other bytes than ${start}-${end - 1} (the file changed?)`);
    }
  }

  /** bytes[start, end) of the file from `response` (read by `body`: see `request`), a 206 of just those bytes: one that
   * declares more is refused unread, one that sends more is dropped once it has. */
  async bytesOf(response, body, start, end) {
    const asked = end - start;
    const declared = declaredLength(response);
    if (response.status === 206 && declared !== null && declared > asked) {
      throw this.refused(`the server sends ${declared} bytes for the ${asked} asked`);
    }
    const bytes = await body(response.status === 206 ? asked : -1); // any other answer is refused unread
    if (bytes.length > asked) throw this.refused(`the server sent more than the ${asked} bytes asked`);
    this.check(response.status, response.headers.get("Content-Range"), bytes.length, start, end);
    return bytes;
  }

  /** bytes[start, end) of the file; `keep`: kept for the descriptors' walk (a block's bytes are kept typed, by its array). */
  async get(start, end, keep = true) {
    end = Math.min(end, this.size); // a damaged descriptor may point past the end: the walk says "truncated"
    if (start >= end) return new Uint8Array(0);
    const known = this.chunks.get(start, end);
    if (known) return known;
    const ask = (cache) => request(this, { headers: { Range: `bytes=${start}-${end - 1}` }, cache }, (response, body) =>
      // A host that sends whole files, whose first range the browser's cache answered (it held the whole
      // file, a reload's): the rest come from that cache too, never the whole file again for each.
      (response.status === 200 && cache === RANGES_CACHE ? null : this.bytesOf(response, body, start, end)));
    let bytes = await ask(this.cache);
    if (bytes === null) {
      this.cache = "no-cache";
      bytes = await ask(this.cache);
    }
    this.count(start, bytes, keep);
    return bytes;
  }

  getSync(start, end) {
    const known = this.chunks.get(start, end);
    if (known) return known;
    const request = new XMLHttpRequest();
    request.open("GET", this.url, false); // synchronous: the games read their arrays synchronously
    request.setRequestHeader("Range", `bytes=${start}-${end - 1}`);
    request.overrideMimeType("text/plain; charset=x-user-defined"); // each byte as one character
    try {
      request.send();
    } catch (error) {
      throw new Unreachable(this.name, error);
    }
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    this.check(request.status, request.getResponseHeader("Content-Range"), bytes.length, start, end);
    this.count(start, bytes, false);
    keptParts.keep?.(this.url, start, bytes, request);
    return bytes;
  }

  count(start, bytes, keep = true) {
    if (keep) this.chunks.add(start, bytes);
    readLog.ranges?.push([this.url, start, start + bytes.length]);
    this.fetched += bytes.length;
    this.requests += 1;
  }

  get sync() { return typeof XMLHttpRequest === "function"; }
}

// -- the array descriptors (FORMAT.md section 5), read from a window of the file

/** The msgpack value at `at` as a descriptor field: a string, an int, an array of ints or a bin. -> [value, end]. */
function fieldAt(bytes, at, name) {
  const b = bytes[at];
  const early = () => new EndsEarly(`The table ${name} cannot be decoded (an array descriptor ends early)`);
  const need = (k) => { if (at + k > bytes.length) throw early(); };
  const uint = (k, from) => { need(from + k); let v = 0; for (let i = 0; i < k; i++) v = v * 256 + bytes[at + from + i]; return v; };
  if (b === undefined) throw early();
  if (b <= 0x7f) return [b, at + 1];
  if (b >= 0xa0 && b <= 0xbf) { need(1 + (b & 0x1f)); return [String.fromCharCode(...bytes.subarray(at + 1, at + 1 + (b & 0x1f))), at + 1 + (b & 0x1f)]; }
  if (b >= 0x90 && b <= 0x9f) {
    const list = [];
    let p = at + 1;
    for (let i = 0; i < (b & 0x0f); i++) { const [v, next] = fieldAt(bytes, p, name); list.push(v); p = next; }
    return [list, p];
  }
  const ints = { 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8 };
  if (b in ints) return [uint(ints[b], 1), at + 1 + ints[b]];
  const bins = { 0xc4: 1, 0xc5: 2, 0xc6: 4 };
  if (b in bins) {
    const size = uint(bins[b], 1), from = at + 1 + bins[b];
    return [{ bin: from, length: size }, from + size];
  }
  return [undefined, skipValue(bytes, at, name)];
}

/**
 * The descriptor that starts at `bytes[0]` (the file's offset `offset`): its key, its fields, where its
 * data is. EndsEarly when the window ends before the data's first byte.
 */
function descriptorAt(bytes, offset, name) {
  const [key, at0] = keyAt(bytes, 0, name);
  const [count, start] = mapAt(bytes, at0);
  if (count < 0) throw damaged(name, `cannot be decoded (the array ${key} is not a map)`);
  const d = { key };
  let at = start;
  for (let i = 0; i < count; i++) {
    const [field, after] = keyAt(bytes, at, name);
    if (field === "data") {
      const b = bytes[after], sizes = { 0xc4: 1, 0xc5: 2, 0xc6: 4 };
      if (!(b in sizes)) throw damaged(name, `has an array ${key} whose data is not bytes`);
      if (after + 1 + sizes[b] > bytes.length) throw new EndsEarly(`The table ${name}: descriptor ends early`);
      let length = 0;
      for (let j = 0; j < sizes[b]; j++) length = length * 256 + bytes[after + 1 + j];
      d.dataAt = offset + after + 1 + sizes[b];
      d.length = length;
      d.next = d.dataAt + length;
      if (i !== count - 1) throw damaged(name, `has an array ${key} whose data is not its descriptor's last key`);
      return d;
    }
    const [value, end] = fieldAt(bytes, after, name);
    d[field] = value && typeof value === "object" && "bin" in value ? bytes.slice(value.bin, value.bin + value.length) : value;
    at = end;
  }
  throw damaged(name, `has an array ${key} without data`);
}

/** The bytes an array's descriptor takes before its data, as foreseen from its dtype and shape (its crc32 as 5 bytes). */
function foreseen(key, dtype, shape) {
  const intSize = (v) => (v < 128 ? 1 : v < 256 ? 2 : v < 65536 ? 3 : 5);
  const binHead = (n) => (n < 256 ? 2 : n < 65536 ? 3 : 5);
  const length = shape.reduce((x, y) => x * y, 1) * DTYPES[dtype][1];
  const blocks = 4 * Math.ceil(length / FORESEEN_BLOCK);
  const head = 1 + key.length + 1 + 6 + 1 + dtype.length + 6 + 1 + shape.reduce((n, v) => n + intSize(v), 0) +
    6 + 5 + 11 + intSize(FORESEEN_BLOCK) + 12 + binHead(blocks) + blocks + 5 + binHead(length);
  return { head, length };
}

/**
 * Open the table at `url` by ranges (or whole, where ranges are refused).
 *   options: { name, decode, arrays: { name: [dtype, shape] } the arrays expected (to foresee where their
 *              descriptors are: one round of requests for all), or a function of the header giving them,
 *              hint (added to a load error's words),
 *              progress({ done, total }) (the whole-file read's), fetch (default globalThis.fetch),
 *              endLater (return before the file's end is checked: `ended`, a promise, says it),
 *              timeout (seconds each request may take, from asking to its last byte; 0: no limit),
 *              longer (words added to the refusal of a request that took longer) }
 * -> what lib/format.js's openTable returns, for readOpened; read by ranges, it has `remote` (the
 *    RangeFile: its bytes fetched and requests) and `ended`, and makes lazy arrays. Throws TableError
 *    (with `status` for an HTTP error).
 */
export async function openRemote(url, options = {}) {
  const { name = url, hint = "", progress = null, timeout = 0, longer = "" } = options;
  const host = { url, name, hint, fetcher: options.fetch || globalThis.fetch.bind(globalThis), timeout, longer };
  const decode = decoderOf(options);
  const refused = (why) => loadError(name, url, why, hint);
  // -> { file, first } (read by ranges from here on), or { whole } (no ranges here, or an empty file: a 416)
  const answer = await request(host, { headers: { Range: `bytes=0-${FIRST - 1}` }, cache: "no-cache" }, async (response, body) => {
    if (response.status === 416) return { whole: new Uint8Array(0) };
    if (!response.ok) throw Object.assign(refused(`HTTP ${response.status}`), { status: response.status });
    if (response.status === 206) {
      const total = /\/(\d+)$/.exec(response.headers.get("Content-Range") || "");
      if (!total) throw refused(`the server sent other bytes than 0-${FIRST - 1}`);
      const file = new RangeFile(url, name, Number(total[1]), hint, host.fetcher, host);
      const kept = keptParts.find?.(url, response).catch(() => null); // read below, outside this request's time
      return { file, kept, first: await file.bytesOf(response, body, 0, Math.min(FIRST, file.size)) };
    }
    // No ranges here: the whole file, its size and progress said while it comes, no longer than it says.
    const declared = declaredLength(response);
    if (declared === null) throw refused("the server sends the whole file without its size (Content-Length)");
    const whole = await body(declared, progress);
    if (whole.length !== declared) throw refused(`the server sent ${whole.length} bytes of the ${declared} it declared`);
    return { whole };
  });
  if (answer.whole) return openTable(answer.whole, { name, decode });
  const file = answer.file;
  for (const [start, bytes] of (await answer.kept) || []) file.chunks.add(start, bytes);
  let first = answer.first;
  file.count(0, first);
  // The header: the first bytes, then more while it goes on.
  checkStart(first, name);
  let layout;
  for (;;) {
    try {
      layout = layoutOf(first, name);
      break;
    } catch (error) {
      if (!(error instanceof EndsEarly) || first.length >= Math.min(file.size, MOST_HEADER)) throw error;
      const more = await file.get(first.length, Math.min(file.size, MOST_HEADER, 4 * first.length));
      const joined = new Uint8Array(first.length + more.length);
      joined.set(first);
      joined.set(more, first.length);
      first = joined;
      file.chunks.add(0, first);
    }
  }
  if (layout.headerCrcAt < 0) {
    // Format 1.0: no header checksum, so the whole file's is the only one there is.
    return openTable(await file.get(0, file.size, false), { name, decode });
  }
  checkHeaderCrc(first, layout, name);
  if (layout.keys > 15) throw damaged(name, "has too many header fields");
  // The fields before "arrays", decoded as a map of their own.
  const fields = new Uint8Array(1 + layout.arraysAt - layout.bodyAt);
  fields[0] = 0x80 + layout.keys;
  fields.set(first.subarray(layout.bodyAt, layout.arraysAt), 1);
  let map;
  try {
    map = decode(fields);
  } catch (error) {
    throw damaged(name, `cannot be decoded (${error.message})`);
  }
  const header = headerOf(map, layout, name);
  const seed = crc32(first, 0, layout.arraysAt);
  const expected = typeof options.arrays === "function" ? options.arrays(header) : options.arrays;
  const { descriptors, ended } = await walk(file, first, layout.arraysAt, expected || {});
  ended.catch(() => {}); // awaited below, or by the caller (endLater): never an unhandled rejection meanwhile
  const opened = { name, size: file.size, header, map, arraysAt: layout.arraysAt, seed, descriptors, remote: file, ended };
  opened.lazyArray = (key, d, dtype, count) => lazyArray(file, key, d, dtype, count, seed);
  if (!options.endLater) await ended;
  return opened;
}

/** Every array descriptor, and the check of the file's end: { descriptors: { key: descriptor }, ended: a
 * promise, rejected with the reason when the file does not end where its last array does }. The places of the
 * expected descriptors and of the end are foreseen and asked for at once; the walk then reads each
 * descriptor where the one before it ends, asking again only where foreseen wrong. It does not wait for
 * the end (most often a request of its own), so that the first blocks can be asked for beside it. */
async function walk(file, first, arraysAt, expected) {
  const name = file.name;
  const [key, afterKey] = keyAt(first, arraysAt, name);
  if (key !== "arrays") throw damaged(name, "has no arrays");
  const [count, start] = mapAt(first, afterKey);
  if (count < 0) throw damaged(name, "cannot be decoded (its arrays are not a map)");
  // Foreseen: each expected descriptor after the one before, in the order the page lists them.
  const windows = [];
  let at = start;
  for (const [k, [dtype, shape]] of Object.entries(expected)) {
    const { head, length } = foreseen(k, dtype, shape);
    if (at > first.length) windows.push([Math.max(at - SLACK * (windows.length + 1), 0), Math.min(at + head + SLACK, file.size)]);
    at += head + length;
  }
  const tail = file.size - CRC_TAIL.length - 4;
  windows.push([Math.max(tail, 0), file.size, true]); // the 11 bytes every file ends with
  const merged = [];
  for (const [s, e, end] of windows.sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && s - last[1] <= MERGE) Object.assign(last, { 1: Math.max(last[1], e), 2: last[2] || !end });
    else merged.push([s, e, !end]);
  }
  // waited for: the windows holding a descriptor (an error is the walk's to say, where it reads there)
  const fetches = merged.map(([s, e, wanted]) => [wanted, file.get(s, e).catch(() => null)]);
  await Promise.all(fetches.filter(([wanted]) => wanted).map(([, fetching]) => fetching));
  const out = {};
  at = start;
  for (let i = 0; i < count; i++) {
    let window = file.chunks.from(at);
    let size = 1024;
    for (;;) {
      try {
        const d = descriptorAt(window || new Uint8Array(0), at, name);
        if (d.next > tail) throw damaged(name, `is truncated (its array ${d.key} ends early)`);
        out[d.key] = d;
        at = d.next;
        break;
      } catch (error) {
        if (!(error instanceof EndsEarly)) throw error;
        if (at + (window ? window.length : 0) >= file.size) throw damaged(name, "is truncated (an array descriptor ends early)");
        size = Math.max(size, 2 * (window ? window.length : 0));
        window = await file.get(at, Math.min(file.size, at + size));
      }
    }
  }
  if (at !== tail) throw damaged(name, "is truncated (no checksum at its end)");
  const ended = Promise.all(fetches.map(([, fetching]) => fetching)).then(async () => {
    const end = await file.get(Math.max(tail, 0), file.size);
    if (CRC_TAIL.some((b, i) => end[i] !== b)) throw damaged(name, "is truncated (no checksum at its end)");
  });
  return { descriptors: out, ended };
}

/** An array read block by block: `array[i]` and `length` as a typed array's; each block verified when it comes. */
function lazyArray(file, key, d, dtype, count, seed) {
  const [, size] = DTYPES[dtype];
  const bytesPer = d.block_size; // checked by checkSums before the array is made
  const perBlock = bytesPer / size;
  const blocks = new Map(); // block -> its elements (a typed array)
  const pending = new Map(); // block -> the promise of its fetch, while it comes
  const checks = [];
  const range = (b) => [d.dataAt + b * bytesPer, d.dataAt + Math.min((b + 1) * bytesPer, d.length)];
  const keep = (b, bytes) => {
    if (crc32(bytes, 0, bytes.length, seed) !== blockCrc(d, b)) {
      throw damaged(file.name, `is damaged (checksum mismatch in array ${key}, block ${b})`);
    }
    const values = typed(bytes, dtype);
    for (const check of checks) check(values, b * perBlock);
    blocks.set(b, values);
    return values;
  };
  const zeros = new (DTYPES[dtype][0])(perBlock);
  const block = (b) => {
    const had = blocks.get(b);
    if (had) return had;
    if (file.recording) { // a dry run (warm, prefetch): what is missing is noted, and the answer thrown away
      file.recording.set(`${key}/${b}`, [key, b]);
      return zeros;
    }
    if (!file.sync) throw new BlockMissing(file, key, b);
    return keep(b, file.getSync(...range(b)));
  };
  const control = {
    key, count, blocks,
    /** Of blocks `list`, those neither kept nor coming, once each, in their order. */
    wanted: (list) => [...new Set(list)].filter((b) => b >= 0 && b * perBlock < count && !blocks.has(b) && !pending.has(b)),
    /** Fetch blocks `list` (not waited for by any reader): adjacent ones in one request; those already
     * coming are waited for, not asked again. */
    async fetch(list) {
      const coming = [...new Set(list)].filter((b) => pending.has(b)).map((b) => pending.get(b));
      const runs = [];
      for (const b of control.wanted(list).sort((x, y) => x - y)) {
        const last = runs[runs.length - 1];
        if (last && last[1] === b) last[1] = b + 1;
        else runs.push([b, b + 1]);
      }
      const fetching = runs.map(async ([from, to]) => {
        const bytes = await file.get(range(from)[0], range(to - 1)[1], false);
        for (let b = from; b < to; b++) {
          if (!blocks.has(b)) keep(b, bytes.subarray((b - from) * bytesPer, range(b)[1] - range(from)[0]));
        }
      });
      runs.forEach(([from, to], i) => {
        const done = fetching[i].finally(() => { for (let b = from; b < to; b++) pending.delete(b); });
        done.catch(() => {}); // its error is the fetch's caller's (below)
        for (let b = from; b < to; b++) pending.set(b, done);
      });
      await Promise.all([...fetching, ...coming]);
    },
    blockOf: (i) => Math.floor(i / perBlock),
    /** `check(values, first)` on every block, as it comes (a game's impossible values). */
    check(fn) {
      checks.push(fn);
      for (const [b, values] of blocks) fn(values, b * perBlock);
    },
  };
  const array = new Proxy(control, {
    get(target, prop) {
      if (typeof prop === "string") {
        const c = prop.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          const i = Number(prop);
          if (Number.isInteger(i) && i < count) {
            const b = Math.floor(i / perBlock);
            return block(b)[i - b * perBlock];
          }
          return undefined;
        }
        if (prop === "length") return count;
      }
      return target[prop];
    },
  });
  file.arrays.set(key, array);
  return array;
}

/** The control of a lazy array (fetch, blockOf, check), or null for a whole typed array. */
export const remoteOf = (array) => (array && !ArrayBuffer.isView(array) && typeof array.blockOf === "function" ? array : null);

/** The blocks `ask(table)` reads that are not fetched yet: [[array key, block]], each once, in the order
 * read. `ask` runs on those blocks as if they held zeros (its answer and errors are thrown away), asked of a
 * stand-in for `table` with the same arrays, so that no cache of the game's (keyed by its table) keeps
 * what was read from zeros. */
function dryRun(file, table, ask) {
  const missing = new Map();
  file.recording = missing;
  try {
    ask({ ...table, arrays: { ...table.arrays } });
  } catch {
    // an answer from zeros may be refused: only the blocks it asked for matter
  } finally {
    file.recording = null;
  }
  return [...missing.values()];
}

/** Fetch blocks `list` ([[array key, block]]) of `file`, each array's in one call. */
function fetchBlocks(file, list) {
  const byKey = new Map();
  for (const [key, block] of list) byKey.set(key, [...(byKey.get(key) || []), block]);
  return Promise.all([...byKey].map(([key, blocks]) => file.arrays.get(key).fetch(blocks)));
}

/**
 * Fetch, all at once, the blocks `ask(table)` reads (a page's first question, before the page asks it),
 * so that the page then answers with no request of its own: found by a dry run (above), fetched, and
 * found again until it reads nothing new (a few rounds: an index may depend on a value read). A damaged
 * block is refused here. No-op for a table read whole.
 */
export async function warm(table, ask, rounds = 4) {
  const file = table.remote?.remote;
  if (!file) return;
  for (let round = 0; round < rounds; round++) {
    const missing = dryRun(file, table, ask);
    if (!missing.length) return;
    await fetchBlocks(file, missing);
  }
}

/**
 * Fetch ahead, without waiting, the blocks `ask(table)` reads (in a game, the decisions it will likely meet
 * next), at most `most` of them, the first read first: found by one dry run (above), so that a question
 * then reading them asks nothing while the player waits. Blocks already coming are not asked again.
 * Never rejected: a block that cannot be had, or is damaged, is asked again and refused when a question
 * reads it. No-op for a table read whole. -> a promise of the count of blocks asked for.
 */
export function prefetch(table, ask, most = 16) {
  const file = table.remote?.remote;
  if (!file) return Promise.resolve(0);
  const list = dryRun(file, table, ask).filter(([key, block]) => file.arrays.get(key).wanted([block]).length).slice(0, most);
  return fetchBlocks(file, list).then(() => list.length, () => list.length);
}

/**
 * `ask()` answered from verified blocks alone: where a block is missing (no synchronous request), it is
 * fetched and `ask` runs again. -> ask's result (or its error, once no block is missing).
 */
export async function settle(ask, rounds = 10000) {
  for (let round = 0; round < rounds; round++) {
    try {
      return ask();
    } catch (error) {
      if (!(error instanceof BlockMissing)) throw error;
      await error.file.arrays.get(error.key).fetch([error.block]);
    }
  }
  throw new TableError("too many blocks asked for one question");
}

/**
 * Fetch and read a table (openRemote, then lib/format.js's readOpened); a TableError (with the HTTP status) if it
 * cannot be had. `first(table)`: the page's first question, whose blocks are fetched before (warm), beside
 * the check of the file's end (whose refusal comes first).
 */
export async function fetchTable(url, options, hint = "", progress = null, first = null) {
  const opened = await openRemote(url, { ...options, hint, progress, endLater: true });
  const ended = opened.ended || Promise.resolve();
  let table;
  try {
    table = readOpened(opened, options);
  } catch (error) {
    await ended;
    throw error;
  }
  const [end, warmed] = await Promise.allSettled([ended, first ? warm(table, first) : null]);
  if (end.status === "rejected") throw end.reason;
  if (warmed.status === "rejected") throw warmed.reason;
  return table;
}
