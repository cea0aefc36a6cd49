/* Full Yahtzee's rules as the table numbers them (docs/YAHTZEE.md, FORMAT.md section 9), ported from
 * shutthebox/games/yahtzee/rules.py: the 13 boxes (bit c of a card), how five dice score, the joker
 * rules and both bonuses, the turn-start states (card, upper total, what the yahtzee box holds) and
 * their index in the table's `turn` array, and the question's words with the command line's messages.
 * The 252 sorted rolls are yazy's (games/yazy-rules.js): the same dice. */

import { InvalidQuestion, shorten, shownText } from "../lib/notation.js";
import { whole } from "../lib/command.js";
import { DICE, REROLLS, ROLLS, SIDES, categorySet, formatSet, rankOf } from "./yazy-rules.js";

export { DICE, REROLLS, ROLLS, SIDES, rankOf };
export const CATEGORIES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
  "small-straight", "large-straight", "yahtzee", "chance"];
export const [SIXES, THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL, LARGE, YAHTZEE, CHANCE] = [5, 6, 7, 8, 9, 10, 11, 12];
export const ALL = (1 << CATEGORIES.length) - 1, UPPER = 63;
export const UPPER_GOAL = 63, UPPER_BONUS = 35, YAHTZEE_BONUS = 100;
export const OPEN = 0, ZERO = 1, FIFTY = 2; // what the yahtzee box holds
export const JOKERS = ["official", "free", "none", "bonus-only"];
const JOKER_POINTS = { [FULL_HOUSE]: 25, [SMALL]: 30, [LARGE]: 40 };

/** The table header's `rules` for a joker rule (FORMAT.md section 9). */
export const rulesOf = (joker) => ({ categories: CATEGORIES, dice: DICE, sides: SIDES, rerolls: REROLLS,
  upper_bonus: [UPPER_GOAL, UPPER_BONUS], yahtzee_bonus: joker === "none" ? 0 : YAHTZEE_BONUS, joker });

/** The open boxes of a card, in the card's order. */
export const openBoxes = (card) => CATEGORIES.map((_, c) => c).filter((c) => (card >> c) & 1);

// -- how five dice score -----------------------------------------------------------------

/** What five dice (any order) score in box c by the printed rules, no joker. */
export function score(c, dice) {
  const counts = Array(SIDES + 1).fill(0);
  for (const d of dice) counts[d]++;
  if (c <= SIXES) return (c + 1) * counts[c + 1];
  const most = Math.max(...counts), sum = dice.reduce((a, b) => a + b, 0);
  const run = (from, length) => counts.slice(from, from + length).every(Boolean);
  switch (c) {
    case THREE_KIND: return most >= 3 ? sum : 0;
    case FOUR_KIND: return most >= 4 ? sum : 0;
    case FULL_HOUSE: return most === 3 && counts.includes(2) ? 25 : 0;
    case SMALL: return run(1, 4) || run(2, 4) || run(3, 4) ? 30 : 0;
    case LARGE: return run(1, 5) || run(2, 5) ? 40 : 0;
    case YAHTZEE: return most === DICE ? 50 : 0;
    default: return sum;
  }
}

/** [[box, points]]: where a Yahtzee of `face` may be scored, and for how much, on `card` with the yahtzee
 * box holding `box` (the Yahtzee bonus not included); without a joker every open box at its printed score. */
export function jokerChoices(joker, card, box, face) {
  const roll = Array(DICE).fill(face);
  if (box === OPEN || joker === "none" || joker === "bonus-only") return openBoxes(card).map((c) => [c, score(c, roll)]);
  const lower = openBoxes(card).filter((c) => c >= THREE_KIND && c !== YAHTZEE).map((c) => [c, JOKER_POINTS[c] ?? DICE * face]);
  if (joker === "official") {
    if ((card >> (face - 1)) & 1) return [[face - 1, DICE * face]];
    if (lower.length) return lower;
    return openBoxes(card).filter((c) => c <= SIXES).map((c) => [c, 0]);
  }
  // free: any open box; full house and the straights pay only once the matching upper box is filled
  const upperFilled = !((card >> (face - 1)) & 1);
  return [...openBoxes(card).filter((c) => c <= SIXES).map((c) => [c, c === face - 1 ? DICE * face : 0]),
    ...lower.map(([c, points]) => [c, upperFilled || !(c in JOKER_POINTS) ? points : 0])];
}

const isYahtzee = (roll) => roll.every((d) => d === roll[0]);

/** The Yahtzee bonus a roll earns when scored: 100 for five of a kind while the yahtzee box holds 50. */
export const yahtzeeBonus = (joker, box, roll) => (joker !== "none" && box === FIFTY && isYahtzee(roll) ? YAHTZEE_BONUS : 0);

/** [[box, points]] where the dice may go now, in the card's order (the joker rule decides for a Yahtzee
 * on a filled yahtzee box); the bonuses apart. */
