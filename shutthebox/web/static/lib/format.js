/* The envelope reader: ShutTheBox table files (docs/FORMAT.md sections 1-5, format 1.x) for
 * every game, written from that document alone, as an ES module. Nothing else: the players'
 * notation and questions are notation.js's, the pages' DOM helpers ui.js's.
 *
 *   import { readTable } from "./lib/format.js";
 *   const t = readTable(bytes, { name: "toggle-c12-s6.msgpack", game: "toggle",
 *                                rules: { cards: 12, sides: 6 },
 *                                arrays: { rolls: ["<f8", [4096]], flip: ["|u1", [4096, 6, 6]] } });
 *   t.arrays.rolls[4095]   // a Float64Array element
 *
 * Checks, in this order (FORMAT.md section 7): the magic bytes at offset 1, the
 * major version (before anything else), the 11 bytes every file ends with, the
 * header CRC-32 (`header_crc32`, before any header field is used), the
 * whole-file CRC-32, then the decoded header: `magic`, `format`, `game` and
 * `rules` exactly as asked (a rules key the page does not know is refused),
 * and for each array asked for: its dtype, shape, byte length, its `crc32` and
 * every `block_crc32`, both seeded with the CRC-32 of the bytes before the key
 * "arrays". Any failure throws a TableError naming the file and what is wrong.
 * Beside the reader: fetching a table's bytes (fetchBytes, fetchTable) and reading each
 * table once (once).
 *
 * The msgpack decoder is the vendored one (vendor/msgpack.min.js, a classic
 * script defining `MessagePack`), used the way shutthebox/table.js uses it: passed in as
 * `decode`, or taken from `globalThis.MessagePack`.
 */

export const MAGIC = "ShutTheBox table";
export const FORMAT_MAJOR = 1;
// An array's `block_size` (format 1.2): a power of two from MIN_BLOCK to MAX_BLOCK (1.1 files: always MAX_BLOCK).
export const MIN_BLOCK = 4096;
export const MAX_BLOCK = 65536;
const REBUILD = "rebuild it with `make tables`";

export const DTYPES = {
  "<f8": [Float64Array, 8], "<f4": [Float32Array, 4], "<u4": [Uint32Array, 4], "<i4": [Int32Array, 4],
  "<u2": [Uint16Array, 2], "<i2": [Int16Array, 2], "|u1": [Uint8Array, 1],
};

/** The table is missing, damaged, of another game or rule set, or of an unknown version: never answer from it. */
export class TableError extends Error {
  constructor(message) { super(message); this.name = "TableError"; }
}

