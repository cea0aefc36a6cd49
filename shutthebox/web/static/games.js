/* The games page (games.html). The game list is the registry's: `games.json`, which
 * `ShutTheBox serve` writes from shutthebox/registry.py. Each game on this page is the module
 * games/ID.js, imported and mounted into its section the first time it is shown; a game with a
 * page of its own (Shut the Box) is a link. Tables are read by format.js from the files beside
 * this page. */

import { TableError, fetchTable } from "./format.js";
import { el } from "./games/ui.js";

const params = new URLSearchParams(location.search);
const tables = new Map(); // url -> Promise of a read table
const mounted = new Map(); // game id -> controller
const linkOf = new Map(); // game id -> its link parameters when another game was chosen
const status = document.getElementById("status");
const ON_THIS_PAGE = /^games\.html\?game=([a-z0-9-]+)$/;
let games = []; // [{id, title, about}] of this page, in the registry's order
let current = null;

function setParams(values) {
  for (const [key, value] of Object.entries(values)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  history.replaceState(null, "", "?" + params.toString());
}

function load(spec) {
  let promise = tables.get(spec.url);
  if (!promise) {
    status.textContent = `Reading and checking ${spec.options.name}…`;
    status.hidden = false;
    promise = fetchTable(spec.url, spec.options, spec.hint || "");
    tables.set(spec.url, promise);
    promise.catch(() => tables.delete(spec.url)); // a failed load is tried again next time
  }
  return promise.finally(() => { status.hidden = true; });
}

function context(game) {
  return {
    params, setParams, load,
    ready() { if (current === game.id) document.body.dataset.state = "ready"; },
    failed(error) {
      if (!(error instanceof TableError)) console.error(error);
      if (current === game.id) document.body.dataset.state = "error";
    },
  };
}

function fail(message) {
  document.body.dataset.state = "error";
  status.hidden = true;
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = false;
}

/** Show game `id`; `switching`: the user chose it, so the link parameters become its own (a game
 * first shown reads them when mounted: another game's `seed` or `mode` must not leak into it). */
async function show(id, switching = false) {
  const game = games.find((g) => g.id === id) || games[0];
  if (switching && game.id !== current) {
    linkOf.set(current, params.toString());
    for (const key of [...params.keys()]) params.delete(key);
    for (const [key, value] of new URLSearchParams(linkOf.get(game.id) || "")) params.set(key, value);
  }
  current = game.id;
  document.body.dataset.state = "loading";
  document.body.dataset.game = game.id;
  setParams({ game: game.id });
  for (const g of games) {
    document.getElementById(`tab-${g.id}`).setAttribute("aria-pressed", g === game ? "true" : "false");
    document.getElementById(g.id).hidden = g !== game;
  }
  try {
    let controller = mounted.get(game.id);
    if (!controller) {
      const module = await import(`./games/${game.id}.js`);
      controller = module.mount(document.getElementById(game.id), context(game));
      mounted.set(game.id, controller);
      window.games[game.id] = controller.api;
    }
    if (current === game.id) await controller.activate();
  } catch (error) {
    if (!(error instanceof TableError)) console.error(error);
    fail(error.message);
  }
}

/** The registry's games: tabs and sections for this page's, links for the others. */
async function listGames() {
  let listed;
  try {
    const answer = await fetch("games.json", { cache: "no-cache" });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    listed = (await answer.json()).games;
  } catch (error) {
    throw new TableError(`The list of games (games.json) could not be read (${error.message}): ` +
      "serve this page with `ShutTheBox serve`, which writes it from the game registry.");
  }
  const tabs = document.getElementById("game-tabs");
  const sections = document.getElementById("game-sections");
  const others = [];
  for (const game of listed) {
    const here = ON_THIS_PAGE.exec(game.page || "");
    if (!here || here[1] !== game.id) {
      if (game.page) others.push(el("a", { href: game.page, title: game.about }, game.title));
      continue;
    }
    games.push(game);
    tabs.append(el("button", { type: "button", id: `tab-${game.id}`, class: "tab", "aria-pressed": "false",
      title: game.about, onclick: () => show(game.id, true) }, game.title));
    sections.append(el("section", { id: game.id, "aria-labelledby": `tab-${game.id}`, hidden: true },
      el("h2", {}, game.title), el("p", { class: "hint" }, game.about)));
  }
  const box = document.getElementById("other-pages");
  const own = others.length === 1 ? " has a page of its own." : " have pages of their own.";
  box.replaceChildren(...others.flatMap((link, i) => [i ? ", " : "", link]), others.length ? own : "");
  if (!games.length) throw new TableError("games.json lists no game for this page");
}

window.games = { show };
document.addEventListener("keydown", (event) => {
  const controller = mounted.get(current);
  if (controller && controller.key) controller.key(event);
});
try {
  await listGames();
  const wanted = params.get("game");
  if (wanted !== null && !games.some((g) => g.id === wanted)) {
    const box = document.getElementById("link-problems");
    box.textContent = `game=${wanted} is not a game of this page (${games.map((g) => g.id).join(", ")}): ` +
      `showing ${games[0].id}.`;
    box.hidden = false;
  }
  await show(wanted);
} catch (error) {
  fail(error.message);
}
