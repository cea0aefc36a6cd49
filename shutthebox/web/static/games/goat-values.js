/* Goat's one-step evaluation: the win chance of every legal action at a two-player decision.
 * The table stores only the best action's value; any action's is exact from the table one roll
 * ahead, as the solver's turn engine computes it (shutthebox/games/goat/solver.py, optimal.py). */

import { DICE, NEEDS, ROLLS, SLOTS, actionText, locate, slot } from "./goat-table.js";

/** One throw of k dice: { match: chance of two equal faces, sums: [[sum, chance]] }; each set of k
 * different faces shows in k! of the 6^k ordered throws (as goat/dice.py counts them). */
function throwLaw(k) {
  const counts = new Map();
  const pick = (from, left, sum) => {
    if (!left) { counts.set(sum, (counts.get(sum) || 0) + 1); return; }
    for (let face = from; face <= 6; face++) pick(face + 1, left - 1, sum + face);
  };
  pick(1, k, 0);
  let orders = 1;
  for (let i = 2; i <= k; i++) orders *= i;
  const throws = 6 ** k;
  let different = 0;
  for (const n of counts.values()) different += n * orders;
  return { match: (throws - different) / throws,
    sums: [...counts].sort((a, b) => a[0] - b[0]).map(([sum, n]) => [sum, (n * orders) / throws]) };
}
export const THROWS = Array.from({ length: DICE + 1 }, (_, k) => (k ? throwLaw(k) : null));

/**
 * The mover's win chance when the turn ends with ``gain`` banked (0: a match), as optimal.py's payoffs:
 * the first player's turn hands the second the move (or its last turn, at or past the goal); the
 * second reaching the goal while the first is below it wins; the last turn wins above the mark, ties on it.
 */
export function gainValue(table, p, gain) {
  const G = table.rules.goal, a = table.arrays;
  const total = p.my + gain;
  if (p.player === 1) {
    if (total >= G) return 1 - a.last[(Math.min(Math.max(total - p.opp, 1), NEEDS) - 1) * SLOTS];
    return 1 - a.two[(p.opp * G + total) * SLOTS];
  }
  if (p.opp < G) return total >= G ? 1 : 1 - a.one[(p.opp * G + total) * SLOTS];
  const need = Math.min(p.opp - p.my, NEEDS);
  return gain > need ? 1 : gain === need ? 0.5 : 0;
}

/**
 * Every legal action's win chance at the decision p = { player: 1 | 2, my, opp, turn, rolls } (the
 * Coach's question; InvalidQuestion if it cannot occur). Stop is legal after the first roll only.
 * -> { best: the table's action, value: the table's value, actions: [{ action, text, value }] }
 */
export function actionValues(table, p) {
  const [name, index] = locate(table, p);
  const here = table.arrays[name];
  const base = index - slot(p.rolls, p.turn); // the row of this position; the slot is the last axis
  const actions = [];
  if (p.rolls > 0) actions.push({ action: 0, value: gainValue(table, p, p.turn) });
  const matched = gainValue(table, p, 0);
  for (let k = 1; k <= DICE; k++) {
    const { match, sums } = THROWS[k];
    let value = match * matched;
    for (const [sum, chance] of sums) {
      const turn = p.turn + sum;
      value += chance * (p.rolls + 1 === ROLLS ? gainValue(table, p, turn) : here[base + slot(p.rolls + 1, turn)]);
    }
    actions.push({ action: k, value });
  }
  for (const a of actions) a.text = actionText(a.action);
  return { best: table.arrays[name + "_move"][index], value: here[index], actions };
}

/** Win chance given up by ``action`` against the table's best, from actionValues (0 when optimal). */
export function costOf(values, action) {
  if (action === values.best) return 0;
  const chosen = values.actions.find((a) => a.action === action);
  return Math.max(0, values.value - chosen.value);
}