// -- CRC-32 (zlib's: polynomial 0x04C11DB7 reflected, initial value and final xor ~0)

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of bytes[start, end), continued from the CRC-32 value `seed` (zlib's crc32(data, seed)). */
export function crc32(bytes, start = 0, end = bytes.length, seed = 0) {
  let crc = (seed ^ 0xffffffff) >>> 0;
  const t = CRC_TABLE;
  for (let i = start; i < end; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// -- helpers

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const ascii = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, end));
const codes = (text) => Array.from(text, (c) => c.charCodeAt(0));
const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const uint32At = (b, at) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
export const damaged = (name, what) => new TableError(`The table ${name} ${what}; ${REBUILD}.`);

// "magic" (fixstr 5) then its value (fixstr 16): the 22 bytes at offset 1.
const MAGIC_KEY = [0xa5, ...codes("magic"), 0xb0, ...codes(MAGIC)];
// A file ends with "crc32" (fixstr 5), 0xce (uint32), and 4 bytes.
export const CRC_TAIL = [0xa5, ...codes("crc32"), 0xce];

/** Same value, for header fields decoded from msgpack (numbers, strings, booleans, null, arrays, maps). */
export function sameValue(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

const show = (value) => JSON.stringify(value);

/** Where a header that ends early is refused: a reader of a file's first bytes asks for more then. */
export class EndsEarly extends TableError {}

/**
 * The end of the msgpack value at `at` of `bytes`, without decoding it; EndsEarly when `bytes` end before
 * it does (a file's first bytes only), a TableError for a byte no table has.
 */
export function skipValue(bytes, at, name) {
  const n = bytes.length;
  const need = (count) => {
    if (at + count > n) throw new EndsEarly(`The table ${name} cannot be decoded (its header ends early); ${REBUILD}.`);
  };
  // (`at += length(n)` would add to `at` as it was before length() moved it past the length's own bytes)
  const length = (size) => {
    need(size);
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + bytes[at + i];
    at += size;
    return value;
  };
  const skip = (size, extra = 0) => { const count = length(size); at += count + extra; };
  let pending = 1;
  while (pending > 0) {
    pending--;
    need(1);
    const b = bytes[at++];
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) continue;
    if (b <= 0x8f) { pending += 2 * (b & 0x0f); continue; }
    if (b <= 0x9f) { pending += b & 0x0f; continue; }
    if (b <= 0xbf) { need(b & 0x1f); at += b & 0x1f; continue; }
    switch (b) {
      case 0xc4: case 0xd9: skip(1); break;
      case 0xc5: case 0xda: skip(2); break;
      case 0xc6: case 0xdb: skip(4); break;
      case 0xc7: skip(1, 1); break;
      case 0xc8: skip(2, 1); break;
      case 0xc9: skip(4, 1); break;
      case 0xcc: case 0xd0: at += 1; break;
      case 0xcd: case 0xd1: at += 2; break;
      case 0xca: case 0xce: case 0xd2: at += 4; break;
      case 0xcb: case 0xcf: case 0xd3: at += 8; break;
      case 0xd4: at += 2; break; case 0xd5: at += 3; break; case 0xd6: at += 5; break;
      case 0xd7: at += 9; break; case 0xd8: at += 17; break;
      case 0xdc: pending += length(2); break;
      case 0xdd: pending += length(4); break;
      case 0xde: pending += 2 * length(2); break;
      case 0xdf: pending += 2 * length(4); break;
      default: throw damaged(name, `cannot be decoded (byte 0x${b.toString(16)} at offset ${at - 1})`);
    }
    need(0);
  }
  return at;
}

/** A short string key (fixstr or str8) at `at`: [text, the offset after it]; EndsEarly or a TableError otherwise. */
export function keyAt(bytes, at, name) {
  const b = bytes[at];
  const early = () => new EndsEarly(`The table ${name} cannot be decoded (its header ends early); ${REBUILD}.`);
  if (b === undefined) throw early();
  let size;
  if (b >= 0xa0 && b <= 0xbf) { at += 1; size = b & 0x1f; }
  else if (b === 0xd9) { if (at + 2 > bytes.length) throw early(); size = bytes[at + 1]; at += 2; }
  else throw damaged(name, `cannot be decoded (a header key at offset ${at} is not a short string)`);
  if (at + size > bytes.length) throw early();
  return [ascii(bytes, at, at + size), at + size];
}

/** The count of a map's entries at `at` and where they start: [count, offset]; -1 when no map is there. */
export function mapAt(bytes, at) {
  const b = bytes[at];
  if (b >= 0x80 && b <= 0x8f) return [b & 0x0f, at + 1];
  if (b === 0xde && at + 3 <= bytes.length) return [(bytes[at + 1] << 8) | bytes[at + 2], at + 3];
  if (b === 0xdf && at + 5 <= bytes.length) return [uint32At(bytes, at + 1), at + 5];
  return [-1, at];
}

/**
 * Where the header checksum and the arrays are, without decoding any value:
 * walks the top-level map's keys and skips their values. `bytes` may be the file's first bytes only:
 * EndsEarly when they end before the key "arrays".
 * -> { headerCrcAt (-1: none, format 1.0), headerCrc, arraysAt, keys (the count before "arrays"), bodyAt }.
 */
export function layoutOf(bytes, name) {
  const [count, bodyAt] = mapAt(bytes, 0);
  if (count < 0) throw damaged(name, "cannot be decoded (it is not a msgpack map)");
  let at = bodyAt;
  const layout = { headerCrcAt: -1, headerCrc: null, arraysAt: -1, keys: 0, bodyAt };
  for (let i = 0; i < count; i++) {
    const keyStart = at;
    const [k, after] = keyAt(bytes, at, name);
    at = after;
    if (k === "arrays") {
      Object.assign(layout, { arraysAt: keyStart, keys: i });
      return layout;
    }
    if (k === "header_crc32") {
      if (at + 5 > bytes.length) throw new EndsEarly(`The table ${name} cannot be decoded (its header ends early); ${REBUILD}.`);
      if (bytes[at] !== 0xce) throw damaged(name, "has a malformed header_crc32 (not a uint32)");
      layout.headerCrcAt = keyStart;
      layout.headerCrc = uint32At(bytes, at + 1);
      at += 5;
      continue;
    }
    at = skipValue(bytes, at, name);
  }
  throw damaged(name, "has no arrays");
}

/** The element array of a descriptor's verified bytes, copied so that it is aligned (bin data may start anywhere). */
export function typed(data, dtype) {
  const [Kind, size] = DTYPES[dtype];
  if (size === 1) return new Uint8Array(data); // a copy: the answers never change after the check
  const copy = data.slice();
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < copy.length; i += size) copy.subarray(i, i + size).reverse();
  }
  return new Kind(copy.buffer, 0, copy.length / size);
}

