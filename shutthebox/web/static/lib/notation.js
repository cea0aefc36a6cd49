/* What players type and read, for both pages: questions without an answer (InvalidQuestion),
 * the numbers the command line prints, and sets of numbered things (tiles, cards) in the
 * project's notation, ported from shutthebox/engine/notation.py (the command line's):
 *
 *   parseSet("146", 9)        // 0b101001: tiles 1, 4 and 6
 *   parseSet("1,4,10,12", 12) // commas (or spaces) between numbers
 *   parseSet("12,", 12)       // a lone number above 9: a trailing comma
 *   parseSet("12", 12)        // InvalidQuestion: ambiguous with more than 9 (tiles 1 and 2, or tile 12?)
 *   parseSet("none", 12)      // 0, the empty set; empty text is refused
 *   parseSet("all", 12)       // 0b111111111111, every number of the game
 *   formatSet(0b101001, 9)    // "146"; with more than 9: "1,4,6", a lone number above 9 "12,"; empty: "none"
 *
 * parseSet accepts and refuses exactly what parse_set does, with its messages, and formatSet
 * writes what format_set writes: strings are read by code point and stripped, split and quoted
 * in messages where Python's str.strip(), str.split() and engine/text.py's shown() do
 * (tests/test_web_node.py runs both on the same inputs).
 */

/** A question with no answer, in the player's words. */
export class InvalidQuestion extends Error {
  constructor(message) { super(message); this.name = "InvalidQuestion"; }
}

/** `ask()`, or `onInvalid(message)` when it throws an InvalidQuestion (any other error goes on up). */
export function unlessInvalid(ask, onInvalid) {
  try {
    return ask();
  } catch (e) {
    if (!(e instanceof InvalidQuestion)) throw e;
    return onInvalid(e.message);
  }
}

/** `ask()`'s answer, or no value and no move but the reason when the question has no answer. */
export const answerOf = (ask) => unlessInvalid(ask, (error) => ({ value: null, move: null, error }));

/** `%.6f` as the command line prints it: FORMAT.md section 5 makes toFixed(6) print the same digits. */
export function sixDecimals(value) {
  return value.toFixed(6);
}

/** What a player typed, as a message quotes it: at most `max` characters. */
export const shorten = (text, max = 40) => (text.length <= max ? text : `${text.slice(0, max - 3)}...`);

/** A whole number typed by a player: digits only (a leading minus is read, to be refused by the range check). */
export function wholeNumber(text, what) {
  const t = String(text).trim();
  if (!/^-?[0-9]{1,9}$/.test(t)) {
    throw new InvalidQuestion(t === "" ? `${what}: give a whole number` : `${what} must be a whole number, not '${shorten(t)}'`);
  }
  return parseInt(t, 10);
}

// -- sets of numbered things: bit i of a mask set means number i + 1

/** Longest text a set can take (notation.py MAX_TEXT). */
export const MAX_TEXT = 200;

// Python's whitespace (str.isspace), which str.strip() and str.split() use: JavaScript's \s
// also holds U+FEFF, and lacks U+001C-U+001F and U+0085.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");
const SPACES = new RegExp(`[${SPACE}]+`);
const DIGITS = /^[0-9]+$/;

// What Python's str.isprintable() refuses: the categories Other and Separator, but for the space.
const UNPRINTABLE = /^[\p{C}\p{Z}]$/u;
const SHOWN = 60;

/** A character as Python's repr() escapes it (\t, \n, \r, \xNN, \uNNNN, \UNNNNNNNN). */
function escaped(c) {
  const special = { "\t": "\\t", "\n": "\\n", "\r": "\\r" }[c];
  if (special) return special;
  const code = c.codePointAt(0);
  const [prefix, width] = code < 0x100 ? ["\\x", 2] : code < 0x10000 ? ["\\u", 4] : ["\\U", 8];
  return prefix + code.toString(16).padStart(width, "0");
}

