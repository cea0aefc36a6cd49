/* One turn of Yahtzee's target mode, worked out when asked from the target table: a port of
 * shutthebox/games/yahtzee/target/turn.py doing the same float64 operations in the same order, so that every
 * chance is the command line's to the last bit (docs/FORMAT.md section 12, "Error bound and refusals").
 *
 *   V0(r)  = max over the boxes c roll r may go in of  T(s after c, x - points(c, r))
 *   E_R(K) = (((((E(K+1) + E(K+2)) + E(K+3)) + E(K+4)) + E(K+5)) + E(K+6)) / 6,  E_R(r) = V(R-1)(r)
 *   VR(r)  = max(V0(r), max over proper sub-keeps K of r of E_R(K))
 *
 * Maxima are exact; only the means round, in engine/dicekeep.py's order. The move is the first choice within
 * TIE of the best, in the tie rule's order (scoring first, boxes in the card's order, then more dice kept,
 * then the lowest dice); a chance within its error bound of a 6-decimal rounding midpoint is refused. No DOM. */

import { checked } from "../lib/printing.js";
import { CATEGORIES, FIFTY, OPEN, ROLLS, SIXES, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, boxChoices, openBoxes,
  score, stateIndex, yahtzeeBonus } from "./yahtzee-rules.js";
import { bestSubKeeps, keepMeans, subKeeps } from "./keeps.js";
import { chanceOf } from "./yahtzee-target.js";

export const TIE = 1e-11;
const ERROR_BOUND = 2e-13, ABSOLUTE_BOUND = 2e-14; // relative, absolute (target/solver.py)
const isYahtzee = (roll) => roll.every((d) => d === roll[0]);

/** The turn of the held state (card, upper, box) with x points still needed, on the target table `table`. */
export class TargetTurn {
  constructor(table, card, upper, box, x) {
    Object.assign(this, { table, joker: table.joker, card, upper: Math.min(upper, UPPER_GOAL), box, x });
    this.afterValues = new Map();
    this.v0Values = null;
    this.trees = []; // E_1, E_2 as far as asked
  }

  /** T of the state after `points` in box c, for the x left once they, the upper bonus they earn and `extra`
   * (the Yahtzee bonus) are scored. */
  after(c, points, extra = 0) {
    const key = `${c}/${points}/${extra}`;
    let found = this.afterValues.get(key);
    if (found === undefined) {
      let { upper, box } = this, gain = points + extra;
      if (c <= SIXES) {
        upper = Math.min(this.upper + points, UPPER_GOAL);
        if (this.upper < UPPER_GOAL && UPPER_GOAL <= this.upper + points) gain += UPPER_BONUS;
      } else if (c === YAHTZEE) box = points ? FIFTY : ZERO;
      found = chanceOf(this.table, stateIndex(this.card & ~(1 << c), upper, box), this.x - gain);
      this.afterValues.set(key, found);
    }
    return found;
  }

  /** [[box, chance after scoring the sorted roll there]], in the card's order (the joker rule for a Yahtzee). */
  scoring(roll) {
    const extra = yahtzeeBonus(this.joker, this.box, roll);
    return boxChoices(this.joker, this.card, this.box, roll).sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([c, points]) => [c, this.after(c, points, extra)]);
  }

  /** V0 of the 252 rolls. */
  v0() {
    if (!this.v0Values) {
      const open = openBoxes(this.card), jokers = this.box !== OPEN && this.joker !== "none";
      this.v0Values = ROLLS.map((roll) => (jokers && isYahtzee(roll)
        ? Math.max(...this.scoring(roll).map(([, chance]) => chance))
        : Math.max(...open.map((c) => this.after(c, score(c, roll))))));
    }
    return this.v0Values;
  }

  /** The keep means E_R (R = rerolls >= 1) of every keep, by level. */
  means(rerolls) {
    const v0 = this.v0();
    let v = v0;
    for (let level = 0; level < rerolls; level++) {
      if (level === this.trees.length) this.trees.push(keepMeans(v));
      if (level + 1 < rerolls) v = bestSubKeeps(this.trees[level]).map((best, r) => Math.max(v0[r], best));
    }
    return this.trees[rerolls - 1];
  }

  /** [[chance, move text]] for the sorted roll with `rerolls` left, in the tie rule's order. */
  choices(roll, rerolls) {
    const out = this.scoring(roll).map(([c, chance]) => [chance, "score " + CATEGORIES[c]]);
    if (rerolls) {
      const means = this.means(rerolls);
      for (const { level, position, text } of subKeeps(roll)) out.push([means[level][position], text]);
    }
    return out;
  }
}

/** [the best chance, the move the tie rule picks]. */
export function best(choices) {
  const top = choices.reduce((m, [chance]) => Math.max(m, chance), -Infinity);
  return [top, choices.find(([chance]) => chance >= top - TIE)[1]];
}

/** `value`, unless %.6f might print it wrong: within its error bound of a rounding midpoint (the command's words). */
export function checkedChance(value) {
  return checked(value, value * ERROR_BOUND + ABSOLUTE_BOUND, "yahtzee target: the chance");
}

const KEPT = 256; // turns kept per table (a batch, Coach and Play ask many of one turn)
const TURNS = new WeakMap();

/** The turn of the held state with a box open and x still needed, kept for later questions. */
export function targetTurn(table, card, upper, box, x) {
  let turns = TURNS.get(table);
  if (!turns) TURNS.set(table, (turns = new Map()));
  const key = `${card}/${Math.min(upper, UPPER_GOAL)}/${box}/${x}`;
  let found = turns.get(key);
  if (found) turns.delete(key);
  else {
    if (turns.size >= KEPT) turns.delete(turns.keys().next().value); // the least recently asked
    found = new TargetTurn(table, card, upper, box, x);
  }
  turns.set(key, found);
  return found;
}
