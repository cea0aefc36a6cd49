/* Pig's tables (docs/FORMAT.md section 10), written from that document: the rules and their file names,
 * what the page reads, and the answers as `ShutTheBox pig --expect [I J K]`, `--move I J K` and
 * `--options I J K` print them, refused in the command line's words. No DOM: web/answer.mjs runs this
 * module in Node.js, the page (games/pig.js) in the browser.
 *
 *   const rules = rulesFromOptions({ "--variant": "piglet" });  // { variant: "piglet", goal: 10, sides: 2 }
 *   const table = readTable(bytes, tableSpec(rules).options);   // lib/format.js
 *   expectText(table, 50, 60, 10)   // "0.491273" on Pig to 100
 *   moveText(table, 0, 0, 21)       // "hold"
 *   optionsText(table, 0, 0, 25)    // "hold 0.657649 0.000000; roll 0.651341 0.006308"
 *
 * A state (I, J, K): the mover's banked score I, the opponent's J, the turn total K. The table holds the
 * mover's chance to win before choosing (`win`) and the best choice (`move`: 1 roll, 0 hold). The value of
 * the other choice is worked out from the table one roll (or one hold) ahead, as section 10 says, with the
 * outcomes of one roll in a fixed order (docs/PIG.md's), so that every float64 is the command line's.
 *
 * Printing: a stored chance whose flat index the header lists in `unsure` is refused, never printed; a
 * chance worked out one step ahead is printed only when its error bound keeps it away from a 6-decimal
 * rounding midpoint (the command line's engine/printing.py `checked`), else refused in its words. Numbers
 * are printed as Python's `%.6f` prints them (exact binary value, halves to even: fixed()). */

import { TableError } from "../lib/format.js";
import { wholeIn } from "../lib/command.js";
import { InvalidQuestion, shownText } from "../lib/notation.js";
import { checked, fixed } from "../lib/printing.js";

export const GAME = "pig";
export const VARIANTS = ["pig", "piglet", "two-dice", "big-pig"];
export const DEFAULT_GOAL = { pig: 100, piglet: 10, "two-dice": 100, "big-pig": 100 };
/** The faces of the variants' dice (a coin is a 2-sided die); only pig's may be chosen (--sides). */
export const FIXED_SIDES = { piglet: 2, "two-dice": 6, "big-pig": 6 };
export const GOAL_LIMITS = [2, 200];
const PIGLET_GOALS = [2, 50], TWO_SIDED_GOALS = [2, 100];
export const SIDES_LIMITS = [2, 20];
export const DEFAULT_SIDES = 6;
export const ROLL = "roll", HOLD = "hold";
/** Outcome kinds of one roll (section 10): points added, the turn lost, Two-Dice Pig's reset to 0. */
export const ADD = "add", BUST = "bust", RESET = "reset";

// -- the rules: the command line's game options, their limits and words (rules.py)

/** One game option's text -> its value, with the command line's refusal. */
export function optionValue(name, text) {
  if (name === "variant") {
    if (!VARIANTS.includes(text)) {
      throw new InvalidQuestion(`--variant must be one of ${VARIANTS.join(", ")}, not '${shownText(String(text))}'`);
    }
    return text;
  }
  if (name === "goal") return wholeIn("--goal", text, ...GOAL_LIMITS);
  if (name === "sides") return wholeIn("--sides", text, ...SIDES_LIMITS);
  throw new Error(`no game option ${name}`);
}

/** Why a variant takes no --sides (its dice are fixed). */
export function noSides(variant) {
  const die = variant === "piglet" ? "flips a coin" : "rolls two 6-sided dice";
  return `--sides is pig's die size; ${variant} ${die}: drop --sides`;
}

/** The goals a table is solved for: the variant's, fewer with a coin-like die (docs/PIG.md). */
export function goalLimits(variant, sides) {
  if (variant === "pig" && sides === 2) return TWO_SIDED_GOALS;
  return variant === "piglet" ? PIGLET_GOALS : GOAL_LIMITS;
}

/** The rules of checked values { variant, goal, sides } (null or absent: not given), completed as Rules does:
 * the variant's goal, pig's 6 sides, the other variants' fixed dice; InvalidQuestion in its words. */
export function makeRules({ variant = null, goal = null, sides = null } = {}) {
  variant ??= "pig";
  goal ??= DEFAULT_GOAL[variant];
  if (variant === "pig") sides ??= DEFAULT_SIDES;
  else if (sides === null || sides === FIXED_SIDES[variant]) sides = FIXED_SIDES[variant];
  else throw new InvalidQuestion(noSides(variant));
  const [low, high] = goalLimits(variant, sides);
  if (goal < low || goal > high) {
    const what = variant === "pig" ? "pig with a 2-sided die" : variant;
    throw new InvalidQuestion(`--goal of ${what} must be a whole number from ${low} to ${high}, not ${goal}`);
  }
  return { variant, goal, sides };
}