export const boxChoices = (joker, card, box, roll) => (isYahtzee(roll) ? jokerChoices(joker, card, box, roll[0])
  : openBoxes(card).map((c) => [c, score(c, roll)]));

/** What scoring `roll` in box c earns and the state after (analysis.py's Scored): { points, upperBonus,
 * yahtzeeBonus, total, card, upper (as written, not capped), box }; null when the rules do not allow c. */
export function scored(joker, card, upper, box, c, roll) {
  const allowed = boxChoices(joker, card, box, roll).find(([b]) => b === c);
  if (!allowed) return null;
  const points = allowed[1];
  const upperBonus = c <= SIXES && upper < UPPER_GOAL && UPPER_GOAL <= upper + points ? UPPER_BONUS : 0;
  const bonus = yahtzeeBonus(joker, box, roll);
  return { points, upperBonus, yahtzeeBonus: bonus, total: points + upperBonus + bonus, card: card & ~(1 << c),
    upper: c <= SIXES ? upper + points : upper, box: c === YAHTZEE ? (points ? FIFTY : ZERO) : box };
}

// -- upper totals and the numbering of turn-start states (FORMAT.md section 9) --------------

/** REACH[closed]: the sorted totals the closed upper boxes `closed` (bit j - 1: box j) can hold together. */
const REACH = [[0]];
for (let closed = 1; closed <= UPPER; closed++) {
  const j = 32 - Math.clz32(closed); // the highest closed box
  const totals = new Set();
  for (const t of REACH[closed ^ (1 << (j - 1))]) for (let k = 0; k <= DICE; k++) totals.add(t + k * j);
  REACH.push([...totals].sort((a, b) => a - b));
}
/** For each upper-open mask U: BASE[U] the first pair number, CAPPED[U] the sorted reachable capped totals. */
const BASE = [], CAPPED = [];
let pairCount = 0;
for (let open = 0; open <= UPPER; open++) {
  const totals = REACH[UPPER & ~open];
  const capped = totals.filter((t) => t < UPPER_GOAL);
  if (totals[totals.length - 1] >= UPPER_GOAL) capped.push(UPPER_GOAL);
  BASE.push(pairCount);
  CAPPED.push(capped);
  pairCount += capped.length;
}
export const PAIRS = pairCount; // 2794
export const STATES = 3 * 64 * PAIRS; // 536448

/** Whether the closed upper boxes of `card` can hold `upper` points together. */
export const canHold = (card, upper) => REACH[UPPER & ~card].includes(upper);

/** The position in the table's `turn` array of the valid turn-start state (card, upper, box). */
export function stateIndex(card, upper, box) {
  const open = card & UPPER;
  const lower = ((card >> THREE_KIND) & 31) | ((card >> (CHANCE - 5)) & 32);
  const capped = Math.min(upper, UPPER_GOAL);
  let rank = 0;
  while (CAPPED[open][rank] < capped) rank++;
  return (box * 64 + lower) * PAIRS + BASE[open] + rank;
}

// -- the words of a question, with the command line's messages ------------------------------

/** The card of open boxes: a bitmask, a list of names, or text as the command line reads it, in any letter
 * case (rules.categories): `all`, `none`, names separated by commas (`ones,full-house`; aliases `aces`, `3k`,
 * `4k`, `fh`, `ss`, `ls`; one-letter codes `123456TFHSLYC` one a box; a list may end with a comma), the codes run
 * together in one word (`1TFC`), or every box but some (`all -twos,chance`, `all-2c`). A word that reads two
 * ways (`fh`: full-house, or four-kind and full-house) is refused with the command line's message. */
export function cardOf(cats) {
  if (typeof cats !== "string") return categorySet(CATEGORIES, cats);
  const lowered = cats.toLowerCase();
  if (lowered === "all") return ALL;
  if (lowered === "none") return 0;
  const rest = lowered.slice(3).replace(/^ +/, "");
  if (lowered.startsWith("all") && rest.startsWith("-")) return ALL & ~cardList(rest.slice(1));
  return cardList(lowered);
}

const ALIASES = { aces: "ones", "3k": "three-kind", "4k": "four-kind", fh: "full-house", ss: "small-straight",
  ls: "large-straight" };
const CODES = "123456tfhslyc"; // Verhoeff's letters, one a box in the card's order
const WORDS = new Map([...CATEGORIES.map((name, c) => [name, c]),
  ...Object.entries(ALIASES).map(([word, name]) => [word, CATEGORIES.indexOf(name)])]);
const isCodes = (word) => word !== "" && [...word].every((letter) => CODES.includes(letter));

