/* The games page (games.html). The game list is the registry's: `games.json`, which
 * `ShutTheBox serve` writes from shutthebox/registry.py. Each game on this page is the module
 * games.json names (`module`: games/ID.js, or a family's module such as families/setaside.js, which reads
 * the game from `ctx.game`; games/ID.js for a list without it), imported and mounted into its section the
 * first time it is shown; a game with a page of its own (Shut the Box) is a link. Tables are read by
 * lib/remote.js from the files beside this page: by HTTP ranges, only the blocks a question reads (the whole file, with its progress, from a
 * host that refuses ranges). A game's section is shown once its table can answer. Choosing a game's tab or a mode is a history entry: Back shows the entry's game, mode and
 * Coach question again (Play's seed and moves are lib/play.js's). */

import { once, TableError } from "./lib/format.js";
import { Unreachable, fetchTable, megabytes } from "./lib/remote.js";
import { failedAtLoad, keepControl, register, unreachable, watch } from "./lib/offline.js";
import { asking, badParam, el, showError } from "./lib/ui.js";
import { fetchGames } from "./gamelist.js";
import { rulesFold } from "./games/ui.js";
import { cancelButton, fetchOrSolve, solveQuestion } from "./solve.js";

const params = new URLSearchParams(location.search);
// (The linked game's modules are asked for by games.html's inline script, beside this one.)
const tables = new Map(); // url -> Promise of a read table
const mounted = new Map(); // game id -> controller
const linkOf = new Map(); // game id -> its link parameters when another game was chosen
const status = document.getElementById("status");
const bar = el("progress", { id: "table-progress", max: "1", value: "0" }); // a whole-file download's
// The question before a table is solved (its cost, Solve and Cancel), then Cancel while it is solved.
const solveBox = el("div", { id: "solve-status", class: "notice", role: "status", hidden: true });
status.after(solveBox);
const ON_THIS_PAGE = /^games\.html\?game=([a-z0-9-]+)$/;
let games = []; // [{id, title, about, module, family}] of this page, in the registry's order
const MODULE = /^(games|families)\/[a-z0-9-]+\.js$/; // a module of this page, as games.json names it
let current = null;

let quiet = true; // while a game is shown from the link or the history: the page only rewrites its entry
watch();
register();
const shownTable = new Map(); // game id -> the table it read last ({ url, name, size }): what "Keep for offline" keeps
const keep = keepControl(document.getElementById("keep"), () => [shownTable.get(current)]);

/** Put `values` in the link ({ key: text or null }). A change of mode the player made is a new history
 * entry (Back returns to the other mode); every other change, a field's included, rewrites the entry.
 * Play's `seed` and `moves` are its own (lib/play.js): written here only when it passes them. */
