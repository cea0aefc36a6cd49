/* Toggle's rules and table (FORMAT.md section 6.5): the file to read, the coach's answer, and the value
 * of every card a roll allows, each the same lookups as `ShutTheBox toggle --expect` and `--move`. */

import { InvalidQuestion, formatSet, numbersOf, parseSet, shownText, sixDecimals } from "../lib/notation.js";

const LIMITS = { cards: [1, 16], sides: [2, 12] };
export const DEFAULT_RULES = { cards: 12, sides: 6 };

/** `--cards` or `--sides` as the command line reads its text: its limits and its refusal, word for word. */
export function ruleValue(name, text) {
  const [low, high] = LIMITS[name];
  const t = String(text).trim();
  if (!/^[0-9]{1,11}$/.test(t) || Number(t) < low || Number(t) > high) {
    throw new InvalidQuestion(`--${name} must be a whole number from ${low} to ${high}, not '${shownText(t)}'`);
  }
  return Number(t);
}

/** A die of the link (`x`, `y`) as `--move STATE X Y` reads it: the command line's refusals. */
export function dieValue(text, sides) {
  const t = String(text).trim();
  if (!/^-?[0-9]{1,11}$/.test(t)) throw new InvalidQuestion(`the die must be a whole number, not '${shownText(t)}'`);
  if (Number(t) < 1 || Number(t) > sides) throw new InvalidQuestion(`a die shows 1 to ${sides}, not ${Number(t)}`);
  return Number(t);
}

/** The rules from typed text; InvalidQuestion in the command line's words. */
export function checkRules(cards, sides) {
  for (const [name, value] of [["cards", cards], ["sides", sides]]) {
    const [low, high] = LIMITS[name];
    if (!Number.isInteger(value) || value < low || value > high) {
      throw new InvalidQuestion(`${name} must be a whole number from ${low} to ${high}, not ${value}`);
    }
  }
  if (cards > 2 * sides) {
    throw new InvalidQuestion(`with ${sides}-sided dice no roll can turn a card above ${2 * sides}, so ${cards} cards ` +
      `can never all be face down: use at most ${2 * sides} cards or more sides`);
  }
  return { cards, sides };
}

/** What the page asks the reader for: the file, its game and rules, and the arrays with their shapes. */
export function tableSpec({ cards, sides }) {
  const states = 2 ** cards;
  const name = `toggle-c${cards}-s${sides}.msgpack`;
  return {
    url: name,
    options: { name, game: "toggle", rules: { cards, sides },
      arrays: { rolls: ["<f8", [states]], flip: ["|u1", [states, sides, sides]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    command: `ShutTheBox toggle --cards ${cards} --sides ${sides} --expect all`,
    // Coach's first question (every card up, dice 3 and 4 where the dice have 4 sides): its blocks fetched at once
    first: (table) => cardValues(table, { up: "all", x: Math.min(3, sides), y: Math.min(4, sides) }),
  };
}

export const bit = (card) => 2 ** (card - 1);
export const cardsOf = numbersOf;

/** The words of a state, as --expect STATE takes them: the face-up cards ("1,4,10", "146" with 9 cards or fewer,
 * "12,"), "all" or "none". */
export const stateText = (mask, cards) => formatSet(mask, cards, { all: true });

/** A state as typed (--expect STATE, the link's `up`): its mask, read as toggle's table reads it; InvalidQuestion. */
export const parseState = (text, cards) =>
  parseSet(text, cards, { noun: "card", what: "state", plural: "face-up cards", words: true });

/** The cards dice (x, y) let the player turn, increasing, without repeats. */
export function choices(cards, x, y) {
  return [...new Set([x, y, x + y])].filter((c) => c <= cards).sort((a, b) => a - b);
}

export function maskOf(table, up) {
  const cards = table.rules.cards;
  if (typeof up === "string") return parseState(up, cards);
  if (typeof up === "number") {
    if (!Number.isInteger(up) || up < 0 || up >= 2 ** cards) throw new InvalidQuestion(`state ${up} is not a set of cards 1 to ${cards}`);
    return up;
  }
  let mask = 0;
  for (const c of up) {
    if (!Number.isInteger(c) || c < 1 || c > cards) throw new InvalidQuestion(`there is no card ${c} (the cards are 1 to ${cards})`);
    if (mask & bit(c)) throw new InvalidQuestion(`card ${c} is listed twice`);
    mask |= bit(c);
  }
  return mask;
}

/**
 * The coach's answer. q = { up: bitmask, list of face-up cards or a state as text ("1,4,10", "all"), x, y (both null: no dice) }
 * -> { value: "%.6f" of the expected further rolls, move: the card to turn as text (or null),
 *      error: why there is no card (the command line's message) or null, card: the number }.
 */
export function answer(table, q) {
  const { cards, sides } = table.rules;
  const mask = maskOf(table, q.up);
  const out = { value: sixDecimals(table.arrays.rolls[mask]), move: null, card: null, error: null };
  if (q.x === null || q.x === undefined) return out;
  for (const die of [q.x, q.y]) {
    if (!Number.isInteger(die) || die < 1 || die > sides) {
      out.error = `a die shows 1 to ${sides}, not ${die}`;
      return out;
    }
  }
  if (!mask) {
    out.error = "every card is face down: the game is over, there is nothing to turn";
    return out;
  }
  const card = table.arrays.flip[(mask * sides + q.x - 1) * sides + q.y - 1];
  if (!card) out.error = `dice ${q.x} and ${q.y} let you turn no card of 1 to ${cards}: the roll passes`;
  else { out.card = card; out.move = String(card); }
  return out;
}

/**
 * Every card dice (x, y) let the player turn at q = { up, x, y } with the expected further rolls after
 * turning it (the table's value of the cards left face up) and its cost against the table's card:
 * -> { best, value: the expected rolls after the best card, cards: [{ card, value, cost }] by card };
 * InvalidQuestion, in the command line's words, when the question has no card to turn.
 */
export function cardValues(table, q) {
  const a = answer(table, q);
  if (q.x === null || q.x === undefined) throw new InvalidQuestion("give the dice: a card is turned after a roll");
  if (a.error) throw new InvalidQuestion(a.error);
  const mask = maskOf(table, q.up), rolls = table.arrays.rolls;
  const value = rolls[mask ^ bit(a.card)];
  const cards = choices(table.rules.cards, q.x, q.y).map((card) => {
    const after = rolls[mask ^ bit(card)];
    return { card, value: after, cost: after - value };
  });
  return { best: a.card, value, cards };
}

/** The `up` link parameter, a state ("all", "none", "1,4,10", "146" with 9 cards or fewer) -> the face-up cards; InvalidQuestion. */
export const upCards = (text, cards) => cardsOf(parseState(text, cards));
