/* Goat's table (FORMAT.md section 6.7): what the page reads, where a question's answer is, and the
 * answers as `ShutTheBox goat --solo|--one|--two --expect ...`, `--move ...` and
 * `--solo --expect SCORE --dice K --stop-at T` print them, refused in the command line's words. */

import { answerOf, InvalidQuestion, shownText, sixDecimals } from "../lib/notation.js";

const GOAL_LIMITS = [2, 150];
export const ROLLS = 3, DICE = 6, MAX_ONE = 21, SLOTS = 63, THRESHOLDS = 43, NEEDS = 64, MAX_GAIN = 63;
/** The highest sum of k different faces: a threshold above two rolls' best never stops a turn early. */
export const MAX_SUM = [0, 6, 11, 15, 18, 20, 21];

export function checkGoal(goal) {
  const [low, high] = GOAL_LIMITS;
  if (!Number.isInteger(goal) || goal < low || goal > high) {
    throw new InvalidQuestion(`the goal must be a whole number from ${low} to ${high}, not ${goal}`);
  }
  return goal;
}

/** `--goal` as the command line reads its text: its limits and its refusal, word for word. */
export function goalValue(text) {
  const [low, high] = GOAL_LIMITS;
  const t = String(text).trim();
  if (!/^[0-9]{1,11}$/.test(t) || Number(t) < low || Number(t) > high) {
    throw new InvalidQuestion(`--goal must be a whole number from ${low} to ${high}, not '${shownText(t)}'`);
  }
  return Number(t);
}

export function tableSpec(goal) {
  const name = `goat-g${goal}.msgpack`;
  const G = goal;
  return {
    url: name,
    options: { name, game: "goat", rules: { goal, dice: DICE, rolls: ROLLS },
      arrays: { fixed: ["<f8", [DICE, THRESHOLDS, G]],
        solo: ["<f8", [G, SLOTS]], solo_move: ["|u1", [G, SLOTS]], one: ["<f8", [G, G, SLOTS]],
        one_move: ["|u1", [G, G, SLOTS]], two: ["<f8", [G, G, SLOTS]], two_move: ["|u1", [G, G, SLOTS]],
        last: ["<f8", [NEEDS, SLOTS]], last_move: ["|u1", [NEEDS, SLOTS]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    command: `ShutTheBox goat --goal ${goal} --solo --expect 0`,
    first: (table) => answer(table, { player: 0, my: 0, turn: 0, rolls: 0 }), // Coach's first question: its blocks fetched at once
  };
}

export const slot = (rolls, turn) => (rolls === 0 ? 0 : rolls === 1 ? turn : turn + 20);
export const actionText = (action) => (action === 0 ? "stop" : `roll ${action}`);

function checkScore(name, score, goal) {
  if (!Number.isInteger(score) || score < 0) throw new InvalidQuestion(`${name} is a banked score, 0 or more, not ${score}`);
  if (score >= goal) throw new InvalidQuestion(`${name} ${score} has reached the goal ${goal}: the game is over`);
}

function checkTurn(turn, rolls) {
  if (!Number.isInteger(rolls) || rolls < 0 || rolls >= ROLLS) {
    throw new InvalidQuestion(`ROLLS is the rolls taken this turn, 0 to ${ROLLS - 1}, not ${rolls}`);
  }
  const [low, high] = rolls === 0 ? [0, 0] : [rolls, rolls * MAX_ONE];
  if (!Number.isInteger(turn) || turn < low || turn > high) {
    if (rolls === 0) throw new InvalidQuestion(`before the first roll the turn total is 0, not ${turn}`);
    throw new InvalidQuestion(`${rolls} roll${rolls > 1 ? "s" : ""} cannot make a turn total of ${turn} (only ${low} to ${high})`);
  }
}

/** (array name, element index) of a question; InvalidQuestion in the command line's words. */
export function locate(table, q) {
  const G = table.rules.goal;
  const { player, turn = 0, rolls = 0 } = q;
  if (player === 0) {
    checkScore("SCORE", q.my, G);
    checkTurn(turn, rolls);
    return ["solo", q.my * SLOTS + slot(rolls, turn)];
  }
  checkScore("MY", q.my, G);
  if (!Number.isInteger(q.opp) || q.opp < 0) throw new InvalidQuestion(`OPP is a banked score, 0 or more, not ${q.opp}`);
  checkTurn(turn, rolls);
  if (player === 1) {
    if (q.opp >= G) {
      throw new InvalidQuestion(`OPP ${q.opp} has reached the goal ${G}: the second player's total ends the game ` +
        "before the first player moves again");
    }
    return ["one", (q.my * G + q.opp) * SLOTS + slot(rolls, turn)];
  }
  if (q.opp < G) return ["two", (q.my * G + q.opp) * SLOTS + slot(rolls, turn)];
  if (q.opp > G - 1 + MAX_GAIN) throw new InvalidQuestion(`OPP ${q.opp} is out of reach: the first player banks at most ${G - 1 + MAX_GAIN}`);
  return ["last", (Math.min(q.opp - q.my, NEEDS) - 1) * SLOTS + slot(rolls, turn)];
}

/** The `fixed` element of (SCORE, K, T), checked in the order and words of GoatTable.probe_fixed. */
export function locateFixed(table, { score, dice, stopAt }) {
  const G = table.rules.goal;
  checkScore("SCORE", score, G);
  if (!Number.isInteger(dice) || dice < 1 || dice > DICE) throw new InvalidQuestion(`K is the number of dice, 1 to ${DICE}, not ${dice}`);
  if (!Number.isInteger(stopAt) || stopAt < 1) throw new InvalidQuestion(`T is the turn total to stop at, 1 or more, not ${stopAt}`);
  return ((dice - 1) * THRESHOLDS + Math.min(stopAt, THRESHOLDS) - 1) * G + score;
}

/**
 * The best fixed strategy from banked ``score``, ranked as `ShutTheBox goat strategies` ranks them
 * (fewest expected turns, then fewer dice, then the lower threshold), over the thresholds it lists.
 * -> { dice, stopAt (the lowest threshold of the best value), upTo (the highest listed with the same
 *      value), orMore (every higher threshold plays the same), value }
 */
export function bestFixed(table, score) {
  let best = null;
  for (let dice = 1; dice <= DICE; dice++) {
    const last = 2 * MAX_SUM[dice] + 1;
    for (let stopAt = 1; stopAt <= last; stopAt++) {
      const value = table.arrays.fixed[locateFixed(table, { score, dice, stopAt })];
      if (!best || value < best.value) best = { dice, stopAt, upTo: stopAt, orMore: stopAt === last, value };
      else if (value === best.value && dice === best.dice) Object.assign(best, { upTo: stopAt, orMore: stopAt === last });
    }
  }
  return best;
}

/**
 * q = { player: 0 solo | 1 first | 2 second, my (SCORE for solo), opp, turn, rolls }
 *  or { kind: "fixed", score, dice, stopAt }
 * -> { value: "%.6f" (solo: expected turns, this turn counted; else the mover's chance to win),
 *      move: "stop" | "roll K" (null for a fixed strategy), error: null } or { value: null, move: null, error: message }.
 */
export function answer(table, q) {
  return answerOf(() => {
    if (q.kind === "fixed") return { value: sixDecimals(table.arrays.fixed[locateFixed(table, q)]), move: null, error: null };
    const [name, index] = locate(table, q);
    return { value: sixDecimals(table.arrays[name][index]), move: actionText(table.arrays[name + "_move"][index]), error: null };
  });
}
