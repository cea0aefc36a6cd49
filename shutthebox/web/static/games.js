/* The games page (games.html): one module per game, each mounted into its section the first
 * time it is shown. Tables are read by format.js from the files beside this page. */

import { TableError, fetchTable } from "./format.js";
import * as toggle from "./games/toggle.js";
import * as goat from "./games/goat.js";
import * as yazy from "./games/yazy.js";

const GAMES = [toggle, goat, yazy];
const params = new URLSearchParams(location.search);
const tables = new Map(); // url -> Promise of a read table
const mounted = new Map(); // game id -> controller
const status = document.getElementById("status");
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

async function show(id) {
  const game = GAMES.find((g) => g.id === id) || GAMES[0];
  current = game.id;
  document.body.dataset.state = "loading";
  document.body.dataset.game = game.id;
  setParams({ game: game.id });
  for (const g of GAMES) {
    document.getElementById(`tab-${g.id}`).setAttribute("aria-pressed", g === game ? "true" : "false");
    document.getElementById(g.id).hidden = g !== game;
  }
  let controller = mounted.get(game.id);
  if (!controller) {
    controller = game.mount(document.getElementById(game.id), context(game));
    mounted.set(game.id, controller);
    window.games[game.id] = controller.api;
  }
  try {
    await controller.activate();
  } catch (error) {
    document.body.dataset.state = "error";
    const box = document.getElementById("error");
    box.textContent = error.message;
    box.hidden = false;
  }
}

window.games = { show };
for (const g of GAMES) document.getElementById(`tab-${g.id}`).addEventListener("click", () => show(g.id));
document.addEventListener("keydown", (event) => {
  const controller = mounted.get(current);
  if (controller && controller.key) controller.key(event);
});
const wanted = params.get("game");
if (wanted !== null && !GAMES.some((g) => g.id === wanted)) {
  const box = document.getElementById("link-problems");
  box.textContent = `game=${wanted} is not a game of this page (toggle, goat, yazy): showing toggle.`;
  box.hidden = false;
}
show(wanted);
