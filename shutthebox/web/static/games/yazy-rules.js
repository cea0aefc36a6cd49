/* yazy's rules as the table numbers them (docs/YAZY.md, FORMAT.md section 6.6): the 11 categories
 * (bit c of a category set), the 252 sorted rolls by rank, how five dice score, and the move codes;
 * and the words of a five-dice question that yazy and Yahtzee share (categories, dice, rerolls left),
 * with the command line's refusals. */

import { InvalidQuestion, shorten, shownText } from "../lib/notation.js";

export const CATEGORIES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind",
  "full-house", "straight", "yazy"];
export const ALL = 2047, DICE = 5, SIDES = 6, REROLLS = 2;
export const SCORE = 32; // move codes SCORE + c score category c; below it, the kept positions of the sorted roll
export const NO_MOVE = 255;

/** The 252 sorted rolls in lexicographic order. */
export const ROLLS = [];
for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) for (let c = b; c <= 6; c++)
  for (let d = c; d <= 6; d++) for (let e = d; e <= 6; e++) ROLLS.push([a, b, c, d, e]);
const RANK = new Map(ROLLS.map((roll, i) => [roll.join(""), i]));

/** The rank of five dice in any order (numbers or digits), or undefined when they are not five dice 1-6. */
export const rankOf = (dice) => (dice.length === DICE ? RANK.get([...dice].sort().join("")) : undefined);

/** The open categories of a set, in table order. */
export const openCategories = (mask) => CATEGORIES.map((_, c) => c).filter((c) => (mask >> c) & 1);

/** What five dice (any order) score in category number c. */
export function score(c, dice) {
  const counts = Array(SIDES + 1).fill(0);
  for (const d of dice) counts[d]++;
  if (c < SIDES) return (c + 1) * counts[c + 1];
  const most = Math.max(...counts), sum = dice.reduce((a, b) => a + b, 0);
  switch (CATEGORIES[c]) {
    case "three-kind": return most >= 3 ? sum : 0;
    case "four-kind": return most >= 4 ? sum : 0;
    case "full-house": return counts.includes(3) && counts.includes(2) ? 25 : 0;
    case "straight": return counts.slice(2, 6).every(Boolean) && (counts[1] || counts[6]) ? 40 : 0;
    default: return most === DICE ? 50 : 0;
  }
}

/** The kept dice of a keep code on the sorted roll, increasing. */
export const keptDice = (code, roll) => roll.filter((_, position) => (code >> position) & 1);

/** The keep code of kept dice (a sub-multiset of the sorted roll): of equal dice the first are kept. */
export function keepCode(kept, roll) {
  const left = [...kept].sort();
  let code = 0;
  roll.forEach((d, position) => {
    const at = left.indexOf(d);
    if (at >= 0) { left.splice(at, 1); code |= 1 << position; }
  });
  if (left.length) throw new Error(`dice ${kept.join(" ")} are not all in the roll ${roll.join(" ")}`);
  return code;
}

/** "score full-house", "keep 3 3 6" or "keep none": the move code on the sorted roll. */
export function describeMove(code, roll) {
  if (code >= SCORE) return "score " + CATEGORIES[code - SCORE];
  const kept = keptDice(code, roll);
  return "keep " + (kept.length ? kept.join(" ") : "none");
}

// -- the words of a question, yazy's and Yahtzee's, with the command line's refusals ------------------

/** The set of open categories of `names` (bit c: names[c]): a bitmask, a list of names, or text as the
 * command line reads it (`ones,full-house`, `all`, `none`). InvalidQuestion for an unknown or repeated name. */
export function categorySet(names, cats) {
  const all = (1 << names.length) - 1;
  if (Number.isInteger(cats) && cats >= 0 && cats <= all) return cats;
  if (typeof cats === "string") {
    if (cats === "all") return all;
    if (cats === "none") return 0;
    cats = cats.split(",");
  }
  if (!Array.isArray(cats)) throw new InvalidQuestion(`the open categories are a list of names such as ${names[0]},${names[names.length - 1]}, or all, or none`);
  let mask = 0;
  for (const name of cats) {
    const bit = names.indexOf(name);
    if (bit < 0) throw new InvalidQuestion(`unknown category '${shownText(String(name))}' (the categories are ${names.join(", ")}; or all, none)`);
    if ((mask >> bit) & 1) throw new InvalidQuestion(`category ${name} is listed twice`);
    mask |= 1 << bit;
  }
  return mask;
}