/** Whether a descriptor's `block_size` is one the format allows. */
export const validBlockSize = (size) =>
  Number.isInteger(size) && size >= MIN_BLOCK && size <= MAX_BLOCK && (size & (size - 1)) === 0;

/** An array descriptor's checksum fields: `block_size`, one `block_crc32` per block of its `length` bytes, `crc32`. */
export function checkSums(a, key, length, name) {
  const blocks = a.block_crc32;
  if (!validBlockSize(a.block_size)) {
    throw damaged(name, `has an array ${key} whose block_size is not a power of two from ${MIN_BLOCK} to ${MAX_BLOCK}`);
  }
  if (!(blocks instanceof Uint8Array) ||
      blocks.length !== 4 * Math.ceil(length / a.block_size) ||
      !isInt(a.crc32) || a.crc32 < 0 || a.crc32 > 0xffffffff) {
    throw damaged(name, `has no checksums for its array ${key}`);
  }
}

/** The stored CRC-32 of block `block` of a descriptor. */
export const blockCrc = (a, block) => {
  const b = a.block_crc32;
  return (b[4 * block] | (b[4 * block + 1] << 8) | (b[4 * block + 2] << 16) | (b[4 * block + 3] << 24)) >>> 0;
};

function checkArray(a, key, seed, name) {
  const data = a.data;
  const size = a.block_size;
  const count = Math.ceil(data.length / size);
  for (let block = 0; block < count; block++) {
    const start = block * size;
    if (crc32(data, start, Math.min(start + size, data.length), seed) !== blockCrc(a, block)) {
      throw damaged(name, `is damaged (checksum mismatch in array ${key}, block ${block})`);
    }
  }
  if (crc32(data, 0, data.length, seed) !== a.crc32) {
    throw damaged(name, `is damaged (checksum mismatch in array ${key})`);
  }
}

/**
 * Verify and decode a table file.
 *   input:   Uint8Array or ArrayBuffer, the whole file
 *   options: { name: the file's name for messages,
 *              game: the game asked for (its `game` field must be this),
 *              rules: the rules asked for (the file's `rules` must be exactly these: the same keys and values),
 *              arrays: { arrayName: [dtype, shape] } the arrays the page uses (others are ignored), or
 *                      function(header, descriptors) giving them when their shapes are the file's,
 *              fields: optional function(header) -> a problem (text) or null, for the game fields,
 *              decode: optional msgpack decode function (default globalThis.MessagePack.decode) }
 * -> { name, size, header (the decoded map without "arrays"), rules (the file's, verified equal to the ones asked),
 *      arrays: { arrayName: typed array } }.
 * Throws TableError.
 */
export function readTable(input, options) {
  return readOpened(openTable(input, options), options);
}

/**
 * The envelope of a table file checked (steps 1 to 4 of readTable: magic, major version, the
 * file's end, header and whole-file CRC-32s, the decoded map's magic and format), before the
 * game and rules are known: a reader that accepts several games or rule sets looks at
 * `header.game` and `header.rules`, then calls readOpened with what it expects.
 *   options: { name, decode } as for readTable.
 * -> { name, size, header (the decoded map without "arrays") } and what readOpened needs. Throws TableError.
 */
