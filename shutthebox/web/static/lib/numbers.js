/* Numbers as players read them, on both pages: a chance, a cost and an expected score short, their
 * exact six decimals one click away. Every chance, cost or expected score a page shows goes through here.
 *
 *   chance(0.494)                  // <span class="num">49.4%</span>, exact 0.494000
 *   chance(v, a.text)              // the exact text the page already computed (the command line's) kept as given
 *   chanceCost(0.01234)            // "1.2 percentage points", exact 0.012340; { terse: true }: "1.2 points"
 *   score(12.345678)               // "12.3", exact 12.345678: the unit's words stay beside it, alike in both forms
 *   percent(0.494)                 // "49.4%": text only (an SVG title)
 *
 * Short: one decimal. A value that is not 0 (or not 1, for a chance) never reads as one that is: below 0.05 of
 * its unit it reads "<0.1" ("<0.1%", "<0.1 percentage points"), a chance above 99.95% ">99.9%". Exact: the
 * command line's %.6f (lib/printing.js's fixed, or the text given); a cost that is not 0 yet prints as
 * 0.000000 reads "<0.000001" (no cost that counts reads as none).
 *
 * The toggle: a press on any number (a click; it is no button: those inside a button are the button's) or on
 * the page's one "Exact values" button (#exact-values, aria-pressed: the keyboard's way) shows every number of
 * the page exact, again short. Remembered (localStorage), and numbers made later follow it. The short form's
 * `title` gives the exact value, the exact form's the short one. Machine-readable attributes (data-value,
 * data-loss, data-chance) are the callers' and stay exact. */

import { el } from "./ui.js";
import { fixed } from "./printing.js";

const KEY = "shutthebox-exact-values";
const BUTTON = "exact-values";

let exact = false;
try { exact = localStorage.getItem(KEY) === "1"; } catch { /* no storage: short, not remembered */ }

/** One decimal of `x` in its unit; a positive amount below 0.05 as "<0.1". */
const tenths = (x) => (x > 0 && x < 0.05 ? "<0.1" : x.toFixed(1));

/** A chance (0 to 1) as a percent: "49.4%", "<0.1%", ">99.9%". */
export const percent = (chance) => (chance < 1 && chance >= 0.9995 ? ">99.9%" : `${tenths(chance * 100)}%`);

/** A cost's exact text: %.6f, "<0.000001" for one that is not 0 yet prints as 0.000000. */
const costExact = (cost) => (cost > 0 && fixed(cost) === "0.000000" ? "<0.000001" : fixed(cost));

/** A number shown `short`, its exact text a press away. */
export function num(short, exactText) {
  const node = el("span", { class: "num", "data-short": short, "data-exact": exactText });
  shown(node);
  return node;
}

export const chance = (value, exactText = fixed(value)) => num(percent(value), exactText);

export const chanceCost = (cost, { terse = false, exact: exactText = costExact(cost) } = {}) =>
  num(`${tenths(cost * 100)} ${terse ? "points" : "percentage points"}`, exactText);

export const score = (value, exactText = fixed(value)) => num(tenths(value), exactText);

/** An expected score's cost (points, rolls): one decimal, "<0.1" below 0.05. */
export const scoreCost = (cost, exactText = costExact(cost)) => num(tenths(cost), exactText);

function shown(node) {
  const { short, exact: full } = node.dataset;
  node.textContent = exact ? full : short;
  node.title = exact ? `short: ${short}` : `exact: ${full}`;
}

/** Every number of the page short or exact (and the choice remembered). */
export function showExact(on) {
  exact = Boolean(on);
  try { localStorage.setItem(KEY, exact ? "1" : "0"); } catch { /* not remembered */ }
  for (const node of document.querySelectorAll("span.num[data-exact]")) shown(node);
  document.getElementById(BUTTON)?.setAttribute("aria-pressed", String(exact));
}

if (typeof document !== "undefined") {
  const sync = () => document.getElementById(BUTTON)?.setAttribute("aria-pressed", String(exact));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sync);
  else sync();
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest(`#${BUTTON}`) ||
        (target?.closest("span.num[data-exact]") && !target.closest("button, a, label, summary"))) showExact(!exact);
  });
}

/* The tie rule of every page: a choice within the table's `tie` of the best is optimal (lib/play.js, "Ties"). */

/** The tie width of a table: its header's `tie` (0 without one: only equal values tie). */
export const tieOf = (table) => Number(table?.header?.tie) || 0;

/** A choice whose cost (its value's distance below the best) is within the tie width is optimal. */
export const isOptimal = (cost, tie = 0) => cost <= tie;
