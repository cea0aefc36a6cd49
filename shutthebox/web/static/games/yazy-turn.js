/* One turn of yazy worked out when asked, in float64, from the values of scoring each roll: a port of
 * engine/dicekeep.py (the keep tree and its means) and games/yazy/turn.py (the choices and the tie rule), doing
 * the same operations in the same order, so that every value is the command line's to the last bit:
 *
 *   E_R(K) = (((((E(K + 1) + E(K + 2)) + E(K + 3)) + E(K + 4)) + E(K + 5)) + E(K + 6)) / 6,  E_R(r) = V(R-1)(r)
 *   VR(r)  = max(V0(r), max over the proper sub-keeps K of r of E_R(K))
 *
 * The target mode (V0 from the chance to reach X, yazy-table.js) and two players (V0 from the chance to win,
 * yazy-duel.js) give V0 as one column a category; a value is printed only when its error bound keeps it away
 * from a 6-decimal rounding midpoint (engine/printing.py's checked). No DOM. */


import { CATEGORIES, DICE, ROLLS, SIDES } from "./yazy-rules.js";

/** Choices whose values differ by less than this are tied (turn.py's TIE). */
export const TIE = 1e-11;

/** LEVELS[k]: the keeps of k dice, sorted, in lexicographic order (level 5: the 252 rolls). */
const LEVELS = [[[]]];
for (let k = 1; k <= DICE; k++) {
  const level = [];
  for (const keep of LEVELS[k - 1]) for (let face = keep.length ? keep[k - 2] : 1; face <= SIDES; face++) level.push([...keep, face]);
  LEVELS.push(level);
}
const WHERE = LEVELS.map((level) => new Map(level.map((keep, i) => [keep.join(""), i])));
/** CHILDREN[k][face - 1][i]: the position in level k + 1 of keep i of level k plus that face. */
const CHILDREN = LEVELS.slice(0, DICE).map((level, k) => Array.from({ length: SIDES }, (_, f) =>
  Int32Array.from(level, (keep) => WHERE[k + 1].get([...keep, f + 1].sort((a, b) => a - b).join("")))));
/** PARENTS[k][j][i]: the position in level k - 1 of keep i of level k without its (j+1)-th smallest die. */
const PARENTS = LEVELS.map((level, k) => Array.from({ length: k }, (_, j) =>
  Int32Array.from(level, (keep) => WHERE[k - 1].get(keep.filter((_, at) => at !== j).join("")))));

/** [E_0, ..., E_4, values]: the mean over every keep of each level, from the values of the 252 rolls. */
export function keepMeans(values) {
  const out = [...Array(DICE).fill(null), values];
  for (let k = DICE - 1; k >= 0; k--) {
    const up = out[k + 1], [a, b, c, d, e, f] = CHILDREN[k];
    out[k] = Float64Array.from(a, (_, i) => (((((up[a[i]] + up[b[i]]) + up[c[i]]) + up[d[i]]) + up[e[i]]) + up[f[i]]) / SIDES);
  }
  return out;
}

/** For each roll, the best of `means` over its proper sub-keeps: B(K) = max(E(K), B(K less one die)). */
export function bestSubKeeps(means) {
  let best = means[0];
  const maxOver = (parents, own) => Float64Array.from(parents[0], (_, i) => {
    let top = own ? own[i] : -Infinity;
    for (const parent of parents) top = Math.max(top, best[parent[i]]);
    return top;
  });
  for (let k = 1; k < DICE; k++) best = maxOver(PARENTS[k], means[k]);
  return maxOver(PARENTS[DICE], null);
}

const SUBS = new Map();
/** [{ level, position, text }] of the proper sub-keeps of the sorted `roll`, in the tie rule's order: more dice
 * first, then the lowest. */
export function subKeeps(roll) {
  const key = roll.join("");
  let found = SUBS.get(key);
  if (!found) {
    const keeps = new Map();
    for (let bits = 0; bits < (1 << DICE) - 1; bits++) {
      const keep = roll.filter((_, at) => (bits >> at) & 1);
      keeps.set(keep.join(""), keep);
    }
    found = [...keeps.values()].sort((a, b) => b.length - a.length || (a.join("") < b.join("") ? -1 : 1))
      .map((keep) => ({ level: keep.length, position: WHERE[keep.length].get(keep.join("")),
        text: "keep " + (keep.length ? keep.join(" ") : "none") }));
    SUBS.set(key, found);
  }
  return found;
}

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

