/**
 * Solving a table on first use from the page, through `ShutTheBox serve`
 * (docs/WEB.md, "Solving on first use"). Nothing is solved until the person at
 * the page presses Solve: GET /solve/NAME.msgpack says what solving it would
 * cost (size, memory, time), the page shows that with a Solve button, and only
 * its click POSTs; GET then follows the solve until the table is ready to fetch
 * at NAME.msgpack. Cancel (or leaving the page) DELETEs it: the server stops it unless another page (tab)
 * waits for it too (each page names itself in X-ShutTheBox-Page).
 *
 *   await solveTable("t9-2d6-one6-p3.msgpack", ({state, done, total}) => ...);  // after a click
 *   await fetchOrSolve(name, fetchIt, onProgress, {ask: (status) => solveQuestion(box, status, signal)});
 *
 * `done`/`total` count the solver's steps; both stay 0 for a solver that
 * reports none (show an indeterminate "Solving..."); `state` is "queued" only
 * while another solve is ahead of it. Failures throw lib/format.js's
 * TableError with the server's one-line reason.
 *
 * games.json says where the pages are: under `ShutTheBox serve` ("solving": true)
 * GET /solve/NAME is asked before the table, so that a table not solved yet is
 * no failed request (its answer is 200, state "absent"); in a static copy
 * (`ShutTheBox serve --export`, "solving": false) only the `tables` it lists
 * are fetched, and any other is a message naming the command that solves it.
 */

import { TableError } from "./lib/format.js";
import { gamesJson } from "./gamelist.js";

// This page's own word on its solve requests: the server stops a solve only when no other page (tab) waits for it.
const PAGE = { "X-ShutTheBox-Page": globalThis.crypto?.getRandomValues
  ? Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, "0")).join("")
  : Math.random().toString(36).slice(2) };
// The header the server asks of a solve: another web site's page cannot send it here.
const HEADERS = { "X-ShutTheBox": "solve", ...PAGE };

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) { reject(signal.reason); return; }
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
});

const solveUrl = (name) => new URL(`solve/${encodeURIComponent(name)}`, import.meta.url);

/** Why there is no server to solve `name`, with the command line that solves it. */
function noServer(name, command) {
  const error = new TableError(`The table ${name} is not solved yet, and this page is not served by \`ShutTheBox serve\`, `
    + `which solves it on first use: run \`ShutTheBox serve\` and open the address it prints`
    + (command ? `, or solve it with \`${command}\`` : "") + ".");
  error.noServer = true;
  return error;
}

/** Why a static copy of the pages (`ShutTheBox serve --export`) cannot have `name`. */
function unavailable(name, command) {
  return new TableError(`The table ${name} is not in this folder, and solving is unavailable here: these pages `
    + "are a static copy (`ShutTheBox serve --export`) holding the shipped tables only. "
    + (command ? `Solve it with the command line, \`${command}\`, or run` : "Run")
    + " `ShutTheBox serve` and open the address it prints to solve it in the page.");
}

let site = null;
/** What games.json beside these pages says of solving (read once): {solving: true} under `ShutTheBox serve`;
 * {solving: false, tables: [names]} in a static copy; {solving: undefined} when no games.json says. */
function siteSays() {
  site ??= gamesJson()
    .then((said) => ({ solving: typeof said?.solving === "boolean" ? said.solving : undefined,
      tables: Array.isArray(said?.tables) ? said.tables : [] }))
    .catch(() => ({ solving: undefined, tables: [] }));
  return site;
}

/** The server's status of NAME, or a TableError when no `ShutTheBox serve` answers for it (or, unless
 * `ended`, when the solve failed or was cancelled). */
async function ask(url, name, method, signal, command, ended = false) {
  const response = await fetch(url, { method, headers: method === "GET" ? PAGE : HEADERS, signal, cache: "no-store" });
  const status = response.headers.get("Content-Type")?.startsWith("application/json")
    ? await response.json() : null;
  if (!status?.state) throw noServer(name, command);
  if ((status.state === "failed" || status.state === "cancelled") && !(ended && "limit" in status)) {
    throw new TableError(status.error || `The table ${name} cannot be solved.`);
  }
  return status;
}

