/* Two-player yazy (docs/FORMAT.md section 11, docs/YAZY.md "Two players"), written from that document: a
 * question's open sets and totals checked as the command line checks them (duel/rules.py's Positions), the
 * mover's chance W(A, B, d) read from the table (start, first, count, the 48-bit chance, `unsure` refused), and a
 * question inside a turn worked out from the table as duel/turn.py does, in the same float64 operations in the
 * same order (yazy-turn.js), so that every answer is `ShutTheBox yazy --players 2 ...`'s, digit for digit:
 *
 *   winText(table, "all", "all", "0,0")                  // "0.498983" on the game ones,yazy
 *   moveText(table, "all", "all", "0,0", "11222", "0")   // "score yazy"
 *   optionsText(table, "all", "all", "0,0", "11222", "0")  // "score yazy 0.380046 0.000000; score ones ..."
 *
 * Scoring c with p points leads to the opponent's state (B, A - c, -(d + p)), worth 1 - W of it to the mover.
 * No DOM: web/answer.mjs runs it, and the page (yazy-duel-play.js). */

import { TableError } from "../lib/format.js";
import { InvalidQuestion, shownText } from "../lib/notation.js";
import { checked, fixed } from "../lib/printing.js";
import { BEST, CATEGORIES, POINTS, ROLLS, formatSet, openCategories, packed, score, withinGame } from "./yazy-rules.js";
import { TIE, best, turnChoices } from "./yazy-turn.js";
import { turnState } from "./yazy-table.js";

export const ID = "yazy2"; // the duel's element ids' prefix (its Coach and Play)
export const ERROR_BOUND = 2e-13; // absolute (duel/turn.py)
const SCALE = 2 ** 48; // a chance is round(W * 2^48), its high 32 bits and low 16 bits

/** A set of the game's categories in the command line's words: `all` (the game's), `ones,yazy` or `none`. */
export const setWords = (game, mask) => (mask === game.mask ? "all" : formatSet(CATEGORIES, mask));

/** The mover's chance once no category is open for either player: the higher total wins, a tie is half. */
export const over = (d) => (d > 0 ? 1.0 : d === 0 ? 0.5 : 0.0);

/** `--scores S1,S2` as the command line reads it: [the mover's total, the opponent's]. */
export function totals(text) {
  const parts = String(text).split(",");
  if (parts.length !== 2 || !parts.every((part) => /^[0-9]{1,6}$/.test(part))) {
    throw new InvalidQuestion(`scores '${shownText(String(text))}': write the two totals, the mover's then the opponent's, as ` +
      "S1,S2 (whole numbers, 0 or more), such as 120,95");
  }
  return parts.map(Number);
}

const reachable = new Map(); // closed set -> the totals its categories can score together (a Set)

/** The totals the categories `closed` can score together. */
function totalsOf(closed) {
  let sums = reachable.get(closed);
  if (!sums) {
    sums = new Set([0]);
    for (const c of openCategories(closed)) sums = new Set([...sums].flatMap((s) => POINTS[c].map((p) => s + p)));
    reachable.set(closed, sums);
  }
  return sums;
}

/** [A, B, d] of a question's words in the game `game` (yazy-rules.js's gameOf), checked in the command line's order
 * and words: the sets of a mover first or second in the round (or both none: the game is over), totals the closed
 * categories can make. */
export function duelState(game, mine, theirs, scores) {
  const mover = withinGame(game, mine), other = withinGame(game, theirs);
  const a = openCategories(mover).length, b = openCategories(other).length;
  if (!(a === b || a === b + 1)) {
    throw new InvalidQuestion(`the mover has ${a} categor${a === 1 ? "y" : "ies"} open and the opponent ${b}: the mover is ` +
      "first in the round (as many open) or second (one more)");
  }
  const pair = totals(scores);
  for (const [total, mask, whose] of [[pair[0], mover, "the mover's"], [pair[1], other, "the opponent's"]]) {
    const closed = game.mask & ~mask;
    const most = openCategories(closed).reduce((sum, c) => sum + BEST[c], 0);
    if (total > most) throw new InvalidQuestion(`${whose} total ${total} is more than its closed categories can score (${most})`);
    if (!totalsOf(closed).has(total)) {
      throw new InvalidQuestion(`${whose} total ${total} is not a sum its closed categories (${formatSet(CATEGORIES, closed)}) can score`);
    }
  }
  return [mover, other, pair[0] - pair[1]];
}