/** The rules of the game options' texts ({ "--variant": "piglet", "--goal": "20" }), checked in the order and
 * words of the command line (Rules.from_options). */
export function rulesFromOptions(options = {}) {
  const has = (flag) => Object.hasOwn(options, flag) && options[flag] !== undefined && options[flag] !== null;
  const variant = has("--variant") ? options["--variant"] : "pig";
  if (has("--sides") && Object.hasOwn(FIXED_SIDES, variant)) throw new InvalidQuestion(noSides(variant));
  const given = {};
  for (const name of ["variant", "goal", "sides"]) if (has(`--${name}`)) given[name] = optionValue(name, options[`--${name}`]);
  return makeRules(given);
}

/** The game options that ask for `rules` on the command line, the defaults left out: " --variant piglet". */
export function optionWords(rules) {
  const words = [];
  if (rules.variant !== "pig") words.push("--variant", rules.variant);
  if (rules.goal !== DEFAULT_GOAL[rules.variant]) words.push("--goal", String(rules.goal));
  if (rules.variant === "pig" && rules.sides !== DEFAULT_SIDES) words.push("--sides", String(rules.sides));
  return words.map((w) => " " + w).join("");
}

/** The rules in words, as `ShutTheBox pig --rules` says them (Rules.describe). */
export function describeRules({ variant, goal, sides }) {
  const what = {
    pig: `one ${sides}-sided die; a 1 ends the turn`,
    piglet: "a coin; tails ends the turn, heads adds 1",
    "two-dice": "two dice; a single 1 ends the turn, double 1s also reset the banked score to 0",
    "big-pig": "two dice; a single 1 ends the turn, double 1s add 25, other doubles twice their sum",
  };
  return `${variant}: first to ${goal}; ${what[variant]}`;
}

/** The table file of `rules`: pig-{variant}-g{goal}-s{sides}.msgpack. */
export const tableName = ({ variant, goal, sides }) => `pig-${variant}-g${goal}-s${sides}.msgpack`;

/** The rows of a goal's arrays: one per (I, K) with I + K below the goal. */
export const rows = (goal) => (goal * (goal + 1)) / 2;

/** The game fields of section 10, or what is wrong with them. */
function checkFields(header) {
  const number = (text) => typeof text === "string" && text.trim() !== "" && Number.isFinite(Number(text));
  if (!number(header.error_bound) || !number(header.tie)) return "has no error_bound or tie";
  const unsure = header.unsure ?? "";
  if (typeof unsure !== "string" || !/^([0-9]+(,[0-9]+)*)?$/.test(unsure)) return "has a damaged 'unsure' list";
  return null;
}

/** What the page (lib/format.js) and web/answer.mjs read for `rules`, and the command that solves the table. */
export function tableSpec(rules) {
  const name = tableName(rules), R = rows(rules.goal), G = rules.goal;
  return {
    url: name,
    options: { name, game: GAME, rules: { variant: rules.variant, goal: rules.goal, sides: rules.sides },
      arrays: { win: ["<f8", [R, G]], move: ["|u1", [R, G]] }, fields: checkFields },
    command: `ShutTheBox pig${optionWords(rules)} --expect`,
    first: (table) => optionsText(table, 0, 0, 0), // Coach's first question: its blocks fetched at once
  };
}

// -- one roll (rules.py's outcomes): merged, in the order of (kind, points), as the command line sums them

const outcomeCache = new Map();

/** One roll's outcomes [count, kind, points], `count` out of `sides` rolls (one die, a coin) or 36 (two dice). */
export function outcomes(variant, sides) {
  const key = `${variant}/${sides}`;
  if (outcomeCache.has(key)) return outcomeCache.get(key);
  const faces = [];
  if (variant === "pig" || variant === "piglet") {
    faces.push([BUST, 0]);
    for (let face = 2; face <= sides; face++) faces.push([ADD, variant === "piglet" ? 1 : face]);
  } else {
    for (let a = 1; a <= 6; a++) {
      for (let b = 1; b <= 6; b++) faces.push(rollOutcome(variant, [a, b]));
    }
  }
  const merged = new Map();
  for (const [kind, points] of faces) merged.set(`${kind} ${points}`, (merged.get(`${kind} ${points}`) || 0) + 1);
  const list = [...merged].map(([k, count]) => { const [kind, points] = k.split(" "); return [count, kind, Number(points)]; });
  list.sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[2] - y[2]));
  outcomeCache.set(key, list);
  return list;
}

