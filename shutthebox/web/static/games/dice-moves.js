/* The five-dice games' moves in the command line's words, as Coach and Play both read them (Coach before
 * Play's modules are loaded: lib/later.js). */

import { sixDecimals } from "../lib/notation.js";
import { score } from "../lib/numbers.js";
import { facesAt } from "../lib/ui.js";

/** A box as a player says it, in a text of the command line's words: "three-kind" is "three of a kind",
 * "full-house" "full house" (the command line's own spelling stays in its review text and the tests' hooks). */
export const spoken = (text) => (Array.isArray(text) ? text.map((x) => (typeof x === "string" ? spoken(x) : x)) // words and numbers
  : text.replace(/\b([a-z]+)-kind\b/g, "$1 of a kind").replace(/([a-z])-(?=[a-z])/g, "$1 "));
export const sorted = (dice) => [...dice].sort((a, b) => a - b);
/** Expected points as players read them (lib/numbers.js): a number, or the exact text already computed. */
export const points = (value) => (typeof value === "number" ? score(value, sixDecimals(value)) : score(Number(value), value));

/** The dice (indexes) a move of the command line's words keeps ("keep 3 3 6", "keep none"): the first die
 * showing each face kept; [] for any other move. */
export function keptIndexes(move, dice) {
  const m = /^keep (.*)$/.exec(move ?? "");
  return m && dice ? facesAt(dice, m[1] === "none" ? [] : m[1].split(" ").map(Number)) : [];
}

/** The box a move of the command line's words scores ("score full-house" -> full-house), else null. */
export const scoredBox = (move) => /^score (.+)$/.exec(move ?? "")?.[1] ?? null;
