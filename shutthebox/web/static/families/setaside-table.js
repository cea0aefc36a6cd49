/* The set-aside dice family's tables (docs/FORMAT.md section 13), written from that section: a game's rules
 * and their file names, what a reader reads, and the answers as `ShutTheBox GAME --expect [DICE]`,
 * `--move DICE` and `--options DICE` print them, refused in the command line's words. Generic over the
 * family: a game is its `family` data, { id, dice, sides, points, best } (the default dice and sides, what
 * each face scores, "lowest" or "highest"), from games.json on the page, from a shipped table's header in
 * web/answer.mjs. No DOM: the page (families/setaside.js) and web/answer.mjs run it.
 *
 *   const family = { id: "threes", dice: 5, sides: 6, points: [1, 2, 0, 4, 5, 6], best: "lowest" };
 *   const rules = rulesFromOptions(family, { "--dice": "5" });           // { dice: 5, sides: 6 }
 *   const table = checkTable(readTable(bytes, tableSpec(family, rules).options));   // lib/format.js
 *   expectText(table, null)        // "6.253979"
 *   moveText(table, "13356")       // "set aside 3 3"
 *   optionsText(table, "36")       // "set aside 3 3.000000 0.000000; set aside 3 6 6.000000 3.000000; ..."
 *
 * Every value is exact: a choice's value is points(K) * D + numerators[n - |K|] over the header's denominator D,
 * in BigInt, compared and printed as the command does (its floats, `expect`, are checked against the fractions). */

import { damaged, TableError } from "../lib/format.js";
import { wholeIn } from "../lib/command.js";
import { InvalidQuestion, shownText } from "../lib/notation.js";

/** The family's limits (engine/families/setaside/__init__.py LIMITS): a move is a byte, one bit a die. */
export const LIMITS = { dice: [1, 8], sides: [2, 12] };
export const TIE = "more dice set aside, then the lower faces";

// -- the rules: --dice and --sides, the header's rules, the file's name

/** `--dice` or `--sides` as the command line reads its text (engine/text.py's whole_in): its limits and refusal. */
export function optionValue(name, text) {
  return wholeIn(`--${name}`, text, ...LIMITS[name]);
}

/** The rules of the command line's game options ({ "--dice": text, "--sides": text }, each optional), checked in
 * the order Rules.from_options checks them; the family's defaults for the others. */
export function rulesFromOptions(family, options = {}) {
  const rules = { dice: family.dice, sides: family.sides };
  for (const name of ["dice", "sides"]) {
    if (Object.hasOwn(options, `--${name}`)) rules[name] = optionValue(name, options[`--${name}`]);
  }
  return rules;
}

/** The options that differ from the game's defaults, as the command line writes them: " --dice 4 --sides 8". */
export const optionWords = (family, { dice, sides }) =>
  (dice !== family.dice ? ` --dice ${dice}` : "") + (sides !== family.sides ? ` --sides ${sides}` : "");

/** The command line that solves the table of `rules` (the command solves a table on first use). */
export const solveCommand = (family, rules) => `ShutTheBox ${family.id}${optionWords(family, rules)} --expect`;

/** The table header's `rules` of { dice, sides }: the first `sides` points of the family's faces. */
export function headerRules(family, { dice, sides }) {
  if (!Array.isArray(family.points) || family.points.length < sides) {
    throw new TableError(`The points of the faces of ${sides}-sided dice of ${family.id} are not known here.`);
  }
  return { dice, sides, points: family.points.slice(0, sides), best: family.best };
}

/** `GAME-dN-sS.msgpack` (section 13). */
export const tableName = (family, { dice, sides }) => `${family.id}-d${dice}-s${sides}.msgpack`;

/** "5 dice of 6 sides, a 3 scores 0, the lowest total wins" (Rules.describe). */
export function describeRules(family, rules) {
  const { points } = headerRules(family, rules);
  const odd = points.map((p, i) => [i + 1, p]).filter(([face, p]) => p !== face).map(([face, p]) => `a ${face} scores ${p}`);
  return `${rules.dice} dice of ${rules.sides} sides${odd.length ? `, ${odd.join(", ")}` : ""}, the ${family.best} total wins`;
}

