// `goat --duel A B` in the Node reader: the chance that side A, moving first, beats side B from 0 to 0 (a tie is
// half a win), worked out when asked as the command's shutthebox/games/goat/duel.py does (docs/GOAT.md): each
// side's turn laws exactly (whole counts out of 6^18, exact in a double), then the rounds backwards from the goal
// with a bound on the rounding error carried beside each value, so that an answer within its bound of a 6-decimal
// rounding midpoint is refused rather than printed.
import path from "node:path";

import { web } from "./io.mjs";
import { fromTable } from "./runner.mjs";

const { TableError } = await import(path.join(web, "lib", "format.js"));
const { sixDecimals } = await import(path.join(web, "lib", "notation.js"));
const { DICE, MAX_SUM, ROLLS, SLOTS, slot } = await import(path.join(web, "games", "goat-table.js"));

const DEN = 6 ** (ROLLS * DICE); // every turn chance is a whole number of 1 / 6^18
const GAINS = 64; // a turn's gain 0..63
const U = 2 ** -53;
const REL = (GAINS + 8) * U; // one weighted sum's relative rounding, with the chances' and the division's
const MIN_SUM = [0, 1, 3, 6, 10, 15, 21];

/** [k] -> { bust: throws of k dice with two equal faces, sums: throws of each sum 0..21 }, out of 6^k. */
const COUNTS = [null];
for (let k = 1; k <= DICE; k++) {
  const sums = new Array(MAX_SUM[DICE] + 1).fill(0);
  let orders = 1;
  for (let i = 2; i <= k; i++) orders *= i;
  const pick = (from, left, sum) => {
    if (!left) sums[sum] += orders; // a set of k different faces shows in k! orders
    else for (let face = from; face <= 6; face++) pick(face + 1, left - 1, sum + face);
  };
  pick(1, k, 0);
  COUNTS.push({ bust: 6 ** k - sums.reduce((a, b) => a + b, 0), sums });
}

/** One turn's gain law (64 counts out of DEN) of the actions `act(rolls, turn)` (0 stop, K roll K dice), the
 * dice chosen before each roll (duel.py's policy_laws). */
function eachLaw(act) {
  const law = new Array(GAINS).fill(0);
  let mass = [DEN];
  for (let rolls = 0; rolls < ROLLS; rolls++) {
    const next = new Array((rolls + 1) * MAX_SUM[DICE] + 1).fill(0);
    for (let turn = rolls === 0 ? 0 : rolls; turn <= rolls * MAX_SUM[DICE]; turn++) {
      const here = mass[turn];
      if (!here) continue;
      const k = act(rolls, turn);
      if (rolls === 0 && k === 0) throw new TableError("goat: a policy stops before the first roll");
      if (k === 0) law[turn] += here;
      else roll(law, rolls + 1 === ROLLS ? law : next, turn, here, k);
    }
    mass = next;
  }
  return law;
}

/** The same, the dice chosen once a turn: the first roll's K kept (duel.py's once_laws); `base[k][rolls]` the
 * slots' layout (answer-goat.mjs). */
function onceLaw(act, base) {
  const law = new Array(GAINS).fill(0), k = act(0);
  let mass = [DEN];
  for (let rolls = 0; rolls < ROLLS; rolls++) {
    const next = new Array((rolls + 1) * MAX_SUM[DICE] + 1).fill(0);
    const [low, high] = rolls ? [rolls * MIN_SUM[k], rolls * MAX_SUM[k]] : [0, 0];
    for (let turn = low; turn <= high; turn++) {
      const here = mass[turn];
      const action = rolls ? act(base[k][rolls] + turn) : k;
      if (action !== 0 && action !== k) throw new TableError("goat: a policy changes the dice chosen for the turn");
      if (action === 0) law[turn] += here;
      else roll(law, rolls + 1 === ROLLS ? law : next, turn, here, k);
    }
    mass = next;
  }
  return law;
}

/** `here` (a count) rolling k dice from turn total `turn`: a match to gain 0, each sum onto `target`. */
function roll(law, target, turn, here, k) {
  const part = here / 6 ** k, { bust, sums } = COUNTS[k]; // exact: here is a multiple of 6^k
  law[0] += part * bust;
  for (let sum = 0; sum < sums.length; sum++) target[turn + sum] += part * sums[sum];
}

const chances = (law) => law.map((count) => count / DEN);

/** The fixed strategy (k, t) from banked `score`: roll k until the turn total reaches t or the goal. */
const fixedLaw = (k, t, score, goal) => chances(eachLaw((rolls, turn) =>
  (rolls && (turn >= t || score + turn >= goal) ? 0 : k)));

