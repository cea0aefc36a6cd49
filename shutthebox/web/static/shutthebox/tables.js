/* Where the page finds its tables, and a table not shipped solved by the server on first use.
 *
 * The two-player table is looked for beside index.html (`ShutTheBox serve`), then in ../../data/
 * (an installed package: shutthebox/data/) and ../../../data/ (a checkout served from its root),
 * or only at ?table=URL. The other tables (solo-VARIANT.msgpack, <rules key>-p<players>.msgpack)
 * are looked for beside the table the page read first, then in the same folders. */

import { TableError } from "../lib/format.js";
import { Unreachable, openRemote } from "../lib/remote.js";
import { fetchOrSolve } from "../solve.js";
import { expectedArrays, formatPosition, parseTable } from "./table.js";
import { tableName, ruleKey, oneDieText, STANDARD, soloTableName, soloName, variantOf } from "./rules.js";

export const TABLE_FOLDERS = ["", "../../data/", "../../../data/"];

/** The first of `urls` that answers: { url, opened (lib/remote.js's: read by ranges where the host allows) }; a TableError
 * naming them all otherwise (its `status`: the first one's, e.g. 404). */
export async function fetchFirst(urls, fix) {
  const tried = [];
  let first = null;
  for (const url of urls) {
    try {
      return { url, opened: await openRemote(url, { name: url, arrays: expectedArrays }) };
    } catch (error) {
      // the network is away: the next folders are no nearer (a page opened from a file reads no folder at all)
      if (error instanceof Unreachable && location.protocol !== "file:") throw error;
      if (first === null) first = error.status ?? 0;
      const why = error.status ? `HTTP ${error.status}` :
        location.protocol === "file:" ? "pages opened from a file cannot read files" : error.message;
      tried.push(`${url} (${why})`);
    }
  }
  const error = new TableError(`The table file could not be loaded. Tried: ${tried.join("; ")}.\n${fix}`);
  error.status = first;
  throw error;
}

/** Unique URLs: `name` beside `near` (a table URL read before), then in TABLE_FOLDERS. */
export function candidates(name, near) {
  const cut = near ? near.split(/[?#]/)[0].lastIndexOf("/") : -1;
  const urls = [cut >= 0 ? near.slice(0, cut + 1) + name : name, ...TABLE_FOLDERS.map((folder) => folder + name)];
  const seen = new Set();
  return urls.filter((url) => {
    const key = new URL(url, location.href).href;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The command line that solves the table of these rules and players (null: the single-player table) into the cache. */
export function solveCommand(rules, players) {
  const options = [];
  if (rules.tiles !== STANDARD.tiles) options.push(`--tiles ${rules.tiles}`);
  if (rules.dice !== STANDARD.dice) options.push(`--dice ${rules.dice}`);
  if (rules.sides !== STANDARD.sides) options.push(`--sides ${rules.sides}`);
  if (oneDieText(rules) !== oneDieText(STANDARD) && !(rules.dice === 1 && rules.oneDieAtMost === null)) {
    options.push(`--one-die ${oneDieText(rules)}`);
  }
  if (rules.maxMoveTiles !== null) options.push(`--max-move-tiles ${rules.maxMoveTiles}`);
  if (players !== null && players !== 2) options.push(`--players ${players}`);
  return `ShutTheBox ${options.join(" ")}${options.length ? " " : ""}${players === null ? "--solo" : "--one"} ` +
    `--expect ${formatPosition(2 ** rules.tiles - 1, rules.tiles)}`;
}

/**
 * The table of `rules` and `players`: fetched beside `near`, else (HTTP 404 there) solved by the
 * server and fetched then, once `ask(status)` resolves to true (the player pressed Solve after seeing
 * what it costs: status.words). onProgress({ state, done, total, name }) while it is solved.
 */
export async function loadPlayersTable(rules, players, near, onProgress, signal, ask) {
  const name = tableName(rules, players);
  const urls = candidates(name, near);
  const read = (found) => Object.assign(parseTable(found.opened, { name: found.url, game: "players", rules, players }), { url: found.url });
  const fix = `Start the page with \`ShutTheBox serve\`, which solves it on first use, or solve it with \`${solveCommand(rules, players)}\`.`;
  const fetchIt = async () => read(await fetchFirst(urls, fix));
  return fetchOrSolve(name, fetchIt, (status) => onProgress({ ...status, name }),
    { signal, command: solveCommand(rules, players), ask });
}

/** The single-player table of a variant, beside `near` or in TABLE_FOLDERS. */
export async function loadSoloTable(variant, near) {
  const name = soloTableName(variant);
  const found = await fetchFirst(candidates(name, near), `Start the page with \`ShutTheBox serve\`, or copy data/${name} ` +
    "next to index.html (or next to the two-player table) when serving the page yourself; `make tables` builds it.");
  const table = parseTable(found.opened, { name: found.url, game: "one-player" });
  if (table.variant !== variant) {
    throw new TableError(`The table ${found.url} holds ${table.variant ? `the ${table.variant} rules` : ruleKey(table.rules)}, ` +
      `not the ${variant} rules; rebuild it with \`make tables\`.`);
  }
  table.url = found.url;
  return table;
}

/**
 * The single-player table of any rules: a named set's shipped file (solo-NAME.msgpack), else
 * solo-<rules key>.msgpack, solved by the server on first use as loadPlayersTable solves its tables.
 */
export async function loadSoloRulesTable(rules, near, onProgress, signal, ask) {
  const variant = variantOf(rules);
  if (variant) return loadSoloTable(variant, near);
  const name = soloName(rules), command = solveCommand(rules, null);
  const fix = `Start the page with \`ShutTheBox serve\`, which solves it on first use, or solve it with \`${command}\`.`;
  const fetchIt = async () => {
    const found = await fetchFirst(candidates(name, near), fix);
    return Object.assign(parseTable(found.opened, { name: found.url, game: "one-player", rules, players: 1 }), { url: found.url });
  };
  return fetchOrSolve(name, fetchIt, (status) => onProgress({ ...status, name }), { signal, command, ask });
}