// -- rolls: sorted faces, numbered in lexicographic order (section 13)

function comb(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i; // a whole number at every step
  return r;
}

/** The sorted rolls of `count` dice of `sides` faces. */
export const rollCount = (sides, count) => comb(sides + count - 1, count);

/** The first row of the rolls of `count` dice in the `move` array. */
export function offset(sides, count) {
  let sum = 0;
  for (let fewer = 1; fewer < count; fewer++) sum += rollCount(sides, fewer);
  return sum;
}

/** The row of the sorted `roll` in the `move` array. */
export function row(sides, roll) {
  let left = roll.length, rank = 0, low = 1;
  for (const face of roll) {
    left -= 1;
    for (let smaller = low; smaller < face; smaller++) rank += comb(sides - smaller + left, left);
    low = face;
  }
  return offset(sides, roll.length) + rank;
}

/** What the page and web/answer.mjs ask lib/format.js for, and the command that solves the table. */
export function tableSpec(family, rules) {
  const name = tableName(family, rules);
  return {
    url: name,
    options: { name, game: family.id, rules: headerRules(family, rules),
      arrays: { expect: ["<f8", [rules.dice + 1]], move: ["|u1", [offset(rules.sides, rules.dice + 1)]] }, fields: checkFields },
    command: solveCommand(family, rules),
    // Coach's first question (a roll of every die): its blocks fetched at once
    first: (table) => optionsText(table, exampleDice(rules)),
  };
}

/** The game fields a table must have (section 13): `denominator`, `numerators` and `tie`. */
function checkFields(header) {
  const { denominator, numerators, tie } = header;
  if (typeof denominator !== "string" || !/^[0-9]+$/.test(denominator) || typeof numerators !== "string" ||
      !/^[0-9]+(,[0-9]+)*$/.test(numerators) || typeof tie !== "string") {
    return "has no exact values (denominator, numerators) or tie in its header";
  }
  return null;
}

// -- the exact values, checked once against the floats

const exactValues = new WeakMap(); // table -> { numerators, denominator, points, lowest }

/** The table's exact values, read from its header and checked against `expect` (as the command checks them):
 * -> { numerators: [BigInt], denominator: BigInt, points, lowest }; TableError when they are not the floats'. */
export function exactOf(table) {
  let exact = exactValues.get(table);
  if (exact) return exact;
  const { dice, points, best } = table.rules;
  const no = () => damaged(table.name, "has no exact values, or values that are not its floats', in its header");
  const denominator = BigInt(table.header.denominator);
  const numerators = table.header.numerators.split(",").map(BigInt);
  if (denominator <= 0n || numerators.length !== dice + 1 || numerators[0] !== 0n) throw no();
  const top = dice * Math.max(...points);
  numerators.forEach((numerator, n) => {
    const stored = table.arrays.expect[n];
    if (!Number.isFinite(stored) || stored < 0 || stored > top) {
      throw damaged(table.name, `holds an impossible value: expect[${n}] is ${stored}`);
    }
    if (Math.abs(Number(numerator) / Number(denominator) - stored) > 1e-9) throw no();
  });
  exact = { numerators, denominator, points, lowest: best === "lowest" };
  exactValues.set(table, exact);
  return exact;
}

/** The table read, checked: its exact values are its floats' (the page and web/answer.mjs call it once read). */
export function checkTable(table) {
  const { points, best } = table.rules;
  if (!points.every(Number.isSafeInteger) || !["lowest", "highest"].includes(best)) {
    throw damaged(table.name, "has malformed rules");
  }
  exactOf(table);
  return table;
}

