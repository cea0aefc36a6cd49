// What every game's command in the Node reader shares (web/answer.mjs and its answer-GAME.mjs): a table opened
// from a path or a URL, found where the command looks, the command line's checks of --help, --batch, --rules and
// --version, a batch read from stdin, and a refusal's one line and exit status. Node.js only: the pages'
// modules under shutthebox/web/static/ do the reading; this is the command line around them.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The pages' folder: the modules every reader imports. */
export const web = path.join(here, "..", "shutthebox", "web", "static");
globalThis.MessagePack ??= createRequire(import.meta.url)(path.join(web, "vendor", "msgpack.min.js"));
const { openTable, TableError } = await import(path.join(web, "lib", "format.js"));
const { openRemote } = await import(path.join(web, "lib", "remote.js"));
const { InvalidQuestion, shownText } = await import(path.join(web, "lib", "notation.js"));

/** A table given by URL, read by ranges. */
export const isUrl = (text) => /^https?:\/\//i.test(text);

/** The seconds each request of a URL's table may take, as the command line's (shutthebox/engine/remote.py). */
const TIMEOUT = 60;
export const TIMEOUT_ENV = "SHUTTHEBOX_URL_TIMEOUT";
/** A local table larger than this is read as a URL's is, a block at a time, never whole into memory (every shipped
 * table is smaller; the whole two-player yazy table is 1.9 GB). `SHUTTHEBOX_READ_WHOLE=BYTES` sets it. */
const READ_WHOLE = 32 * 2 ** 20;
const READ_WHOLE_ENV = "SHUTTHEBOX_READ_WHOLE";

/** $SHUTTHEBOX_URL_TIMEOUT, else TIMEOUT; an InvalidQuestion in the command line's words when it is no such number. */
function urlTimeout() {
  const text = (process.env[TIMEOUT_ENV] || "").trim();
  if (!text) return TIMEOUT;
  const seconds = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : 0; // a decimal, as Python's float()
  if (!(seconds >= 0.01 && seconds <= 3600)) {
    throw new InvalidQuestion(`${TIMEOUT_ENV} must be a number of seconds from 0.01 to 3600, not '${shownText(text)}'`);
  }
  return seconds;
}

/** `url`, or an InvalidQuestion when no request can be made of it (a bad question, not a bad host), in the
 * command line's words: a character that must be percent-encoded, a bad IPv6 host or port, no host. */
function checkedUrl(url) {
  const malformed = (why) => new InvalidQuestion(`table URL ${shownText(url)} is malformed (${why})`);
  if (!/^[\x21-\x7e]*$/.test(url)) throw malformed("a space, a control or a non-ASCII character: percent-encode it");
  const hostPort = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)[1].replace(/^.*@/, "");
  const [, host, port] = hostPort.startsWith("[") ? /^(\[[^\]]*\]?)[^:]*:?(.*)$/.exec(hostPort) : /^([^:]*):?(.*)$/.exec(hostPort);
  if (host.startsWith("[") && !host.endsWith("]")) throw malformed("Invalid IPv6 URL");
  if (port && !/^\d+$/.test(port)) throw malformed(`Port could not be cast to integer value as '${port}'`);
  if (port && Number(port) > 65535) throw malformed("Port out of range 0-65535");
  if (!host) throw malformed("it names no host");
  try {
    new URL(url); // what fetch makes of it
  } catch (error) {
    throw malformed(error.message);
  }
  return url;
}

/** A fetch of ranges of the local file open as `fd` (`size` bytes), answering as a host that answers ranges
 * does: lib/remote.js then reads it as it reads a URL, the blocks a question needs and no more. */
function localRanges(fd, size) {
  return async (url, init = {}) => {
    const asked = /^bytes=(\d+)-(\d+)$/.exec(init.headers?.Range || "");
    if (!asked) return new Response(null, { status: 501 }); // lib/remote.js always asks for a range
    const start = Number(asked[1]), end = Math.min(Number(asked[2]), size - 1);
    if (start >= size) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    const bytes = Buffer.alloc(end + 1 - start);
    let done = 0;
    while (done < bytes.length) {
      const got = fs.readSync(fd, bytes, done, bytes.length - done, start + done);
      if (got === 0) break; // the file shrank: lib/remote.js says the bytes are not those asked
      done += got;
    }
    return new Response(bytes.subarray(0, done), { status: 206, headers: {
      "Content-Range": `bytes ${start}-${start + done - 1}/${size}`, "Content-Length": String(done) } });
  };
}

/** The file at `file` (a path or a URL) opened: its bytes, or lib/remote.js's opened file (a URL, or a local
 * file over READ_WHOLE bytes, read by ranges). */