/** A side's laws: first(a, b) moving first at a against b; second(b, a) at b, the first player's a below the goal;
 * end(b, a) the last turn, a at or past it. Each found when first asked, kept for the batch's next duels. */
function sideOf(table, side, base) {
  const goal = table.rules.goal, kept = new Map();
  const once = (key, make) => (kept.has(key) ? kept.get(key) : kept.set(key, make()).get(key));
  if (side !== "optimal") {
    const [k, t] = side, law = (score) => once(score, () => fixedLaw(k, t, score, goal));
    return { first: (a) => law(a), second: (b) => law(b), end: (b) => law(b) };
  }
  const slots = table.rules.choose === "once" ? base.slots : SLOTS;
  const lawOf = (name, row) => once(`${name}${row}`, () => {
    const moves = table.arrays[name], at = row * slots;
    return chances(table.rules.choose === "once" ? onceLaw((here) => moves[at + here], base.base)
      : eachLaw((rolls, turn) => moves[at + slot(rolls, turn)]));
  });
  return { first: (a, b) => lawOf("one_move", a * goal + b), second: (b, a) => lawOf("two_move", b * goal + a),
    end: (b, a) => lawOf("last_move", Math.min(Math.max(a - b, 1), GAINS) - 1) };
}

/** (value, bound): the chance the first side wins from 0 to 0 (duel.py's duel, for one pair). */
function duel(goal, A, B) {
  const high = goal + GAINS - 1, rows = high + GAINS;
  const x = new Float64Array(rows * goal), xErr = new Float64Array(rows * goal); // [a' * goal + b], B to move
  for (let a = goal; a < high; a++) {
    for (let b = 0; b < goal; b++) {
      const law = B.end(b, a);
      let sum = 0;
      for (let h = 0; h < GAINS; h++) sum += law[h] * (a > b + h ? 1 : a === b + h ? 0.5 : 0);
      x[a * goal + b] = sum;
      xErr[a * goal + b] = REL * sum;
    }
  }
  const width = goal + GAINS, v = new Float64Array(goal * width), vErr = new Float64Array(goal * width); // [a * width + b']
  for (let d = 2 * goal - 2; d >= 0; d--) {
    for (let a = Math.max(0, d - goal + 1); a <= Math.min(d, goal - 1); a++) {
      const b = d - a, pa = A.first(a, b), pb = B.second(b, a);
      let c1 = 0, e1 = 0, c2 = 0, e2 = 0;
      for (let g = 1; g < GAINS; g++) {
        c1 += pa[g] * x[(a + g) * goal + b];
        e1 += pa[g] * xErr[(a + g) * goal + b];
        c2 += pb[g] * v[a * width + b + g];
        e2 += pb[g] * vErr[a * width + b + g];
      }
      e1 += REL * c1;
      e2 += REL * c2;
      const loop = 1 - pa[0] * pb[0], w = (c1 + pa[0] * c2) / loop;
      v[a * width + b] = w;
      vErr[a * width + b] = (e1 + pa[0] * e2 + REL * (c1 + pa[0] * c2)) / loop + (w * 4 * U) / loop;
      x[a * goal + b] = c2 + pb[0] * w;
      xErr[a * goal + b] = e2 + pb[0] * vErr[a * width + b] + REL * x[a * goal + b];
    }
  }
  return [v[0], vErr[0] * 1.01];
}

const sideText = (side) => (side === "optimal" ? side : side.join(","));
const sides = new WeakMap(); // table -> side text -> its laws, for a batch's next duels

/** `--duel A B` answered from the goat table `get()` opens (its goal, its moves for an optimal side; `base` the
 * slots of a turn under once, answer-goat.mjs's): the line the command prints; a TableError when its 6th decimal cannot be vouched for (duel.py's checked). */
export function duelText(get, first, second, base) {
  return fromTable(get, (table) => {
    if (!sides.has(table)) sides.set(table, new Map());
    const known = sides.get(table);
    const of = (side) => known.get(sideText(side)) ?? known.set(sideText(side), sideOf(table, side, base)).get(sideText(side));
    const [value, bound] = duel(table.rules.goal, of(first), of(second));
    const scaled = value * 1e6;
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) * 1e-6 <= bound) {
      throw new TableError(`goat: the duel ${sideText(first)} against ${sideText(second)} = ${value.toFixed(12)} lies within ` +
        `its error bound ${bound.toPrecision(2)} of a rounding midpoint; its 6th decimal cannot be vouched for`);
    }
    return sixDecimals(value);
  });
}