export function openTable(input, options = {}) {
  const { name = "file" } = options;
  const decode = decoderOf(options);
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const n = bytes.length;
  if (n === 0) throw damaged(name, "is empty");
  // 1. The magic bytes at offset 1, then the major version, before anything else.
  checkStart(bytes, name);
  // 2. Its end: every file ends with the 11 bytes of "crc32" and its uint32.
  const tail = n - 4 - CRC_TAIL.length;
  if (n < 64 || CRC_TAIL.some((b, i) => bytes[tail + i] !== b)) throw damaged(name, "is truncated (no checksum at its end)");
  const checkWhole = () => {
    if (crc32(bytes, 0, n - 4) !== uint32At(bytes, n - 4)) throw damaged(name, "is damaged (checksum mismatch)");
  };
  // 3. The header checksum, before any header field is used; then the whole file.
  let layout;
  try {
    layout = layoutOf(bytes, name);
  } catch (error) {
    checkWhole();
    throw error;
  }
  checkHeaderCrc(bytes, layout, name);
  checkWhole();
  // 4. The header's fields.
  let map;
  try {
    map = decode(bytes);
  } catch (error) {
    throw damaged(name, `cannot be decoded (${error.message})`);
  }
  const header = headerOf(map, layout, name);
  return { name, size: n, header, map, bytes, arraysAt: layout.arraysAt };
}

/** The vendored msgpack decoder, or the one `options.decode` gives. */
export function decoderOf(options) {
  const decode = options.decode || (globalThis.MessagePack && globalThis.MessagePack.decode);
  if (typeof decode !== "function") throw new TableError("The msgpack decoder (vendor/msgpack.min.js) did not load.");
  return decode;
}

/** Step 1: the magic bytes at offset 1, then the major version (of a whole file or its first bytes). */
export function checkStart(bytes, name) {
  const n = bytes.length;
  for (let i = 0; i < MAGIC_KEY.length; i++) {
    if (bytes[1 + i] !== MAGIC_KEY[i]) throw damaged(name, "is not a ShutTheBox table (wrong magic)");
  }
  const at = 1 + MAGIC_KEY.length;
  if (n > at + 9 && bytes[at] === 0xa6 && ascii(bytes, at + 1, at + 7) === "format" && bytes[at + 7] === 0x92 &&
      bytes[at + 8] < 0x80 && bytes[at + 8] !== FORMAT_MAJOR) {
    throw unknownVersion(name, bytes[at + 8], bytes[at + 9]);
  }
}

/** The header checksum (format 1.1), before any header field is used. */
export function checkHeaderCrc(bytes, layout, name) {
  if (layout.headerCrcAt >= 0 && crc32(bytes, 0, layout.headerCrcAt) !== layout.headerCrc) {
    throw damaged(name, "is damaged (header checksum mismatch)");
  }
}

/** Step 4 on the decoded map: its magic, header_crc32 where it was found, its format. -> the map without "arrays". */
export function headerOf(map, layout, name) {
  if (!map || typeof map !== "object" || Array.isArray(map) || map.magic !== MAGIC) {
    throw damaged(name, "is not a ShutTheBox table");
  }
  if (layout.headerCrcAt >= 0 && map.header_crc32 !== layout.headerCrc) {
    throw damaged(name, "cannot be decoded (its header_crc32 is not where it was found)");
  }
  const format = map.format;
  if (!Array.isArray(format) || format.length !== 2 || !isInt(format[0]) || !isInt(format[1])) {
    throw damaged(name, "has no format version");
  }
  if (format[0] !== FORMAT_MAJOR) throw unknownVersion(name, format[0], format[1]);
  const header = {};
  for (const key of Object.keys(map)) if (key !== "arrays") header[key] = map[key];
  return header;
}

/**
 * Steps 5 and 6 of readTable on an opened file: `game` and `rules` exactly as asked (a rules key
 * not asked for is refused), the game fields, then the arrays asked for with their checksums.
 *   options: { game, rules, arrays, fields } as for readTable.
 * -> { name, size, header, rules, arrays }. Throws TableError.
 */