/** `numerator / denominator` to 6 decimals, correctly rounded, halves to even (table.py's six). */
export function six(numerator, denominator) {
  const million = 1000000n;
  let whole = numerator * million / denominator, rest = numerator * million % denominator;
  if (rest < 0n) { whole -= 1n; rest += denominator; } // Python's divmod: floor
  if (2n * rest > denominator || (2n * rest === denominator && whole % 2n !== 0n)) whole += 1n;
  let units = whole / million, part = whole % million;
  if (part < 0n) { units -= 1n; part += million; }
  return `${units}.${String(part).padStart(6, "0")}`;
}

// -- the dice showing, as the command line reads them (rules.py's parse_dice)

const DIGIT = /^\p{Nd}$/u;

/** Python's str.isdigit() on decimal digits (the digits int() reads). */
const isDigits = (points) => points.length > 0 && points.every((c) => DIGIT.test(c));

/** Dice as the command line's examples write them: "13356" (its dice_example), "1,12,3" with faces above 9. */
export function exampleDice({ dice, sides }) {
  return sides > 9 ? "1,12,3" : [1, 3, 3, 5, 6, 6, 6, 6].slice(0, dice).map((face) => Math.min(face, sides)).join("");
}

function diceExample(rules) {
  if (rules.sides > 9) return "numbers with commas, such as 1,12,3";
  return `digits, such as ${[1, 3, 3, 5, 6].slice(0, rules.dice).map((face) => Math.min(face, rules.sides)).join("")}`;
}

/** Dice as a player writes them, any order: digits (61352) where every face is one digit, else numbers with
 * commas (1,12,3) -> the sorted roll, checked; InvalidQuestion in parse_dice's words. */
export function parseDice(rules, text) {
  const quoted = `'${shownText(text)}'`;
  const points = Array.from(text);
  let parts;
  if (text.includes(",") || text.includes(" ")) {
    parts = text.replace(/,/g, " ").split(" ").filter(Boolean);
  } else if (rules.sides <= 9 || points.length === 1) {
    parts = points;
  } else { // a run of digits: one die above 9, or several dice? Refused, never guessed
    const ascii = /^[0-9]+$/.test(text); // the rules' text.isascii() and text.isdigit()
    const one = points.length === 2 && ascii && Number(text) <= rules.sides ? `, ${text}, for one die` : "";
    throw new InvalidQuestion(`dice ${quoted}: with faces above 9 separate the dice with commas ` +
      `(${Array.from(shownText(text)).slice(0, 8).join(",")} for several dice${one})`);
  }
  if (!parts.length || !parts.every((part) => /^[0-9]+$/.test(part))) {
    throw new InvalidQuestion(`dice ${quoted}: write the dice showing as ${diceExample(rules)}`);
  }
  const faces = parts.map((part) => BigInt(part));
  const wrong = faces.find((face) => face < 1n || face > BigInt(rules.sides));
  if (wrong !== undefined) throw new InvalidQuestion(`dice ${quoted}: a die shows 1 to ${rules.sides}, not ${wrong}`);
  if (faces.length > rules.dice) throw new InvalidQuestion(`dice ${quoted}: the game has ${rules.dice} dice, not ${faces.length}`);
  return faces.map(Number).sort((a, b) => a - b);
}

/** Dice as the command line writes them: "13356", "1,3,12". */
export const diceText = (rules, dice) => dice.join(rules.sides <= 9 ? "" : ",");

// -- the choices of a roll and the questions

/** Python's comparison of two lists of numbers. */
function compareLists(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Every distinct set of dice the sorted `roll` can set aside, best first, ties by the tie rule (more dice, then
 * the lower faces): [{ mask (bits of the sorted roll; of equal faces the leftmost), faces, value (BigInt, over the
 * denominator: the expected total still to come, the dice set aside now included) }] (table.py's choices).
 */
export function choices(table, roll) {
  const { points, numerators, denominator, lowest } = exactOf(table);
  const n = roll.length, found = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    let repeated = false;
    for (let i = 1; i < n && !repeated; i++) repeated = ((mask >> i) & 1) === 1 && !((mask >> (i - 1)) & 1) && roll[i - 1] === roll[i];
    if (repeated) continue; // of equal faces, the leftmost are set aside: one mask for each set of faces
    const faces = roll.filter((_, i) => (mask >> i) & 1);
    const value = BigInt(faces.reduce((sum, face) => sum + points[face - 1], 0)) * denominator + numerators[n - faces.length];
    found.push({ mask, faces, value, key: lowest ? value : -value });
  }
  found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.faces.length - a.faces.length || compareLists(a.faces, b.faces) || a.mask - b.mask));
  return found.map(({ mask, faces, value }) => ({ mask, faces, value }));
}

