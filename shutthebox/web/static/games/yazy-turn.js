/* One turn of yazy worked out when asked, in float64, from the values of scoring each roll: a port of
 * engine/dicekeep.py (the keep tree and its means: keeps.js) and games/yazy/turn.py (the choices and the tie rule), doing
 * the same operations in the same order, so that every value is the command line's to the last bit:
 *
 *   E_R(K) = (((((E(K + 1) + E(K + 2)) + E(K + 3)) + E(K + 4)) + E(K + 5)) + E(K + 6)) / 6,  E_R(r) = V(R-1)(r)
 *   VR(r)  = max(V0(r), max over the proper sub-keeps K of r of E_R(K))
 *
 * The target mode (V0 from the chance to reach X, yazy-table.js) and two players (V0 from the chance to win,
 * yazy-duel.js) give V0 as one column a category; a value is printed only when its error bound keeps it away
 * from a 6-decimal rounding midpoint (engine/printing.py's checked). No DOM. */


import { bestSubKeeps, keepMeans, subKeeps } from "./keeps.js";
import { CATEGORIES, ROLLS } from "./yazy-rules.js";

/** Choices whose values differ by less than this are tied (turn.py's TIE). */
export const TIE = 1e-11;

/**
 * The choices of roll number `r` with `rerolls` left, in the tie rule's order (turn.py's Turn.choices): scoring
 * each open category (in their order), then each proper sub-keep. `scoring`: [[c, V0 column of c over the 252
 * rolls]] of the open categories in their order. -> [[value, move text]].
 */
export function turnChoices(scoring, r, rerolls) {
  const out = scoring.map(([c, column]) => [column[r], "score " + CATEGORIES[c]]);
  if (!rerolls) return out;
  const v0 = Float64Array.from(ROLLS, (_, i) => Math.max(...scoring.map(([, column]) => column[i])));
  let v = v0, means = null;
  for (let n = 0; n < rerolls; n++) {
    means = keepMeans(v);
    if (n + 1 === rerolls) break; // the next reroll's values are not needed
    const subs = bestSubKeeps(means);
    v = Float64Array.from(v0, (x, i) => Math.max(x, subs[i]));
  }
  for (const { level, position, text } of subKeeps(ROLLS[r])) out.push([means[level][position], text]);
  return out;
}

/** [the best value, the move the tie rule picks]: the first within TIE of the best. */
export function best(choices) {
  const top = Math.max(...choices.map(([value]) => value));
  return [top, choices.find(([value]) => value >= top - TIE)[1]];
}