/** What a roll showing `faces` does: [kind, points] (Play's dice: a die, a coin as faces 1 tails and 2 heads, two dice). */
export function rollOutcome(variant, faces) {
  if (variant === "pig") return faces[0] === 1 ? [BUST, 0] : [ADD, faces[0]];
  if (variant === "piglet") return faces[0] === 1 ? [BUST, 0] : [ADD, 1];
  const [a, b] = faces;
  if (a === 1 && b === 1) return variant === "two-dice" ? [RESET, 0] : [ADD, 25];
  if (a === 1 || b === 1) return [BUST, 0];
  if (a === b && variant === "big-pig") return [ADD, 4 * a];
  return [ADD, a + b];
}

/** The dice of a roll: a die of `sides` faces (pig), a coin (piglet), two 6-sided dice. */
export const diceOf = (rules) => (rules.variant === "pig" ? [rules.sides] : rules.variant === "piglet" ? [2] : [6, 6]);

// -- a read table (lib/format.js's readTable of tableSpec(rules).options)

const facts = new WeakMap();

/** What the header says, read once per table: { goal, bound, tie, unsure: Set of flat indexes }. */
export function tableFacts(table) {
  let f = facts.get(table);
  if (!f) {
    const unsure = table.header.unsure ?? "";
    f = { goal: table.rules.goal, bound: Number(table.header.error_bound), tie: Number(table.header.tie),
      unsure: new Set(unsure ? unsure.split(",").map(Number) : []), rules: makeRules(table.rules) };
    facts.set(table, f);
  }
  return f;
}

const checkedTables = new WeakSet();

/** `table`, once every value is one a Pig table can hold: a chance from 0 to 1 (within 1e-9: a solver's rounding)
 * and a move 0 or 1. Checksums vouch for the bytes, not for what they say: a file holding nan, a chance of 1.5
 * or a move 7 is refused (TableError), never printed, as the command line refuses it. */
export function checkValues(table) {
  if (checkedTables.has(table)) return table;
  const { win, move } = table.arrays;
  const impossible = (what, n, value, words) => new TableError(`The table ${table.name} holds an impossible value: ` +
    `${what}[${n}] is ${value}, not ${words}; rebuild it with \`make tables\`.`);
  const badWin = (v) => !(v >= -1e-9 && v <= 1 + 1e-9), badMove = (v) => v > 1;
  const checks = [[win, "win", badWin, "a chance from 0 to 1"], [move, "move", badMove, "a move (0 hold, 1 roll)"]];
  for (const [values, what, bad, words] of checks) {
    // a table read by ranges (lib/remote.js): each block is checked as it comes, before any answer reads it
    const each = (list, first) => {
      for (let n = 0; n < list.length; n++) if (bad(list[n])) throw impossible(what, first + n, list[n], words);
    };
    if (typeof values.check === "function") values.check(each);
    else each(values, 0);
  }
  checkedTables.add(table);
  return table;
}

/** A value a program passed, as a message shows it (engine/text.py's shown_value). */
const shownValue = (v) => (typeof v === "string" ? `'${shownText(v)}'` : typeof v === "number" && Math.abs(v) >= 1e12
  ? "a number far out of range" : shownText(String(v)));

/** The flat index of state (I, J, K), checked in the command line's order and words (PigTable.index). */
export function stateIndex(table, i, j, k = 0) {
  const G = tableFacts(table).goal;
  for (const [name, v] of [["I", i], ["J", j], ["K", k]]) {
    if (!Number.isInteger(v)) throw new InvalidQuestion(`${name} must be a whole number, not ${shownValue(v)}`);
    if (v < 0) throw new InvalidQuestion(`${name} is a score, 0 or more, not ${shownValue(v)}`);
  }
  if (j >= G) throw new InvalidQuestion(`J ${j} has reached the goal ${G}: the opponent has won`);
  if (i + k >= G) {
    const what = k === 0 ? `I ${i}` : `I + K = ${i + k}`;
    throw new InvalidQuestion(`${what} has reached the goal ${G}: the mover has won (holding banks it)`);
  }
  return (i * G - (i * (i - 1)) / 2 + k) * G + j + 0; // + 0: never -0
}

/** The stored chance at flat `index` as `%.6f`, unless the header lists it as unsure (refused, never printed). */
export function printed(table, index, value) {
  if (tableFacts(table).unsure.has(index)) {
    throw new InvalidQuestion("this chance lies within the table's error bound of a 6-decimal rounding midpoint, so its " +
      "6th decimal cannot be vouched for (docs/PIG.md); --move is answered");
  }
  return fixed(value, 6);
}

/** The mover's chance to win at (I, J, K) before choosing, both playing to win (a float64 of the table). */
export const winChance = (table, i, j, k = 0) => table.arrays.win[stateIndex(table, i, j, k)];