export async function source(file, display = file) {
  if (isUrl(file)) {
    const url = checkedUrl(file);
    return openRemote(url, { name: display, timeout: urlTimeout(), longer: `${TIMEOUT_ENV}=SECONDS gives it longer` });
  }
  let fd;
  try {
    fd = fs.openSync(file, "r");
    const size = fs.fstatSync(fd).size;
    const most = /^\d{1,15}$/.test((process.env[READ_WHOLE_ENV] || "").trim()) ? Number(process.env[READ_WHOLE_ENV]) : READ_WHOLE;
    if (size > most) {
      const opened = await openRemote(pathToFileURL(path.resolve(file)).href, { name: display, fetch: localRanges(fd, size) });
      fd = null; // read as questions need its blocks, until the process ends
      return opened;
    }
    const bytes = fs.readFileSync(fd);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  } catch (error) {
    if (!error.code || error instanceof TableError) throw error;
    throw new TableError(`The table ${display} cannot be read (${error.code}).`);
  } finally {
    if (fd != null) fs.closeSync(fd);
  }
}

/** The table file at `file` opened (lib/format.js's openTable, or lib/remote.js's for a file read by ranges). */
export async function opened(file, display = file) {
  const got = await source(file, display);
  return got instanceof Uint8Array ? openTable(got, { name: display }) : got;
}

/** The shipped data/ folders, where the command line looks first. */
export const SHIPPED = [path.join(web, "..", "..", "data"), path.join(here, "..", "data")];

/** Where the command line looks for a table it did not solve: the shipped data/ folders, then its cache. */
export function findTable(name) {
  const folders = [...SHIPPED];
  const env = process.env;
  const cache = env.SHUTTHEBOX_CACHE || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, "shutthebox")
    : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, ".cache", "shutthebox") : null);
  if (cache) folders.push(cache);
  const tried = folders.map((folder) => path.join(folder, name));
  return { found: tried.find((file) => fs.existsSync(file)) ?? null, tried };
}

/** A game's table file: --table's (`tablePath`), else `shipped().name` found where the command looks (not there: a
 * refusal naming `shipped().command`, which solves it). With --table and no game option (`given` empty), the
 * file's own rules, `own(header)` (null for another game's file, which reading it then refuses), as the command
 * reads them (Rules.from_fields): -> { file, own }. */
export async function tableFor(tablePath, given, shipped, own) {
  if (tablePath === null) {
    const { name, command } = shipped(), { found, tried } = findTable(name);
    if (found === null) throw notFound(name, tried, command);
    return { file: await opened(found), own: null };
  }
  const file = await opened(tablePath);
  if (Object.keys(given).length) return { file, own: null };
  try {
    return { file, own: own(file.header) };
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    throw new TableError(`The table ${tablePath} holds rules this version does not take (${error.message}).`);
  }
}

/** The refusal of a table not found, naming `command`, which solves it. */
export const notFound = (name, tried, command) => new TableError(`no table file ${name} found (looked at ` +
  `${tried.join(" and ")}); this reader solves nothing: solve it with \`${command}\` (or in the page, under \`ShutTheBox serve\`)`);

const say = (message) => process.stderr.write(`answer.mjs: ${message}\n`);

/** A refusal's one line and the command's exit status: 2 a bad question, 3 a table missing or damaged. */
export function refused(error) {
  if (error instanceof InvalidQuestion || error instanceof TableError) {
    say(error.message);
    return error instanceof InvalidQuestion ? 2 : 3;
  }
  throw error;
}

/** The command line's own flags, checked as it checks them: true when `--help` was answered with `usage`. */
export function answeredFlags(flags, tokens, id, usage) {
  if (flags.help || flags.h) {
    process.stdout.write(usage);
    return true;
  }
  if (flags.batch && flags.rules) throw new InvalidQuestion("--batch and --rules do not go together: ask for one");
  if (flags.batch && tokens.length) {
    throw new InvalidQuestion(`--batch takes no question on the command line, got ${shownText(tokens.join(" "))}`);
  }
  if (flags.version || flags.rules) {
    const command = id === "shutthebox" ? "ShutTheBox" : `ShutTheBox ${id}`; // the game of a command line naming none
    throw new InvalidQuestion(`--${flags.rules ? "rules" : "version"} is the command line's own: ask \`${command}\``);
  }
  return false;
}

/** `--batch`: stdin's lines, one answer a line, as the command answers them: `before(lines)` (its table opened)
 * once there is a line, then `answerLine(line)` (a promise of the answer, "error: ..." for a line refused) each;
 * -> the exit status, 1 when a line was refused. */
export async function answerBatch(answerLine, before = async () => {}) {
  const lines = fs.readFileSync(0, "utf8").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (!lines.length) return 0;
  await before(lines);
  let failed = false;
  const out = [];
  for (const line of lines) {
    const text = Buffer.byteLength(line) > 65536 ? "error: the line is longer than 65536 bytes" : await answerLine(line);
    failed = failed || text.startsWith("error: ");
    out.push(text);
  }
  process.stdout.write(out.map((line) => line + "\n").join(""));
  return failed ? 1 : 0;
}
