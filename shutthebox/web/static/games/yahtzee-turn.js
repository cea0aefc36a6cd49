/* One turn of full Yahtzee, solved when asked from the table's turn-start values: a port of
 * shutthebox/games/yahtzee/turn.py (docs/YAHTZEE.md, "Question time"), with the same exact arithmetic.
 *
 *   V0(r)    = max over the boxes c roll r may go in of  points(c, r) + T(the state after c)
 *   E_R(K)   = (E(K + 1) + ... + E(K + 6)) / 6 over the keep tree,  E(K) = V(R-1)(K) for five dice
 *   VR(r)    = max(V0(r), max over keeps K, proper sub-multisets of r, of E_R(K))
 *
 * Every stored float64 is an integer multiple of 2^-52 (every non-zero turn value is at least 1), so
 * the values are BigInt numerators over 2^52 x 6^(5R) (no division): a choice's value, the mid-turn
 * value and a loss are the exact rationals computed from the stored values, printed by exact rounding
 * (halves to even), digit for digit what `ShutTheBox yahtzee --options` prints. The best proper
 * sub-keep of every roll comes from the keep tree: B(K) = max(E(K), B(K without one of its dice)).
 * Choices within TIE of each other are ordered by the tie rule: scoring before keeping, boxes in the
 * order of the card, more dice kept, then the lowest dice, keeping all five last. */

import { CHILDREN, LEVELS, PARENTS, WHERE, subKeeps } from "./keeps.js";
import { CATEGORIES, DICE, FIFTY, OPEN, ROLLS, SIDES, SIXES, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, boxChoices, openBoxes,
  score, stateIndex, yahtzeeBonus } from "./yahtzee-rules.js";

export const SCALE_BITS = 52;
export const TIE = 1e-9;
const ONE = 1n << BigInt(SCALE_BITS);
const SIX5 = 6n ** BigInt(DICE);

// -- the keep tree (turn.py's make_tables: keeps.js) and each roll's scores -----------------

/** SCORES[c][r]: box c's printed score of roll r. */
const SCORES = CATEGORIES.map((_, c) => ROLLS.map((roll) => score(c, roll)));
const RANK = WHERE[DICE];
const YAHTZEES = Array.from({ length: SIDES }, (_, f) => RANK.get(String(f + 1).repeat(DICE)));

/** [E_0, ..., E_4] as numerators: level k over (the denominator of `values`) x 6^(5 - k). */
function means(values) {
  const levels = Array(DICE).fill(null);
  levels.push(values);
  for (let k = DICE - 1; k >= 0; k--) {
    const above = levels[k + 1], children = CHILDREN[k];
    levels[k] = LEVELS[k].map((_, i) => above[children[0][i]] + above[children[1][i]] + above[children[2][i]] +
      above[children[3][i]] + above[children[4][i]] + above[children[5][i]]);
  }
  return levels.slice(0, DICE);
}

const maxOf = (a, b) => (a > b ? a : b);

/** The denominator of the values of a turn's choices with `rerolls` left: 2^52 x 6^(5R). */
export const denominator = (rerolls) => ONE * 6n ** BigInt(DICE * rerolls);

// -- one turn ---------------------------------------------------------------------------------

/** The choices of one turn-start state: later(card, upper, box) gives the table's turn-start value (a
 * float) of a state one box later. */
export class Turn {
  constructor(joker, card, upper, box, later) {
    Object.assign(this, { joker, card, upper: Math.min(upper, UPPER_GOAL), box, later });
    this.afterValues = new Map();
    this.v0Values = null;
    this.keepValues = new Map(); // R -> the values of the keeps, by level
    this.rollValues = new Map(); // R -> the values of the rolls
  }

  value(card, upper, box) {
    const value = this.later(card, upper, box);
    if (value && !(value >= 1)) throw new Error(`a turn-start value below 1 (${value}) is not a multiple of 2^-52`);
    return BigInt(value * 2 ** SCALE_BITS);
  }