function cardList(text) {
  if (!text.includes(",")) return cardWord(text);
  const items = text.split(",");
  if (items.length > 1 && items[items.length - 1] === "" && items[items.length - 2] !== "") items.pop(); // fh,
  let mask = 0;
  for (const item of items) {
    let c = WORDS.get(item);
    if (c === undefined && item.length === 1 && CODES.includes(item)) c = CODES.indexOf(item);
    if (c === undefined) throw unknownBox(item, item.length > 1 && isCodes(item) ? " (in a list, one code letter a box: 1,2,t)" : "");
    mask = addBox(mask, c);
  }
  return mask;
}

function cardWord(word) {
  const named = WORDS.get(word);
  let coded = null;
  if (isCodes(word) && new Set(word).size === word.length) {
    coded = 0;
    for (const letter of word) coded |= 1 << CODES.indexOf(letter);
  }
  if (named !== undefined && coded !== null && coded !== 1 << named) {
    throw new InvalidQuestion(`'${word}' reads two ways: the box ${CATEGORIES[named]} (write ` +
      `${CATEGORIES[named]}, or ${word},) or the codes ${formatCard(coded)} (write ${[...word.toUpperCase()].join(",")}); say which`);
  }
  if (named !== undefined) return 1 << named;
  if (coded !== null) return coded;
  if (isCodes(word)) {
    const repeated = [...word].find((letter) => word.split(letter).length > 2);
    throw new InvalidQuestion(`category ${CATEGORIES[CODES.indexOf(repeated)]} is listed twice`);
  }
  throw unknownBox(word, "");
}

function addBox(mask, c) {
  if ((mask >> c) & 1) throw new InvalidQuestion(`category ${CATEGORIES[c]} is listed twice`);
  return mask | (1 << c);
}

const unknownBox = (word, hint) => new InvalidQuestion(`unknown category '${shownText(word)}'${hint} (the categories are ` +
  `${CATEGORIES.join(", ")}; or all, none; short forms in --help)`);

/** `ones,full-house`, `all` or `none`: the command line's words for a card. */
export const formatCard = (card) => formatSet(CATEGORIES, card);

/** `--upper N`: the points scored in the upper section (text or a number; empty or null: 0), checked
 * against the closed upper boxes. */
export function upperTotal(given, card) {
  if (given === null || given === undefined || given === "") return 0;
  const text = String(given).trim();
  if (!/^-?[0-9]+$/.test(text)) throw new InvalidQuestion(`the upper total must be a whole number, not '${shorten(text)}'`);
  if (text.length > 11) throw new InvalidQuestion(`the upper total ${shorten(text)} is far out of range`);
  const total = Number(text);
  if (total >= 0 && canHold(card, total)) return total;
  const closed = openBoxes(UPPER & ~card).map((c) => CATEGORIES[c]);
  if (!closed.length) throw new InvalidQuestion(`--upper ${text}: no upper box is closed, so the upper section holds 0`);
  throw new InvalidQuestion(`--upper ${text}: the closed upper boxes (${closed.join(",")}) cannot hold ${text} point${total === 1 ? "" : "s"} together ` +
    "(box j holds a multiple of j from 0 to 5j)");
}

/** `--yahtzee-box 50|0` (text, a number, or null): OPEN when the yahtzee box is open (then it is refused),
 * else FIFTY or ZERO (then it is required, but under the joker rule `none`, where it changes nothing: ZERO). */
export function yahtzeeBox(given, card, joker = "official") {
  const text = given === null || given === undefined ? null : String(given);
  if ((card >> YAHTZEE) & 1) {
    if (text !== null) throw new InvalidQuestion("--yahtzee-box is for a closed yahtzee box, and yahtzee is open on this card");
    return OPEN;
  }
  if (text === null && joker === "none") return ZERO;
  if (text === null) throw new InvalidQuestion("the yahtzee box is closed on this card: say what it holds, --yahtzee-box 50 or 0");
  if (text === "50") return FIFTY;
  if (text === "0") return ZERO;
  throw new InvalidQuestion(`--yahtzee-box must be 50 or 0, not '${shorten(text)}'`);
}

/** The words of a question on a turn-start state: `CARD [--upper N] [--yahtzee-box V]` (analysis.py's). */
export function stateWords(card, upper, box) {
  const words = [formatCard(card)];
  if (upper) words.push(`--upper ${upper}`);
  if (box !== OPEN) words.push(`--yahtzee-box ${box === FIFTY ? 50 : 0}`);
  return words.join(" ");
}

// -- reach a score (yahtzee-target.js): the question's X, here so that a page reads it before that module loads

export const MOST = 1575; // the most a game scores: every box at its best, the upper bonus, 12 Yahtzee bonuses

/** The X of `--target X`: the points still to come, 0 to 1575 (rules.py's target_x). */
export function targetX(text) {
  const x = whole("target X", String(text));
  if (x < 0 || x > MOST) {
    throw new InvalidQuestion(`the target X is the points still to come, 0 to ${MOST} (the most a game scores), not ${shownText(String(text))}`);
  }
  return x;
}