const unsureOf = new WeakMap();

/** W(mover, other, d) from the table (the state unchecked: d a lead some game reaches). `printed`: refused where
 * the build found the chance within its bound of a rounding midpoint (the table's `unsure`). */
export function chance(table, mover, other, d, printed = false) {
  if (!mover && !other) return over(d);
  const { start, first, count, win_high: high, win_low: low } = table.arrays;
  const code = packed(table.game.mask, mover) * 2 ** table.game.names.length + packed(table.game.mask, other);
  const k = d - first[code];
  if (k < 0) return 0.0;
  const n = count[code];
  if (k >= n) return 1.0;
  const at = start[code];
  if (at + n > high.length) {
    throw new TableError(`table file ${table.name} holds an impossible value: start[${code}] + count[${code}] is ${at + n}, past ` +
      `its ${high.length} chances; give a valid table file`);
  }
  const position = at + k;
  if (printed) {
    let unsure = unsureOf.get(table);
    if (!unsure) {
      unsure = new Set();
      for (let i = 0; i < table.arrays.unsure.length; i++) unsure.add(table.arrays.unsure[i]);
      unsureOf.set(table, unsure);
    }
    if (unsure.has(position)) {
      throw new InvalidQuestion("this chance lies within the table's error bound of a 6-decimal rounding midpoint, so its 6th " +
        "decimal cannot be vouched for (docs/YAZY.md); --move is answered");
    }
  }
  return (high[position] * 65536 + low[position]) / SCALE;
}

/** [[chance, move text]] of every choice of the mover's turn with the roll of `dice` and `rerolls` left, in the tie
 * rule's order (duel/turn.py's DuelTurn): scoring c with p points is worth 1 - W(B, A - c, -(d + p)). */
function choicesAt(table, mover, other, d, dice, rerolls) {
  const { roll, rerolls: left } = turnState(table.game, table.game.mask, dice, rerolls);
  if (!mover) throw new InvalidQuestion("no category is open: the game is over, there is no turn to play");
  const scoring = openCategories(mover).map((c) => {
    const seen = new Map();
    return [c, Float64Array.from(ROLLS, (r) => {
      const points = score(c, r);
      if (!seen.has(points)) seen.set(points, 1.0 - chance(table, other, mover & ~(1 << c), -(d + points)));
      return seen.get(points);
    })];
  });
  return turnChoices(scoring, roll, left);
}

/** Every choice [[chance, move text]] at a mid-turn question's words, in the tie rule's order (probe_options). */
export function duelChoices(table, mine, theirs, scores, dice, rerolls) {
  const [mover, other, d] = duelState(table.game, mine, theirs, scores);
  return choicesAt(table, mover, other, d, dice, rerolls);
}

const sure = (value, what) => checked(value, ERROR_BOUND, "yazy duel: " + what);

/** `--expect A B [DICE REROLLS]`: the mover's chance to win, at the start of the turn or mid-turn. */
export function winText(table, mine, theirs, scores, dice = null, rerolls = null) {
  const [mover, other, d] = duelState(table.game, mine, theirs, scores);
  if (dice === null) return fixed(chance(table, mover, other, d, true));
  return fixed(sure(best(choicesAt(table, mover, other, d, dice, rerolls))[0], "the chance"));
}

/** `--move A B DICE REROLLS`: the move that gives that chance (ties within 1e-11 broken by yazy's rule). */
export const moveText = (table, mine, theirs, scores, dice, rerolls) => best(duelChoices(table, mine, theirs, scores, dice, rerolls))[1];

/** Every choice, best first (chances within TIE of the best in the tie rule's order), its chance and its loss. */
export function rankedChoices(choices) {
  const [top] = best(choices);
  const key = ([value]) => (value >= top - TIE ? -top : -value);
  return { top, listed: [...choices].sort((a, b) => key(a) - key(b)) };
}

/** `--options A B DICE REROLLS`: `CHOICE CHANCE LOSS; ...`, every digit vouched for. */
export function optionsText(table, mine, theirs, scores, dice, rerolls) {
  const { top, listed } = rankedChoices(duelChoices(table, mine, theirs, scores, dice, rerolls));
  return listed.map(([value, move]) => `${move} ${fixed(sure(value, "the chance of " + move))} ` +
    `${fixed(checked(Math.max(top - value, 0.0), 2 * ERROR_BOUND, "yazy duel: the loss of " + move))}`).join("; ");
}