/** A player's text in a message (engine/text.py's shown()): cut to 60 characters, control characters escaped. */
export function shownText(text) {
  let points = Array.from(String(text));
  if (points.length > SHOWN) points = [...points.slice(0, SHOWN - 3), "..."];
  return points.map((c) => (c !== " " && UNPRINTABLE.test(c) ? escaped(c) : c)).join("");
}

/** The numbers of a mask, increasing: numbersOf(0b100000100) -> [3, 9]. */
export function numbersOf(mask) {
  const numbers = [];
  for (let number = 1; mask; number++, mask = Math.floor(mask / 2)) if (mask % 2) numbers.push(number);
  return numbers;
}

/** The mask of numbers (each at most once). */
export const maskOf = (numbers) => numbers.reduce((mask, number) => mask + 2 ** (number - 1), 0);

/**
 * A set of numbers 1 to `highest` as format_set writes it: digits run together with 9 or fewer
 * ("146"), else commas ("1,4,10"; a lone number above 9 "12,", as "12" would read as 1 and 2);
 * the empty set "none". With `all`: "all" for every number (toggle's word).
 */
export function formatSet(mask, highest, { all = false } = {}) {
  const numbers = numbersOf(mask);
  if (!numbers.length) return "none";
  if (all && numbers.length === highest) return "all";
  if (highest <= 9) return numbers.join("");
  return numbers.length === 1 && numbers[0] > 9 ? `${numbers[0]},` : numbers.join(",");
}

/**
 * The mask of a set written as text, numbers 1 to `highest`; "none" is the empty set, empty text
 * is refused. InvalidQuestion, in notation.py's words, for anything else. `noun`, `what` and `plural` name the things as the
 * messages say them (tiles of a position; cards of a state: "card", "state", "face-up cards").
 * "all" (exactly) is every number, as parse_set reads it (`words: false` reads numbers only).
 */
export function parseSet(text, highest, { noun = "tile", what = "position", plural = "open tiles", words = true } = {}) {
  if (words && text === "all") return 2 ** highest - 1;
  const points = Array.from(text); // code points, as Python counts and slices
  const shown = `'${shownText(text)}'`;
  if (points.length > MAX_TEXT) {
    throw new InvalidQuestion(`${what} ${shown} is too long to be a set of ${noun}s 1 to ${highest}`);
  }
  const stripped = text.replace(EDGES, "");
  if (stripped === "none") return 0;
  let parts;
  if (stripped.includes(",") || stripped.includes(" ")) {
    parts = stripped.replace(/,/g, " ").split(SPACES).filter(Boolean);
  } else if (highest <= 9) {
    parts = Array.from(stripped);
  } else if (stripped.length > 1 && DIGITS.test(stripped)) {
    throw new InvalidQuestion(`${what} ${shown} is ambiguous: with ${noun}s above 9, separate them with commas, ` +
      `like ${stripped.split("").join(",")} or ${stripped},`);
  } else {
    parts = stripped ? [stripped] : [];
  }
  if (!parts.length) throw new InvalidQuestion(`${what} ${shown} lists no ${noun}; write none for the empty set`);
  const seen = new Set();
  for (const part of parts) {
    const size = Array.from(part).length;
    if (!DIGITS.test(part) || size > 3) {
      if (size === 1) {
        throw new InvalidQuestion(`${what} ${shown}: '${part}' is not a ${noun}; write the ${plural} as digits, like 146789`);
      }
      const named = size <= 12 ? part : `${Array.from(part).slice(0, 9).join("")}...`;
      throw new InvalidQuestion(`${what} ${shown}: '${named}' is not a ${noun} number`);
    }
    const number = parseInt(part, 10);
    if (number < 1 || number > highest) {
      throw new InvalidQuestion(`${what} ${shown}: there is no ${noun} ${number} (the ${noun}s are 1 to ${highest})`);
    }
    if (seen.has(number)) throw new InvalidQuestion(`${what} ${shown}: ${noun} ${number} is listed twice`);
    seen.add(number);
  }
  return maskOf([...seen]);
}