  /** The numerator (over 2^52) of `points` scored in box c (the upper bonus included, the Yahtzee bonus
   * not) plus the table's value of the state after it. */
  after(c, points) {
    const key = c <= SIXES || c === YAHTZEE ? c * 64 + points : c * 64;
    let found = this.afterValues.get(key);
    if (found === undefined) {
      let { upper, box } = this, extra = 0;
      if (c <= SIXES) {
        upper = Math.min(this.upper + points, UPPER_GOAL);
        if (this.upper < UPPER_GOAL && UPPER_GOAL <= this.upper + points) extra = UPPER_BONUS;
      } else if (c === YAHTZEE) {
        box = points ? FIFTY : ZERO;
      }
      found = this.value(this.card & ~(1 << c), upper, box);
      if (c <= SIXES || c === YAHTZEE) found += BigInt(points + extra) * ONE;
      this.afterValues.set(key, found);
    }
    return c <= SIXES || c === YAHTZEE ? found : BigInt(points) * ONE + found;
  }

  /** [[box, numerator over 2^52]]: where the sorted roll may be scored, each box's points (bonuses
   * included) plus the value after it, in the order of the card. */
  scoring(roll) {
    const extra = BigInt(yahtzeeBonus(this.joker, this.box, roll)) * ONE;
    return boxChoices(this.joker, this.card, this.box, roll).map(([c, points]) => [c, this.after(c, points) + extra]);
  }

  /** V0 of the 252 rolls, numerators over 2^52. */
  v0() {
    if (!this.v0Values) {
      const columns = openBoxes(this.card).map((c) => {
        const byPoints = new Map();
        return SCORES[c].map((points) => {
          let v = byPoints.get(points);
          if (v === undefined) byPoints.set(points, (v = this.after(c, points)));
          return v;
        });
      });
      const values = ROLLS.map((_, r) => columns.reduce((best, column) => maxOf(best, column[r]), columns[0][r]));
      if (this.box !== OPEN && this.joker !== "none") {
        for (const r of YAHTZEES) values[r] = this.scoring(ROLLS[r]).reduce((best, [, v]) => maxOf(best, v), -1n);
      }
      this.v0Values = values;
    }
    return this.v0Values;
  }

  /** [E_R of the keeps of 0..4 dice, by level], numerators over 2^52 x 6^(5R), R >= 1. */
  keeps(rerolls) {
    let found = this.keepValues.get(rerolls);
    if (!found) {
      const m = means(this.values(rerolls - 1));
      found = m.map((level, k) => (k ? level.map((v) => v * 6n ** BigInt(k)) : level));
      this.keepValues.set(rerolls, found);
    }
    return found;
  }

  /** V_R of the 252 rolls, numerators over 2^52 x 6^(5R). */
  values(rerolls) {
    if (rerolls === 0) return this.v0();
    let found = this.rollValues.get(rerolls);
    if (!found) {
      const scaled = this.keeps(rerolls);
      let best = scaled[0];
      for (let k = 1; k < DICE; k++) { // B(K) = max(E(K), B(K without one of its dice))
        const below = best, parents = PARENTS[k];
        best = scaled[k].map((v, i) => parents.reduce((m, parent) => maxOf(m, below[parent[i]]), v));
      }
      const scale = 6n ** BigInt(DICE * rerolls), parents = PARENTS[DICE];
      found = this.v0().map((v, r) => parents.reduce((m, parent) => maxOf(m, best[parent[r]]), v * scale));
      this.rollValues.set(rerolls, found);
    }
    return found;
  }

  /** [numerator, denominator]: the turn-start value computed from the states one box later (the table
   * stores it; this is its check). */
  start() {
    return [means(this.values(2))[0][0], ONE * 6n ** BigInt(3 * DICE)];
  }

  /** [{ value (numerator over 2^52 x 6^(5R)), text, move }] of every legal choice for the sorted roll with
   * `rerolls` left, in the tie rule's order. move: ["score", box] or ["keep", kept dice]. */
  listed(roll, rerolls) {
    const scale = 6n ** BigInt(DICE * rerolls);
    const listed = this.scoring(roll).map(([c, v]) => ({ value: v * scale, text: "score " + CATEGORIES[c], move: ["score", c] }));
    if (rerolls) {
      const keeps = this.keeps(rerolls);
      for (const { level, position, keep, text } of subKeeps(roll)) listed.push({ value: keeps[level][position], text, move: ["keep", keep] });
      listed.push({ value: this.values(rerolls - 1)[RANK.get(roll.join(""))] * SIX5, text: "keep " + roll.join(" "), move: ["keep", [...roll]] });
    }
    return listed;
  }

  /** { denominator, choices }: every legal choice, best first, ties (within TIE) in the tie rule's order. */
  choices(roll, rerolls) {
    const d = denominator(rerolls);
    return { denominator: d, choices: ordered(this.listed(roll, rerolls), d) };
  }