/** GET /solve/NAME: its status; for a table neither there nor asked for, "absent" with what solving it would
 * cost: {size, memory, seconds, words, limit} and `refused` (why this server will not solve it), or `damaged`;
 * a solve that failed or was cancelled comes with its `error` and the same cost (it may be asked for again). */
export function solveStatus(name, { signal, command } = {}) {
  return ask(solveUrl(name), name, "GET", signal, command, true);
}

/** DELETE /solve/NAME: stop solving it (a solve queued or running on the server); `keepalive` for a page
 * being closed. */
export function cancelSolve(name, { keepalive = false } = {}) {
  return fetch(solveUrl(name), { method: "DELETE", headers: HEADERS, keepalive, cache: "no-store" })
    .then(() => undefined, () => undefined);
}

// Solves this page waits for: stopped when the page goes away, unless another page waits for them too.
const started = new Set();
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => { for (const name of started) cancelSolve(name, { keepalive: true }); });
}

/**
 * Follow the solve of `name` until the table can be fetched (resolves) or it fails (TableError).
 * `post`: start it (POST: the click) rather than only follow one already queued or running.
 * `onProgress({state, done, total})` after each answer; aborting `signal` (the page's Cancel, other rules
 * chosen) stops waiting and asks the server to stop the solve.
 */
async function follow(name, onProgress, { signal, interval = 250, command, post }) {
  const url = solveUrl(name);
  started.add(name);
  try {
    let status = await ask(url, name, post ? "POST" : "GET", signal, command);
    for (;;) {
      // Queued with nothing ahead (the answer to the POST): it starts at once, no other solve to wait for.
      const ahead = status.ahead ?? 0;
      const state = status.state === "queued" && ahead === 0 ? "solving" : status.state;
      onProgress?.({ state, ahead, done: status.done ?? 0, total: status.total ?? 0 });
      if (status.state === "ready") return status;
      if (status.state === "absent") {  // the server forgot it (restarted): a new solve needs a new click
        throw new TableError(`The server no longer knows about the solve of ${name} (was it restarted?); ask for it again.`);
      }
      await sleep(interval, signal);
      status = await ask(url, name, "GET", signal, command);
    }
  } catch (error) {
    if (signal?.aborted) await cancelSolve(name);
    throw error;
  } finally {
    started.delete(name);
  }
}

/**
 * Solve the table file `name` on the server unless it is there already: call this only on the click of
 * the person at the page. Resolves once it can be fetched. `onProgress({state, done, total})` after each
 * answer; aborting `signal` stops the solve on the server (DELETE); `command` is the command line that
 * solves it, for the message when the page is not served by `ShutTheBox serve`.
 */
export function solveTable(name, onProgress, { signal, interval = 250, command } = {}) {
  return follow(name, onProgress, { signal, interval, command, post: true });
}

/**
 * `fetchIt()` (a promise of the table `name`) once it is there; else the server's status of it: one
 * already being solved (another page asked) is followed; otherwise `ask(status)` shows what solving it
 * would cost (status.words, or status.refused when the server will not) and resolves to true on the
 * click of Solve, false otherwise. Without `ask`, or when the server refuses, a TableError says so. Then
 * it is solved (`onProgress` as for solveTable) and fetched. Aborting `signal` stops it. Under
 * `ShutTheBox serve` the status is asked first (no request fails for a table not solved yet); in a
 * static copy a table it does not list is a TableError saying solving is unavailable here; elsewhere
 * the table is fetched first and its 404 asks for the status.
 */
