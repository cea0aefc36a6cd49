/**
 * Solving a table on first use from the page, through `ShutTheBox serve`
 * (docs/WEB.md, "Solving on first use"): POST /solve/NAME.msgpack starts it,
 * GET follows it until the table is ready to fetch at NAME.msgpack.
 *
 *   await solveTable("t9-2d6-one6-p3.msgpack", ({state, done, total}) => ...);
 *
 * `done`/`total` count the solver's steps; both stay 0 for a solver that
 * reports none (show an indeterminate "Solving..."). Failures throw
 * lib/format.js's TableError with the server's one-line reason.
 */

import { TableError } from "./lib/format.js";

// The header the server asks of a solve: another web site's page cannot send it here.
const HEADERS = { "X-ShutTheBox": "solve" };

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
});

/** The server's status of NAME, or a TableError when no `ShutTheBox serve` answers for it. */
async function ask(url, name, method, signal, command) {
  const response = await fetch(url, { method, headers: method === "POST" ? HEADERS : {}, signal, cache: "no-store" });
  const status = response.headers.get("Content-Type")?.startsWith("application/json")
    ? await response.json() : null;
  if (!status?.state) {
    throw new TableError(`The table ${name} is not solved yet, and this page is not served by \`ShutTheBox serve\`, `
      + `which solves it on first use: run \`ShutTheBox serve\` and open the address it prints`
      + (command ? `, or solve it with \`${command}\`` : "") + ".");
  }
  if (status.state === "failed") throw new TableError(status.error || `The table ${name} cannot be solved.`);
  return status;
}

/**
 * Solve the table file `name` on the server unless it is there already; resolves once it can be
 * fetched. `onProgress({state, done, total})` after each answer; `signal` stops waiting (the server
 * finishes the solve all the same); `command` is the command line that solves it, for the message
 * when the page is not served by `ShutTheBox serve`.
 */
export async function solveTable(name, onProgress, { signal, interval = 250, command } = {}) {
  const url = new URL(`solve/${encodeURIComponent(name)}`, import.meta.url);
  let status = await ask(url, name, "POST", signal, command);
  for (;;) {
    onProgress?.({ state: status.state, done: status.done ?? 0, total: status.total ?? 0 });
    if (status.state === "ready") return status;
    await sleep(interval, signal);
    // "absent": the server forgot it (restarted): ask again
    status = await ask(url, name, status.state === "absent" ? "POST" : "GET", signal, command);
  }
}

/**
 * `fetchIt()` (a promise of the table `name`), or, when it is not there yet (HTTP 404), the server
 * solves it first (`onProgress` as for solveTable) and it is fetched again.
 */
export async function fetchOrSolve(name, fetchIt, onProgress, { signal, command } = {}) {
  try {
    return await fetchIt();
  } catch (error) {
    if (!(error instanceof TableError) || error.status !== 404) throw error;
  }
  await solveTable(name, onProgress, { signal, command });
  return fetchIt();
}