  /** The best choice (choices' first). */
  best(roll, rerolls) {
    const listed = this.listed(roll, rerolls);
    const top = listed.reduce((m, choice) => maxOf(m, choice.value), listed[0].value) - tieOf(denominator(rerolls));
    return listed.find((choice) => choice.value >= top);
  }
}

/** int(TIE * denominator) as Python computes it: the denominator as the nearest float64, times 1e-9, truncated. */
const tieOf = (d) => BigInt(Math.trunc(Number(d) * TIE));

/** The choices given in the tie rule's order, sorted best first: stable, by value, values within TIE of a
 * group's best counting as equal. */
export function ordered(listed, d) {
  const tie = tieOf(d);
  const byValue = listed.map((_, i) => i).sort((i, j) => (listed[j].value > listed[i].value) - (listed[j].value < listed[i].value));
  const out = [];
  let group = [], top = null;
  const flush = () => out.push(...group.sort((a, b) => a - b).map((i) => listed[i]));
  for (const i of byValue) {
    if (top !== null && top - listed[i].value > tie) { flush(); group = []; }
    if (!group.length) top = listed[i].value;
    group.push(i);
  }
  flush();
  return out;
}

/** `%.6f` of the exact fraction numerator / d (halves to even), BigInts. */
export function decimal(numerator, d) {
  if (numerator < 0n) return "-" + decimal(-numerator, d);
  let whole = (numerator * 1000000n) / d;
  const rest = (numerator * 1000000n) % d;
  if (2n * rest > d || (2n * rest === d && whole & 1n)) whole += 1n;
  return `${whole / 1000000n}.${String(whole % 1000000n).padStart(6, "0")}`;
}

/** The float64 nearest numerator / d (BigInts, numerator >= 0), as Python's int / int gives it. */
export function ratio(numerator, d) {
  if (numerator === 0n) return 0;
  const shift = Math.max(0, 66 - (numerator.toString(2).length - d.toString(2).length));
  const scaled = numerator << BigInt(shift);
  const q = scaled / d;
  // one sticky bit below the quotient's 65+ bits: the conversion rounds to nearest, ties to even, as one rounding
  return Number((q << 1n) | (scaled % d ? 1n : 0n)) / 2 ** (shift + 1);
}

// -- turns of a table -----------------------------------------------------------------------

const KEPT = 256; // solved turns kept per table (a Play game and Coach ask many on one card)
const TURNS = new WeakMap();

/** The solved turn of a valid state with a box open on `table` (its `turn` array, its joker rule), kept
 * for later questions. */
export function turnOf(table, joker, card, upper, box) {
  let turns = TURNS.get(table);
  if (!turns) TURNS.set(table, (turns = new Map()));
  const key = `${card}/${Math.min(upper, UPPER_GOAL)}/${box}`;
  let found = turns.get(key);
  if (found) turns.delete(key);
  else {
    if (turns.size >= KEPT) turns.delete(turns.keys().next().value); // the least recently asked
    const values = table.arrays.turn;
    found = new Turn(joker, card, upper, box, (c, u, b) => values[stateIndex(c, u, b)]);
  }
  turns.set(key, found);
  return found;
}

/**
 * Every legal choice with its exact value and loss, best first, as `--options` prints them:
 * -> { value: the mid-turn value (the best choice's, "%.6f"), best: its text, choices: [{ text, move,
 *      value, loss ("%.6f" exact), lossFloat (the float64 nearest the loss, as `review` computes it),
 *      numerator }], denominator, line: the `--options` line }.
 */
export function optionsOf(turn, roll, rerolls) {
  const { denominator: d, choices } = turn.choices(roll, rerolls);
  const best = choices[0].value;
  const listed = choices.map(({ value, text, move }) => {
    const loss = best > value ? best - value : 0n;
    return { text, move, numerator: value, value: decimal(value, d), loss: decimal(loss, d), lossFloat: ratio(loss, d) };
  });
  return { value: decimal(turn.best(roll, rerolls).value, d), best: listed[0].text, choices: listed, denominator: d,
    line: listed.map((c) => `${c.text} ${c.value} ${c.loss}`).join("; ") };
}

/** The keep tree, for the target mode's turn in floats (yahtzee-target-turn.js): the levels, each keep's
 * children and parents, and the sub-keeps of a roll in the tie rule's order. */