/** `ones,full-house`, `all` or `none`: the command line's words for a set of open categories of `names`. */
export const formatSet = (names, mask) => (mask === (1 << names.length) - 1 ? "all"
  : names.filter((_, c) => (mask >> c) & 1).join(",") || "none");

/** The rank of five dice written as digits in any order; InvalidQuestion in the command line's words. */
export function rollIndex(dice) {
  const index = rankOf(dice);
  if (index !== undefined) return index;
  const text = `'${shorten(dice)}'`;
  if (!/^[0-9]+$/.test(dice)) throw new InvalidQuestion(`dice ${text}: write the five dice as digits 1 to 6, such as 13366`);
  if (dice.length !== DICE) throw new InvalidQuestion(`dice ${text}: there are five dice, not ${dice.length}`);
  throw new InvalidQuestion(`dice ${text}: a die shows 1 to 6, not ${[...dice].find((d) => !"123456".includes(d))}`);
}

/** The rerolls left as the command line reads them (text or a number), 0 to REROLLS. */
export function rerollsLeft(given) {
  const text = String(given).trim();
  if (!/^-?[0-9]+$/.test(text)) throw new InvalidQuestion(`the number of rerolls must be a whole number, not '${shownText(text)}'`);
  if (Number(text) < 0 || Number(text) > REROLLS) throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${Number(text)}`);
  return Number(text);
}

// -- a game of some categories (--categories LIST), and two players' totals ----------------------------

/** The points each category can score (duel/rules.py's POINTS) and the most it scores. */
export const POINTS = [...[1, 2, 3, 4, 5, 6].map((face) => Array.from({ length: 6 }, (_, n) => n * face)),
  ...[0, 0].map(() => [0, ...Array.from({ length: 26 }, (_, n) => n + 5)]), [0, 25], [0, 40], [0, 50]];
export const BEST = POINTS.map((points) => Math.max(...points));

/** The bitmask of `--categories LIST` (rules.py's game_categories): names separated by commas, any order, or
 * `all`; at least one, none repeated. */
export function gameCategories(text) {
  if (text === "all") return ALL;
  if (text === "" || text === "none") throw new InvalidQuestion("--categories lists no category: a game is played with at least one");
  let mask = 0;
  for (const name of text.split(",")) {
    const c = CATEGORIES.indexOf(name);
    if (c < 0) throw new InvalidQuestion(`--categories: unknown category '${shownText(name)}' (the categories are ${CATEGORIES.join(", ")}; or all)`);
    if ((mask >> c) & 1) throw new InvalidQuestion(`--categories: category ${name} is listed twice`);
    mask |= 1 << c;
  }
  return mask;
}

/** A game of the categories of `mask`: { mask, names (in their order), text (`all` or `ones,yazy`, the command
 * line's canonical words) }. */
export function gameOf(mask) {
  return { mask, names: openCategories(mask).map((c) => CATEGORIES[c]), text: formatSet(CATEGORIES, mask) };
}

/** The number of `mask` among the subsets of the game `game`: its bits at the game's categories, packed (a row of
 * a game's tables, FORMAT.md 6.6; half of a pair's number, section 11). */
export function packed(game, mask) {
  let code = 0, j = 0;
  for (let c = 0; c < CATEGORIES.length; c++) if ((game >> c) & 1) code |= ((mask >> c) & 1) << j++;
  return code;
}

/** The open categories `cats` of a question (text, as the command line reads it, or a bitmask) within the game
 * `game` (`all`: the game's): InvalidQuestion for a category the game does not play (rules.py's Sets). */
export function withinGame(game, cats) {
  const mask = cats === "all" ? game.mask : categorySet(CATEGORIES, cats);
  const outside = openCategories(mask & ~game.mask).map((c) => CATEGORIES[c]);
  if (outside.length) {
    throw new InvalidQuestion(`${outside.length === 1 ? `category ${outside[0]} is` : `categories ${outside.join(",")} are`} ` +
      `not played in this game (--categories ${game.text})`);
  }
  return mask;
}