function setParams(values) {
  const mode = values.mode === undefined ? null : values.mode ?? "coach";
  const step = !quiet && mode !== null && (params.get("mode") ?? "coach") !== mode;
  for (const [key, value] of Object.entries(values)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  if (step) history.pushState(null, "", "?" + params.toString());
  else history.replaceState(null, "", "?" + params.toString());
}

/** A game's table. spec: url, options for lib/format.js, `first(table)` (the first question: its blocks are
 * fetched at once, lib/remote.js's warm), and `command` (the command line that solves it
 * when the server cannot) or `hint` (for a table that is only shipped). One not solved yet (HTTP 404)
 * is solved by the server once the player presses Solve (the question shows what it costs), its
 * progress shown with a Cancel button. */
function load(spec) {
  const name = spec.options.name;
  const hint = spec.command ? ` It is solved on first use by \`ShutTheBox serve\` or by \`${spec.command}\`.` : spec.hint || "";
  const say = (text, fraction = null) => {
    status.replaceChildren(text, ...(fraction === null ? [] : [" ", bar]));
    if (fraction !== null) bar.value = fraction;
    status.hidden = false;
  };
  // a host that refuses ranges sends the whole file: its size before it comes, and how much has come
  const progress = ({ done, total }) => say(total ? `Downloading ${name} whole (this host refuses ranges): ` +
    `${megabytes(done)} of ${megabytes(total)}…` : `Downloading ${name} whole (this host refuses ranges): ${megabytes(done)}…`,
  total ? done / total : null);
  const fetchIt = () => {
    say(`Reading ${name}…`);
    return fetchTable(spec.url, spec.options, hint, progress, spec.first);
  };
  const promise = once(tables, spec.url, () => (spec.command ? solved(name, fetchIt, say, spec.command, spec.consent) : fetchIt()));
  const owner = current;
  promise.then((table) => {
    shownTable.set(owner, { url: spec.url, name, size: table.size });
    if (current === owner) keep.refresh();
  }, () => {});
  return promise.finally(() => { status.hidden = true; });
}

// A solve this short needs no question once the player said Solve to one of the same `consent` in this visit (the
// card-by-card tables of Yahtzee's aim in Play: a second each, one a turn).
const QUICK_SECONDS = 10;

/** The table `name` fetched, or solved first when the player says so (Solve), with Cancel while it is solved;
 * `consent` ({ given }), shared by solves of one kind: after one Solve, the quick ones of that kind are not asked. */
async function solved(name, fetchIt, say, command, consent = null) {
  const controller = new AbortController();
  let removeCancel = null;
  const progress = ({ done, total }) => {
    removeCancel ??= cancelButton(solveBox, controller);
    solveBox.hidden = false;
    document.body.dataset.solve = "solving";
    say(total ? `Solving ${name}: ${Math.floor((100 * done) / total)}%` : `Solving ${name} (the first time only)…`);
  };
  const askFirst = async (answer) => {
    if (consent?.given && answer.seconds > 0 && answer.seconds <= QUICK_SECONDS) return true;
    const before = document.body.dataset.state;
    status.hidden = true;
    document.body.dataset.state = "asking";
    const yes = await solveQuestion(solveBox, answer, { signal: controller.signal });
    document.body.dataset.state = before;
    if (yes && consent) consent.given = true;
    return yes;
  };
  try {
    const table = await fetchOrSolve(name, fetchIt, progress, { command, signal: controller.signal, ask: askFirst });
    document.body.dataset.solve = "done";
    return table;
  } catch (error) {
    document.body.dataset.solve = "error";
    if (error.name === "AbortError") {
      throw new TableError(`The table ${name} is not solved: you did not ask for it (Solve), or cancelled its solve. `
        + "Choose these rules again to be asked again.");
    }
    throw error;
  } finally {
    removeCancel?.();
    solveBox.hidden = true;
  }
}

/** The module of `game`: games.json's `module`, else games/ID.js. */
const moduleOf = (game) => (MODULE.test(game.module ?? "") ? game.module : `games/${game.id}.js`);

function context(game) {
  return {
    game, // games.json's entry: a family's module reads the game (its id, title, rules) from it
    params, setParams, load,
    ready() { if (current === game.id) document.body.dataset.state = "ready"; },
    failed(error) {
      if (!(error instanceof TableError)) console.error(error);
      if (current === game.id) document.body.dataset.state = "error";
      failedAtLoad(error); // for want of the network: the page starts again once it is back
    },
  };
}

/**
 * Show game `id`. `how`: "link" (the page's first game, as the link asks), "choose" (the player chose its
 * tab: a new history entry, and the link parameters become the game's own: another game's `seed` or
 * `mode` must not leak into it) or "back" (a history entry: `params` already hold its parameters, which
 * a game shown before restores: its mode and Coach's question).
 */
async function show(id, how = "link") {
  const game = games.find((g) => g.id === id) || games[0];
  const step = how === "choose" && game.id !== current;
  if (step) {
    linkOf.set(current, params.toString());
    for (const key of [...params.keys()]) params.delete(key);
    for (const [key, value] of new URLSearchParams(linkOf.get(game.id) || "")) params.set(key, value);
  }
  current = game.id;
  quiet = true;
  document.body.dataset.state = "loading";
  document.body.dataset.game = game.id;
  params.set("game", game.id);
  if (step) history.pushState(null, "", "?" + params.toString());
  else history.replaceState(null, "", "?" + params.toString());
  // the game's section is shown once its table can answer (or says why it cannot)
  const section = document.getElementById(game.id);
  for (const g of games) {
    document.getElementById(`tab-${g.id}`).setAttribute("aria-pressed", g === game ? "true" : "false");
    document.getElementById(g.id).hidden = true;
  }
  try {
    let controller = mounted.get(game.id);
    if (!controller) {
      const module = await import(`./${moduleOf(game)}`);
      controller = module.mount(document.getElementById(game.id), context(game));
      mounted.set(game.id, controller);
      window.games[game.id] = controller.api;
    } else if (how === "back") controller.restore?.();
    if (current === game.id) await controller.activate();
  } catch (error) {
    if (!(error instanceof TableError)) console.error(error);
    showError(error.message);
    failedAtLoad(error);
  } finally {
    keep.refresh();
    if (current === game.id) {
      quiet = false;
      section.hidden = false;
    }
  }
}

/** Back or Forward: the entry's game, mode and Coach question (Play's moves are lib/play.js's). */
function restore() {
  const entry = new URLSearchParams(location.search);
  const id = games.some((g) => g.id === entry.get("game")) ? entry.get("game") : games[0]?.id;
  if (!id) return;
  if (id !== current) linkOf.set(current, params.toString());
  for (const key of [...params.keys()]) params.delete(key);
  for (const [key, value] of entry) params.set(key, value);
  show(id, "back");
}

/** The registry's games: tabs and sections for this page's, links for the others. */
async function listGames() {
  const listed = await fetchGames();
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
      title: game.about, onclick: () => show(game.id, "choose") }, game.title));
    sections.append(el("section", { id: game.id, "aria-labelledby": `tab-${game.id}`, hidden: true },
      el("h2", {}, game.title), rulesFold(game)));
  }
  const box = document.getElementById("other-pages");
  const own = others.length === 1 ? " has a page of its own." : " have pages of their own.";
  box.replaceChildren(...others.flatMap((link, i) => [i ? ", " : "", link]), others.length ? own : "");
  if (!games.length) throw new TableError("games.json lists no game for this page");
}

window.games = { show };
// A table read by ranges checks each block when a question first reads it: a damaged one is refused then,
// in the table's words, whichever control asked.
window.addEventListener("error", (event) => {
  if (!(event.error instanceof TableError)) return;
  event.preventDefault();
  if (event.error instanceof Unreachable) unreachable(event.error); // the network went away: the page goes on
  else showError(event.error.message);
});
window.addEventListener("popstate", restore);
// A game's keys act on its board: not with a modifier, not while typing, not behind the "Discard this game?" question.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || asking()) return;
  if (event.target instanceof HTMLInputElement && event.target.type === "text") return;
  mounted.get(current)?.key?.(event);
});
try {
  await listGames();
  const wanted = params.get("game");
  if (wanted !== null && !games.some((g) => g.id === wanted)) {
    badParam(params, "game", `not a game of this page (${games.map((g) => g.id).join(", ")})`, `showing ${games[0].id}`);
  }
  await show(wanted);
} catch (error) {
  showError(error.message);
}