export function readOpened(opened, options) {
  const { game, rules, fields: checkFields } = options;
  const { name, map } = opened;
  if (map.game !== game) {
    throw new TableError(`The table ${name} is a table of the game ${show(map.game)}, not of ${show(game)}: ` +
      "give this page the right file.");
  }
  const got = map.rules;
  if (!got || typeof got !== "object" || Array.isArray(got)) throw damaged(name, "has malformed rules");
  for (const key of Object.keys(got)) {
    if (!Object.prototype.hasOwnProperty.call(rules, key)) {
      throw new TableError(`The table ${name} has the rule '${key}', which this page does not know: ` +
        "it would misread the game. Use the page that came with the table.");
    }
  }
  for (const key of Object.keys(rules)) {
    if (!sameValue(got[key], rules[key])) {
      throw new TableError(`The table ${name} answers other rules (${key} ${show(got[key])}, not ${show(rules[key])}): ` +
        "it is no answer to this question.");
    }
  }
  const problem = checkFields ? checkFields(map) : null;
  if (problem) throw damaged(name, problem);
  // 5. The arrays used: dtype, shape, length, and checksums seeded with the CRC-32 before "arrays"
  // (a table read by ranges: each block's, as it is read).
  const seed = opened.seed ?? crc32(opened.bytes, 0, opened.arraysAt);
  const given = opened.descriptors || (map.arrays && typeof map.arrays === "object" ? map.arrays : {});
  // arrays whose shapes the file says (a target table's rows): a function of the header and the descriptors
  const wanted = (typeof options.arrays === "function" ? options.arrays(opened.header, given) : options.arrays) || {};
  const out = {};
  for (const [key, [dtype, shape]] of Object.entries(wanted)) {
    const a = given[key];
    if (!a || a.dtype !== dtype || !Array.isArray(a.shape) || !sameValue(a.shape, shape)) {
      throw damaged(name, `has no array ${key} of type ${dtype} and shape [${shape.join(", ")}]`);
    }
    const count = shape.reduce((x, y) => x * y, 1);
    const length = a.data ? a.data.length : a.length;
    if (!(a.data instanceof Uint8Array || opened.lazyArray) || length !== count * DTYPES[dtype][1]) {
      throw damaged(name, `has an array ${key} of the wrong length`);
    }
    checkSums(a, key, length, name);
    if (opened.lazyArray) {
      out[key] = opened.lazyArray(key, a, dtype, count);
      continue;
    }
    checkArray(a, key, seed, name);
    out[key] = typed(a.data, dtype);
  }
  return { name, size: opened.size, header: opened.header, rules: map.rules, arrays: out, ...(opened.lazyArray ? { remote: opened } : {}) };
}

function unknownVersion(name, major, minor) {
  return new TableError(`The table ${name} has format version ${major}.${isInt(minor) && minor < 0x80 ? minor : "?"}; ` +
    `this page reads version ${FORMAT_MAJOR}.x only: get the table that came with this page, or ${REBUILD}.`);
}

/**
 * The bytes of a table file; a TableError (with the HTTP status, kept as `status`) if they cannot be had.
 * `name` is the file's name for messages, `hint` is added to them.
 */
export async function fetchBytes(url, name, hint = "") {
  let response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (error) {
    throw new TableError(`The table ${name} could not be loaded (${error.message}).` + hint);
  }
  if (!response.ok) {
    const error = new TableError(`The table ${name} could not be loaded: ${url} (HTTP ${response.status}).` + hint);
    error.status = response.status;
    throw error;
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetch and read a table beside the page; a TableError (with the HTTP status) if it cannot be had. */
export async function fetchTable(url, options, hint = "") {
  return readTable(await fetchBytes(url, options.name, hint), options);
}

/** The promise of `load()`, made once per `key` of the Map `cache`; a failed one is forgotten, so the next call tries again. */
export function once(cache, key, load) {
  let promise = cache.get(key);
  if (!promise) {
    promise = load();
    cache.set(key, promise);
    promise.catch(() => cache.delete(key));
  }
  return promise;
}
