/* The keep tree of five six-sided dice, a port of shutthebox/engine/dicekeep.py shared by the five-dice games'
 * turns (yazy-turn.js, yahtzee-turn.js, yahtzee-target-turn.js): every keep of k dice in order, each keep's
 * children (one more die) and parents (one die less), the proper sub-keeps of a roll in the tie rule's order,
 * and the float64 means and maxima over them in dicekeep.py's order, so that every value is the command line's
 * to the last bit:
 *
 *   E_R(K) = (((((E(K + 1) + E(K + 2)) + E(K + 3)) + E(K + 4)) + E(K + 5)) + E(K + 6)) / 6
 *   B(K)   = max(E(K), B(K less one die)): each roll's best proper sub-keep
 *
 * No DOM. */

import { DICE, SIDES } from "./yazy-rules.js";

/** LEVELS[k]: the keeps of k dice, sorted, in lexicographic order (level 5: the 252 rolls). */
export const LEVELS = [[[]]];
for (let k = 1; k <= DICE; k++) {
  const level = [];
  for (const keep of LEVELS[k - 1]) for (let face = keep.length ? keep[k - 2] : 1; face <= SIDES; face++) level.push([...keep, face]);
  LEVELS.push(level);
}
/** WHERE[k]: a keep of k dice ("1336") -> its position in LEVELS[k]. */
export const WHERE = LEVELS.map((level) => new Map(level.map((keep, i) => [keep.join(""), i])));
/** CHILDREN[k][face - 1][i]: the position in level k + 1 of keep i of level k plus that face. */
export const CHILDREN = LEVELS.slice(0, DICE).map((level, k) => Array.from({ length: SIDES }, (_, f) =>
  Int32Array.from(level, (keep) => WHERE[k + 1].get([...keep, f + 1].sort((a, b) => a - b).join("")))));
/** PARENTS[k][j][i]: the position in level k - 1 of keep i of level k without its (j+1)-th smallest die. */
export const PARENTS = LEVELS.map((level, k) => Array.from({ length: k }, (_, j) =>
  Int32Array.from(level, (keep) => WHERE[k - 1].get(keep.filter((_, at) => at !== j).join("")))));

const SUBS = new Map();
/** [{ level, position, keep, text }] of the proper sub-keeps of the sorted `roll`, in the tie rule's order: more
 * dice first, then the lowest. */
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
      .map((keep) => ({ level: keep.length, position: WHERE[keep.length].get(keep.join("")), keep,
        text: "keep " + (keep.length ? keep.join(" ") : "none") }));
    SUBS.set(key, found);
  }
  return found;
}

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
