/* The footer's list of the other games, from /games.json (written by `ShutTheBox serve` from the
 * registry). Served by a plain static server there is no such file: no error, just no list. */

import { fetchGames } from "../gamelist.js";
import { el } from "../lib/ui.js";

export async function gamesNav(nav) {
  let games;
  try {
    games = await fetchGames();
  } catch (error) {
    return; // not served by `ShutTheBox serve`
  }
  const here = (page) => page === "index.html" || page.startsWith("index.html?");
  const others = games.filter((game) => game && typeof game.page === "string" && game.page && !here(game.page));
  if (!others.length) return;
  nav.textContent = "";
  // The first link keeps the id the hand-written link had (#games-link).
  nav.append(el("span", { text: "Other games: " }), el("ul", {}, ...others.map((game, i) =>
    el("li", {}, el("a", { href: game.page, id: i ? null : "games-link", title: game.about || null, "data-game": game.id,
      text: game.title || game.id })))));
  nav.hidden = false;
}
