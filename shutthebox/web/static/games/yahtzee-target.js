/* Yahtzee's target tables (docs/FORMAT.md section 12, docs/YAHTZEE.md "Reach a score"), written from that
 * section: T(s, x), the highest chance at the start of a turn in state s that the points still to come reach x.
 * Which table answers a card (the whole game's, or the reduced one of the game from the card, as
 * target/reduced/rules.py names it), what the page reads, the file's checks, and the turn-start chance as
 * `ShutTheBox yahtzee --target X --expect CARD` prints it, refused in its words. No DOM: web/answer.mjs runs it
 * in Node.js, the page (games/yahtzee.js) in the browser. Mid-turn chances: yahtzee-target-turn.js.
 *
 *   const table = targetTable(readTable(bytes, targetSpec("official", name).options));
 *   startChance(table, 5384, 51, FIFTY, 67)   // 0.8549007471356602 (section 12's worked example)
 */

import { TableError } from "../lib/format.js";
import { InvalidQuestion } from "../lib/notation.js";
import { CATEGORIES, FIFTY, OPEN, STATES, UPPER, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, canHold, formatCard, rulesOf,
  stateIndex } from "./yahtzee-rules.js";

export const GAME = "yahtzee-target";
export const NOWHERE = 2 ** 32 - 1; // the position of a state a reduced table does not hold
const CODES = "123456tfhslyc"; // Verhoeff's letters: a reduced table's name
const BOX_WORDS = { [OPEN]: "open", [ZERO]: "0", [FIFTY]: "50" };
const MOST_BOX = [5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30]; // the most each box scores
const MOST_UPPER = Array.from({ length: 64 }, (_, u) => [0, 1, 2, 3, 4, 5].reduce((s, j) => s + ((u >> j) & 1 ? 5 * (j + 1) : 0), 0));
/** A card whose reduced table would take longer to solve is answered from the whole game's (reduced/rules.py). */
export const FIRST_USE_SECONDS = 60;


// -- which table answers a card (target/reduced/rules.py)

/** [card, upper, box] of the game from the turn-start state: the same for every state that is the same game. */
export function normal(joker, card, upper, box) {
  upper = Math.min(upper, UPPER_GOAL);
  if (upper < UPPER_GOAL && upper + MOST_UPPER[card & UPPER] < UPPER_GOAL) upper = 0; // the bonus out of reach
  if (box !== OPEN && joker === "none") box = ZERO; // no bonus, no joker: 0 and 50 alike
  return [card, upper, box];
}

/** The whole game's table file. */
export const wholeName = (joker) => `${GAME}.${joker}.msgpack`;

/** The reduced table file of the game from the turn-start state (normalised first): 4hlc-u51-y50. */
export function reducedName(joker, card, upper, box) {
  const [c, u, b] = normal(joker, card, upper, box);
  const letters = [...CODES].filter((_, i) => (c >> i) & 1).join("") || "none";
  return `${GAME}.${joker}.${letters}-u${u}-y${BOX_WORDS[b]}.msgpack`;
}

/** At most how many (state, x) rows the reduced solve works out (reduced/rules.py's rows). */
function rows(joker, card, upper, box) {
  const bonus = joker === "none" ? 0 : 100;
  const upperOpen = card & UPPER;
  let count = 0;
  for (let still = card; ; still = (still - 1) & card) { // every subset of the card, the card first
    const closed = upperOpen & ~still;
    const totals = new Set(reachOf(closed).map((t) => upper + t));
    const need = Math.max(UPPER_GOAL - MOST_UPPER[still & UPPER], 0);
    const live = [...totals].filter((t) => t >= need && t < UPPER_GOAL).length + ([...totals].some((t) => t >= UPPER_GOAL) ? 1 : 0);
    const dead = [...totals].some((t) => t < need && t < UPPER_GOAL) ? 1 : 0;
    const boxes = box !== OPEN || (still >> YAHTZEE) & 1 ? 1 : 2;
    let points = MOST_BOX.reduce((s, most, c) => s + ((still >> c) & 1 ? most : 0), 0);
    points += bonus * popcount(still) + (live ? UPPER_BONUS : 0);
    count += (live + dead) * boxes * (points + 1);
    if (!still) return count;
  }
}
const popcount = (n) => { let k = 0; for (; n; n &= n - 1) k++; return k; };
/** The totals the upper boxes `closed` (bit j - 1: box j) can hold together. */
const reachOf = (closed) => Array.from({ length: 106 }, (_, t) => t).filter((t) => canHold(UPPER & ~closed, t));

/** Whether the command line solves the card's reduced table on first use (else the whole game's): its estimate
 * within FIRST_USE_SECONDS and 2 GB (reduced/rules.py's estimate; engine/store.py's MEMORY_LIMIT). */
export function solvesReduced(joker, card, upper, box) {
  const count = rows(joker, ...normal(joker, card, upper, box));
  return 0.5 + 12e-6 * count <= FIRST_USE_SECONDS && 100e6 + 50 * count <= 2e9;
}

