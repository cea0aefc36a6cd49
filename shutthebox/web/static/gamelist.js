/* The registry's list of games, games.json, which `ShutTheBox serve` writes from
 * shutthebox/registry.py: read by the games page (its tabs) and the Shut the Box page (its footer). */

import { TableError } from "./lib/format.js";

let read = null;
/** games.json as read, fetched once for the page (its list of games, and what it says of solving): a promise. */
export function gamesJson() {
  read ??= fetch(new URL("games.json", import.meta.url), { cache: "no-cache" }).then((answer) => {
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    return answer.json();
  });
  return read;
}

/** [{ id, title, about, page }] in the registry's order; a TableError saying how to serve the page when there is none. */
export async function fetchGames() {
  let games;
  try {
    games = (await gamesJson()).games;
    if (!Array.isArray(games)) throw new Error("it has no list of games");
  } catch (error) {
    throw new TableError(`The list of games (games.json) could not be read (${error.message}): ` +
      "serve this page with `ShutTheBox serve`, which writes it from the game registry.");
  }
  return games;
}