export async function fetchOrSolve(name, fetchIt, onProgress, { signal, command, ask: askFirst } = {}) {
  const { solving, tables } = await siteSays();
  if (solving === false) {
    if (!tables.includes(name)) throw unavailable(name, command);
    return fetchIt();
  }
  let status = null;
  if (solving) {
    try {
      status = await solveStatus(name, { signal, command });
    } catch (error) {
      // no /solve/ after all, or no network (the table may be kept for offline): the table first, as elsewhere
      if (!error.noServer && !(error instanceof TypeError)) throw error;
    }
    if (status?.state === "ready") return fetchIt();
  }
  if (status === null) {
    try {
      return await fetchIt();
    } catch (error) {
      if (!(error instanceof TableError) || error.status !== 404) throw error;
    }
    status = await solveStatus(name, { signal, command });
  }
  if (status.state === "queued" || status.state === "solving") {
    await follow(name, onProgress, { signal, command, post: false });
  } else if (status.state !== "ready") {
    if (status.refused) {
      throw new TableError(`The table ${name} is not solved yet, and ${status.refused}`
        + (command ? ` (\`${command}\`).` : "."));
    }
    if (!askFirst) {
      throw new TableError(`The table ${name} is not solved yet` + (status.words ? ` (${status.words})` : "") + "."
        + (command ? ` Solve it with \`${command}\`.` : ""));
    }
    if (!(await askFirst(status))) throw new DOMException(`The table ${name} was not solved.`, "AbortError");
    await solveTable(name, onProgress, { signal, command });
  }
  return fetchIt();
}

/** 27 seconds, 3 minutes, 2 hours: a duration as a player reads it (rounded up). */
function durationWords(seconds) {
  const [n, unit] = seconds < 90 ? [Math.max(1, Math.ceil(seconds)), "second"]
    : seconds < 5400 ? [Math.ceil(seconds / 60), "minute"] : [Math.ceil(seconds / 3600), "hour"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/**
 * The question before a solve, in `box` (an element of the page): what solving `status.name` costs (its
 * estimate's words), a Solve button and a Cancel button. Resolves true on Solve, false on Cancel or when
 * `signal` aborts. Used by both pages; the ids are `${prefix}-question`, `-start` and `-cancel` (two
 * questions may be open at once: Shut the Box's Solo uses "solo-solve"), and the body's `data-${flag}`
 * reads "ask" meanwhile.
 */
export function solveQuestion(box, status, { signal, what = "", prefix = "solve", flag = "solve" } = {}) {
  const name = status.name;
  const text = document.createElement("span");
  text.id = `${prefix}-question`;
  // a player's question first (the rules and the time it takes); the file and its sizes as the command line
  // says them one click away
  const time = status.seconds ? `about ${durationWords(status.seconds)}` : "a time nobody can say beforehand";
  const said = document.createElement("details");
  said.append(Object.assign(document.createElement("summary"), { textContent: "as the command line says it" }),
    `The table ${name} is not solved yet${status.error ? `: ${status.error.replace(/\.$/, "")}` : ""}. Solving it makes `
    + `${status.words || "a table of a size nobody can say beforehand"}`
    + `${status.damaged ? "; it replaces the cached copy, which is damaged" : ""}.`);
  text.append(`${what ? `These rules (${what})` : "These rules"} have not been worked out yet`
    + `${status.error ? ", or their last working out stopped" : ""}. Working them out takes ${time} on this computer`
    + `${status.damaged ? " (the copy kept is damaged)" : ""}. Solve them now? `, said);
  const yes = document.createElement("button");
  const no = document.createElement("button");
  Object.assign(yes, { type: "button", id: `${prefix}-start`, className: "primary", textContent: "Solve" });
  Object.assign(no, { type: "button", id: `${prefix}-cancel`, textContent: "Cancel" });
  const row = document.createElement("span");
  row.className = "solve-question";
  row.append(text, " ", yes, " ", no);
  box.append(row);
  box.hidden = false;
  document.body.dataset[flag] = "ask";
  yes.focus();
  return new Promise((resolve) => {
    const done = (answer) => { row.remove(); resolve(answer); };
    yes.addEventListener("click", () => done(true), { once: true });
    no.addEventListener("click", () => done(false), { once: true });
    signal?.addEventListener("abort", () => done(false), { once: true });
  });
}

/** A Cancel button (`${prefix}-cancel`) in `box` while a table is solved: aborts `controller` (which stops
 * the solve). */
export function cancelButton(box, controller, prefix = "solve") {
  const button = document.createElement("button");
  Object.assign(button, { type: "button", id: `${prefix}-cancel`, textContent: "Cancel" });
  button.addEventListener("click", () => controller.abort(new DOMException("The solve was cancelled.", "AbortError")));
  box.append(" ", button);
  return () => button.remove();
}