/** The table's move for the sorted `roll` (a bitmask of it), checked against the exact values. */
export function bestMask(table, roll) {
  const { dice, sides } = table.rules;
  const mask = table.arrays.move[row(sides, roll)];
  if (!(mask >= 1 && mask < 2 ** dice)) throw damaged(table.name, `holds an impossible value: a move of ${mask}`);
  if (mask >> roll.length) throw damaged(table.name, "holds a move of dice the roll does not have");
  if (mask !== choices(table, roll)[0].mask) throw damaged(table.name, "holds a move that is not the best");
  return mask;
}

/** The words of a choice: "set aside 3 3". */
export const moveWords = (faces) => `set aside ${faces.join(" ")}`;

/** A roll: text as the command line takes it (checked), or sorted faces. */
const rollOf = (table, dice) => (typeof dice === "string" ? parseDice(table.rules, dice) : dice);

/** `--expect [DICE]`: from the start (`dice` null), or with `dice` showing, before setting any aside. */
export function expectText(table, dice = null) {
  const { numerators, denominator } = exactOf(table);
  if (dice === null) return six(numerators[table.rules.dice], denominator);
  return six(choices(table, rollOf(table, dice))[0].value, denominator);
}

/** `--move DICE`: "set aside 3 3". */
export function moveText(table, dice) {
  const roll = rollOf(table, dice);
  const mask = bestMask(table, roll);
  return moveWords(roll.filter((_, i) => (mask >> i) & 1));
}

/** Every choice of `dice` with its value and what it gives away against the best, as text: [{ faces, value, gives,
 * valueText, givesText, givesAmount (a float, for display: a cost that prints as 0.000000 is still not 0), words }]
 * best first. */
export function choiceList(table, dice) {
  const { denominator } = exactOf(table);
  const list = choices(table, rollOf(table, dice));
  const best = list[0].value;
  return list.map(({ faces, value }) => {
    const gives = value > best ? value - best : best - value;
    return { faces, value, gives, words: moveWords(faces), valueText: six(value, denominator), givesText: six(gives, denominator),
      givesAmount: Number(gives) / Number(denominator) };
  });
}

/** `--options DICE`: "set aside 3 3.000000 0.000000; set aside 3 6 6.000000 3.000000; ...". */
export const optionsText = (table, dice) =>
  choiceList(table, dice).map((c) => `${c.words} ${c.valueText} ${c.givesText}`).join("; ");

/** The expected total still to come with `left` dice to roll, as text. */
export const leftText = (table, left) => six(exactOf(table).numerators[left], exactOf(table).denominator);

/** `ask()`'s line, or its refusal as the command line's batch writes it: "error: ...". */
const said = (ask) => {
  try {
    return ask();
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return `error: ${error.message}`;
  }
};

/**
 * Coach's question q = { dice: text as the command takes it, or null (the start of the game) } -> what the command
 * line prints: { value: `--expect`'s line (null when refused), move: `--move`'s (null without dice or refused),
 * line: `--options`'s ("" without dice, "error: ..." when refused), error: the refusal or null, choices: choiceList }.
 */
export function answer(table, q = {}) {
  const dice = q.dice ?? null;
  if (dice === null) return { value: expectText(table, null), move: null, line: "", error: null, choices: [] };
  const line = said(() => optionsText(table, dice));
  if (line.startsWith("error: ")) return { value: null, move: null, line, error: line.slice(7), choices: [] };
  return { value: expectText(table, dice), move: moveText(table, dice), line, error: null, choices: choiceList(table, dice) };
}