/** The command line that solves the table answering the card (the reader and the page solve nothing else). */
export function solveCommand(joker, card, upper, box) {
  const rule = joker === "official" ? "" : ` --joker ${joker}`;
  if (!solvesReduced(joker, card, upper, box)) return `ShutTheBox yahtzee${rule} --target 0 --expect all --allow-large`;
  const [c, u, b] = normal(joker, card, upper, box);
  const words = [formatCard(c), ...(u ? [`--upper ${u}`] : []), ...(b === OPEN ? [] : [`--yahtzee-box ${b === FIFTY ? 50 : 0}`])];
  return `ShutTheBox yahtzee${rule} --target 0 --expect ${words.join(" ")}`;
}

// -- reading a table

/** A descriptor's shape when it is one whole number (a 1-D array), else a shape no file has. */
const flat = (d) => (d && Array.isArray(d.shape) && d.shape.length === 1 && Number.isSafeInteger(d.shape[0]) ? d.shape : ["n"]);

/** lib/format.js's options for the target table `name` of the joker rule `joker` (the rows are the file's). */
export function targetSpec(joker, name) {
  return {
    name, game: GAME, rules: rulesOf(joker),
    // position is the whole game's index; offsets and chance as long as the file's descriptors say (checked after)
    arrays: (header, given) => ({ position: ["<u4", [STATES]],
      ...(given ? { offsets: ["<u4", flat(given.offsets)], chance: ["<f8", flat(given.chance)] } : {}) }),
    fields: (h) => (parsedStart(h.start) === null ? `has no start state ${JSON.stringify(h.start)}`
      : typeof h.unsure !== "string" || !/^(\d+(,\d+)*)?$/.test(h.unsure) ? "has no list of unsure chances" : null),
  };
}

/** [card, upper, box] of the header's `start` ("c,u,y"), or null. */
function parsedStart(text) {
  const m = typeof text === "string" && /^(\d+),(\d+),(\d+)$/.exec(text);
  if (!m) return null;
  const [card, upper, box] = m.slice(1).map(Number);
  return card < 1 << CATEGORIES.length && upper <= UPPER_GOAL && box <= FIFTY ? [card, upper, box] : null;
}

/** A read table (lib/format.js) as the questions use it: { name, joker, start, unsure, position, offsets, chance },
 * refused (TableError) when its offsets do not end at its chances' length. */
export function targetTable(read) {
  const { position, offsets, chance } = read.arrays;
  if (offsets.length < 1 || offsets[offsets.length - 1] !== chance.length) {
    throw new TableError(`table file ${read.name} is not a valid Yahtzee target table (its offsets); delete it to solve it again`);
  }
  return { name: read.name, read, joker: read.rules.joker, start: parsedStart(read.header.start),
    unsure: new Set(read.header.unsure ? read.header.unsure.split(",").map(Number) : []), position, offsets, chance };
}

/** [card, upper, box]: a state the table does not hold asked as the state of the same game it may hold. */
export function heldState(table, card, upper, box) {
  return table.position[stateIndex(card, upper, box)] === NOWHERE ? normal(table.joker, card, upper, box) : [card, upper, box];
}

/** [first, end]: where state `number`'s chances are; InvalidQuestion when the table does not hold it, TableError
 * for a position or offsets pointing outside the arrays. */
export function row(table, number) {
  const i = table.position[number];
  if (i === NOWHERE) {
    const [card, upper, box] = table.start;
    throw new InvalidQuestion(`this target table holds only the game from ${formatCard(card)} (upper ${upper}` +
      `${box === OPEN ? "" : `, yahtzee box ${box === FIFTY ? 50 : 0}`}); solve the state asked for with its own table`);
  }
  const rowsHeld = table.offsets.length - 1;
  if (i >= rowsHeld) {
    throw new TableError(`table file ${table.name} holds an impossible value: position[${number}] is ${i}, past its ` +
      `${rowsHeld} rows; give a valid table file`);
  }
  const first = table.offsets[i], end = table.offsets[i + 1];
  if (!(first <= end && end <= table.chance.length)) {
    throw new TableError(`table file ${table.name} holds an impossible value: offsets[${i}] and offsets[${i + 1}] are ` +
      `${first} and ${end}, not a row of its ${table.chance.length} chances; give a valid table file`);
  }
  return [first, end];
}

/** The stored chance at `at`, refused (TableError) when it is no chance. */
function stored(table, at) {
  const value = table.chance[at];
  if (!(value >= 0 && value <= 1)) {
    throw new TableError(`table file ${table.name} holds an impossible value: chance[${at}] is ${value}, not a chance (0 to 1)`);
  }
  return value;
}

/** T(state `number`, x) as stored: 1 for x <= 0, 0 beyond the row. */
export function chanceOf(table, number, x) {
  if (x <= 0) return 1;
  const [first, end] = row(table, number);
  return x > end - first ? 0 : stored(table, first + x - 1);
}

/** The turn-start chance of the checked state (card, upper, box) to reach x, refused when the build listed it
 * as unsure (`--target X --expect CARD`). */
export function startChance(table, card, upper, box, x) {
  const held = heldState(table, card, upper, box);
  if (x <= 0) return 1;
  const [first, end] = row(table, stateIndex(...held));
  if (x > end - first) return 0;
  if (table.unsure.has(first + x - 1)) {
    throw new InvalidQuestion("the chance of this question lies within its error bound of a 6-decimal rounding " +
      "midpoint: its 6th decimal cannot be vouched for");
  }
  return stored(table, first + x - 1);
}