/** The best choice at (I, J, K): "roll" or "hold" (among equal ones hold; at K = 0 roll). */
export const bestMove = (table, i, j, k) => (table.arrays.move[stateIndex(table, i, j, k)] ? ROLL : HOLD);

/** The chance to win after a hold of K, unchecked: 1 - win(J, I + K, 0). */
function holdChance(table, i, j, k) {
  return i + k >= tableFacts(table).goal ? 1.0 : 1.0 - table.arrays.win[stateIndex(table, j, i + k, 0)];
}

/** The chance to win after a roll, unchecked: the table's value where rolling is best, else the mean over one
 * roll's outcomes (section 10), summed in the command line's order. */
function rollChance(table, i, j, k) {
  const index = stateIndex(table, i, j, k);
  if (table.arrays.move[index]) return table.arrays.win[index];
  const { goal, rules } = tableFacts(table), win = table.arrays.win;
  let total = 0.0, denominator = 0;
  for (const [count, kind, points] of outcomes(rules.variant, rules.sides)) {
    let value;
    if (kind === BUST) value = 1.0 - win[stateIndex(table, j, i, 0)];
    else if (kind === ADD) value = i + k + points >= goal ? 1.0 : win[stateIndex(table, i, j, k + points)];
    else value = 1.0 - win[stateIndex(table, j, 0, 0)];
    total += count * value;
    denominator += count;
  }
  return total / denominator;
}

/**
 * Every choice at (I, J, K) with its chance to win, the table's best first, unchecked (Play's values, which
 * never stop a game): { index, best: "roll" | "hold", choices: [{ choice, chance, stored }] } (no hold at K = 0;
 * `stored`: the chance is the table's own, else worked out one step ahead).
 */
export function choiceChances(table, i, j, k) {
  const index = stateIndex(table, i, j, k);
  const best = table.arrays.move[index] ? ROLL : HOLD;
  const choices = [{ choice: ROLL, chance: rollChance(table, i, j, k), stored: best === ROLL }];
  if (k) choices.push({ choice: HOLD, chance: holdChance(table, i, j, k), stored: false });
  if (best === HOLD && choices.length === 2) choices.reverse();
  return { index, best, choices };
}

/** A choice's chance as the command line would print it: { text } or { why } (the refusal). */
export function chanceText(table, index, { chance, choice, stored }) {
  const { bound } = tableFacts(table);
  try {
    if (stored) return { text: printed(table, index, chance) };
    const [extra, what] = choice === HOLD ? [1e-15, "the chance to win after a hold"] : [1e-14, "the chance to win after a roll"];
    return { text: fixed(checked(chance, bound + extra, what), 6) };
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return { text: null, why: error.message };
  }
}

/** The loss of a choice of chance `chance` against the best's, as --options prints it: max(best - chance, 0). */
export const lossOf = (best, chance) => Math.max(best - chance, 0.0);

// -- the answers, as the command line prints them

/** `--expect I J K`: "0.491273", or InvalidQuestion. */
export function expectText(table, i, j, k = 0) {
  const index = stateIndex(table, i, j, k);
  return printed(table, index, table.arrays.win[index]);
}

/** `--move I J K`: "roll" or "hold". */
export const moveText = (table, i, j, k) => bestMove(table, i, j, k);

/** `--options I J K`: "roll 0.491273 0.000000; hold 0.455306 0.035968" (the table's choice first, its chance
 * refused if unsure; a chance worked out one step ahead refused near a rounding midpoint, roll's first). */
export function optionsText(table, i, j, k) {
  const index = stateIndex(table, i, j, k);
  const { bound } = tableFacts(table);
  const roll = rollChance(table, i, j, k);
  if (!table.arrays.move[index]) checked(roll, bound + 1e-14, "the chance to win after a roll");
  const choices = [[ROLL, roll]];
  if (k) choices.push([HOLD, checked(holdChance(table, i, j, k), bound + 1e-15, "the chance to win after a hold")]);
  if (!table.arrays.move[index] && choices.length === 2) choices.reverse();
  const best = choices[0][1];
  return choices.map(([move, value], n) =>
    `${move} ${n === 0 ? printed(table, index, value) : fixed(value, 6)} ${fixed(lossOf(best, value), 6)}`).join("; ");
}

/** `--expect`, `--move` or `--options` at (I, J, K) -> the line the command prints (InvalidQuestion otherwise). */
export function answerText(table, question, i, j, k) {
  if (question === "--move") return moveText(table, i, j, k);
  if (question === "--expect") return expectText(table, i, j, k);
  return optionsText(table, i, j, k);
}

/** The names of I, J and K in the command line's messages. */
export const NUMBER_NAMES = ["score I", "score J", "turn total K"];
