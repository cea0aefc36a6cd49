/* The value of every choice mid-turn, exactly from the table's arrays one step ahead: the table stores
 * only the best move's value, and Play needs the others to say what a choice cost.
 *
 *   score c:  score(c, roll) + turn[m - c]
 *   keep K:   the mean over the rerolled 5 - |K| dice of expect[m, R - 1, K + those dice]
 *             (each sorted outcome weighted by its multinomial count, divided by 6^n once at the end) */

import { DICE, NO_MOVE, ROLLS, SCORE, SIDES, describeMove, keptDice, openCategories, rankOf, score } from "./yazy-rules.js";

/** OUTCOMES[n]: every sorted outcome of n dice with the number of ordered rolls that give it. */
const OUTCOMES = [];
for (let n = 0; n <= DICE; n++) {
  const list = [];
  const factorial = (k) => (k <= 1 ? 1 : k * factorial(k - 1));
  const walk = (dice, low) => {
    if (dice.length === n) {
      const counts = Array(SIDES + 1).fill(0);
      dice.forEach((d) => counts[d]++);
      list.push({ dice, ways: counts.reduce((w, c) => w / factorial(c), factorial(n)) });
      return;
    }
    for (let d = low; d <= SIDES; d++) walk([...dice, d], d);
  };
  walk([], 1);
  OUTCOMES.push(list);
}

const at = (mask, rerolls, rank) => (mask * 3 + rerolls) * ROLLS.length + rank;

/** Keep codes worth listing on a sorted roll: of equal dice the first are kept (one code per kept
 * multiset), and not all five (that is scoring). */
export const keepCodes = (roll) => Array.from({ length: 31 }, (_, code) => code)
  .filter((code) => roll.every((d, j) => !(j && d === roll[j - 1] && (code >> j) & 1 && !((code >> (j - 1)) & 1))));

/** The maximum expected sum of the scores still to come after move `code` (FORMAT.md 6.6 codes) with
 * the sorted `roll` showing, `rerolls` left and the categories of `mask` open. */
export function choiceValue(table, mask, roll, rerolls, code) {
  const { turn, expect } = table.arrays;
  if (code >= SCORE) {
    const c = code - SCORE;
    if (!((mask >> c) & 1)) throw new Error(`category ${c} is not open`);
    return score(c, roll) + turn[mask & ~(1 << c)];
  }
  if (rerolls < 1) throw new Error("no reroll left: only scoring");
  const kept = keptDice(code, roll);
  let sum = 0;
  for (const { dice, ways } of OUTCOMES[DICE - kept.length]) sum += ways * expect[at(mask, rerolls - 1, rankOf([...kept, ...dice]))];
  return sum / SIDES ** (DICE - kept.length);
}

/**
 * Every choice with its value and its cost against the table's move, the table's move first, the others
 * by value. -> { best: code, value: the table's value, choices: [{ code, move, value, cost }] }
 */
export function choices(table, mask, dice, rerolls) {
  const rank = rankOf(dice), roll = ROLLS[rank];
  const index = at(mask, rerolls, rank);
  const best = table.arrays.move[index], value = table.arrays.expect[index];
  if (best === NO_MOVE) throw new Error(`the table ${table.name} has no move here; rebuild it`);
  const codes = [...openCategories(mask).map((c) => SCORE + c), ...(rerolls ? keepCodes(roll) : [])];
  const list = codes.map((code) => {
    const v = choiceValue(table, mask, roll, rerolls, code);
    // the table's move costs nothing by definition; rounding must not make a tied move cost -1e-15
    return { code, move: describeMove(code, roll), value: v, cost: code === best ? 0 : Math.max(0, value - v) };
  });
  list.sort((a, b) => (b.code === best) - (a.code === best) || b.value - a.value);
  return { best, value, roll, choices: list };
}
