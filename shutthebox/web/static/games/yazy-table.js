/* yazy's tables of a game of some categories (docs/FORMAT.md 6.6 and section 11), written from that document:
 * the three kinds (`one` the expected score, `target` the chance to reach X, `duel` two players' chance to win),
 * their file names, what a reader checks (the header's game and rules in the command line's words, the arrays,
 * the values), and the one-player answers as `ShutTheBox yazy [--categories LIST] --expect ...`, `--move ...` and
 * `--target X ...` print them, refused in its words. No DOM: web/answer.mjs runs it, and the page.
 *
 *   const game = gameOf(gameCategories("ones,yazy"));
 *   tableName("duel", game)                           // "yazy-duel-ones.yazy.msgpack"
 *   const table = readKind(openTable(bytes), "one", game, path);
 *   expectText(table, game, "all", "11126", "2")      // "5.893168"-like, as the command prints */

import { TableError, readOpened, sameValue } from "../lib/format.js";
import { InvalidQuestion } from "../lib/notation.js";
import { whole } from "../lib/command.js";
import { checked, fixed } from "../lib/printing.js";
import { ALL, BEST, NO_MOVE, REROLLS, ROLLS, SCORE, describeMove, gameCategories, gameOf, openCategories, packed, rollIndex,
  score, withinGame } from "./yazy-rules.js";
import { best, turnChoices } from "./yazy-turn.js";

/** The header's game of each kind of table. */
export const KINDS = { one: "yazy", target: "yazy-target", duel: "yazy-duel" };
/** The target mode's X: 0 to 280, the most a game scores. */
export const TARGETS = 281;
const RELATIVE_BOUND = 2e-13; // the target mode's error bound, relative (turn.py)

/** The table file of a kind of table of `game`: yazy-duel-ones.yazy.msgpack, yazy-duel.msgpack for all eleven. */
export const tableName = (kind, game) => `${KINDS[kind]}${game.mask === ALL ? "" : "-" + game.names.join(".")}.msgpack`;

/** The header's rules of a kind of table of `game` (two players add `players`). */
export const headerRules = (kind, game) => ({ categories: game.names, dice: 5, sides: 6, rerolls: REROLLS,
  ...(kind === "duel" ? { players: 2 } : {}) });

/** The command line that solves a table this reader finds missing. */
export function solveCommand(kind, game) {
  const option = game.mask === ALL ? "" : ` --categories ${game.text}`;
  if (kind === "one") return game.mask === ALL ? "python build_tables.py --game yazy" : `ShutTheBox yazy${option} --expect`;
  if (kind === "target") return `ShutTheBox yazy${option} --target 0 --expect`;
  return `ShutTheBox yazy${option}${game.mask === ALL ? " --allow-large" : ""} --players 2 --expect all all --scores 0,0`;
}

// -- a table's header as the command line's messages word it (engine/table.py's describe_header)

/** Python's repr() of a decoded header value. */
const pyRepr = (v) => (typeof v === "string" ? `'${v}'` : pyText(v));
/** Python's str() of a decoded header value. */
function pyText(v) {
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
  return String(v);
}

/** `a goat table (goal 100, dice 6, rolls 3)`: what a header says it holds. */
export function describeHeader({ game, rules }) {
  if (rules && typeof rules === "object" && !Array.isArray(rules)) {
    return `a ${pyText(game)} table (${Object.entries(rules).map(([k, v]) => `${k} ${pyText(v)}`).join(", ")})`;
  }
  return `a ${pyRepr(game)} table (${pyRepr(rules)})`;
}

/** The game of a table file's own rules, when its header is of `kind` (`--table` with no `--categories`: the
 * command line's rules_in); null for a file of another game; TableError for rules this version does not take. */
export function ownGame(header, kind, path) {
  const rules = header.rules;
  if (header.game !== KINDS[kind] || !rules || typeof rules !== "object" || Array.isArray(rules)) return null;
  const refused = (why) => new TableError(`table file ${path} holds rules this version does not take (${why}); give a valid table file`);
  const { players = 2, ...own } = rules;
  if (kind === "duel" && String(players) !== "2") throw refused("a two-player yazy table is of two players");
  const keys = Object.keys(own);
  if (keys.length !== 1 && (keys.length !== 4 || String(own.dice) !== "5" || String(own.sides) !== "6" || String(own.rerolls) !== "2")) {
    throw refused("a yazy table is of five 6-sided dice and 2 rerolls");
  }
  const names = Array.isArray(own.categories) ? own.categories.map(String).join(",") : String(own.categories);
  try {
    return gameOf(gameCategories(names.replaceAll(".", ",")));
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    throw refused(error.message);
  }
}

// -- reading a table

const chanceArrays = (opened) => opened.descriptors || (opened.map.arrays && typeof opened.map.arrays === "object" ? opened.map.arrays : {});
const shapeOf = (given, key) => (given[key] && Array.isArray(given[key].shape) ? given[key].shape : null);

/** What lib/format.js reads for a kind of table of `game` (the duel's chances: as many as the file holds). */
export function tableSpec(kind, game) {
  const name = tableName(kind, game), sets = 2 ** game.names.length;
  const fields = (h) => (typeof h.error_bound === "string" && (kind === "duel" || typeof h.tie === "string") ? null
    : "has no error_bound or tie");
  let arrays;
  if (kind === "one") arrays = { turn: ["<f8", [sets]], expect: ["<f8", [sets, 3, 252]], move: ["|u1", [sets, 3, 252]] };
  else if (kind === "target") arrays = { target: ["<f8", [sets, TARGETS]] };
  else {
    arrays = (header, given = {}) => {
      const chances = shapeOf(given, "win_high") || [0], unsure = shapeOf(given, "unsure") || [0];
      return { start: ["<u4", [sets * sets]], first: ["<i2", [sets * sets]], count: ["<u2", [sets * sets]],
        win_high: ["<u4", chances], win_low: ["<u2", chances], unsure: ["<u4", unsure] };
    };
  }
  return { url: name, options: { name, game: KINDS[kind], rules: headerRules(kind, game), arrays, fields },
    command: solveCommand(kind, game) };
}

/** Every value of `values` (a typed array, or one read by ranges: each block as it comes) passes `ok`, else
 * TableError naming the first that does not: checksums vouch for the bytes, not for what they say. */
function checkEach(table, key, values, ok, words) {
  const each = (list, first) => {
    for (let n = 0; n < list.length; n++) {
      if (!ok(list[n])) {
        throw new TableError(`The table ${table.name} holds an impossible value: ${key}[${first + n}] is ${list[n]}, not ${words}; ` +
          "rebuild it with `make tables`.");
      }
    }
  };
  if (typeof values.check === "function") values.check(each);
  else each(values, 0);
}

/**
 * The table of `kind` and `game` from an opened file (lib/format.js's openTable, or lib/remote.js's): its game and
 * rules as asked (else the command line's refusal), its arrays and every value one a table of its kind holds.
 * -> lib/format.js's table, with `kind` and `game`.
 */
export function readKind(opened, kind, game, path = opened.name) {
  const expect = { game: KINDS[kind], rules: headerRules(kind, game) };
  if (opened.header.game !== expect.game || !sameValue(opened.header.rules, expect.rules)) {
    throw new TableError(`table file ${path} holds ${describeHeader(opened.header)}, not ${describeHeader(expect)} as asked; ` +
      "give a valid table file");
  }
  if (kind === "duel") {
    const given = chanceArrays(opened), chances = shapeOf(given, "win_high"), low = shapeOf(given, "win_low");
    if (!chances || chances.length !== 1 || !sameValue(chances, low)) {
      throw new TableError(`table file ${path} has arrays of the wrong shape for two-player yazy of ${game.text}; rebuild it with \`make tables\``);
    }
    if (!shapeOf(given, "unsure") || shapeOf(given, "unsure").length !== 1) {
      throw new TableError(`table file ${path} has no list of the chances near a rounding midpoint (array unsure); give a valid table file`);
    }
  }
  return checkKind(readOpened(opened, tableSpec(kind, game).options), kind, game);
}

/** A read table of `kind` and `game` (readKind's, or the page's lib/format.js's) once every value is one a table
 * of its kind holds: the table with `kind` and `game`, else TableError. */
export function checkKind(read, kind, game) {
  const table = Object.assign(read, { kind, game });
  const { arrays } = table;
  if (kind === "duel" && arrays.win_low.length !== arrays.win_high.length) {
    throw new TableError(`table file ${table.name} has arrays of the wrong shape for two-player yazy of ${game.text}; rebuild it with \`make tables\``);
  }
  const points = (v) => v >= -1e-9 && v <= 280 + 1e-9, chance = (v) => v >= -1e-9 && v <= 1 + 1e-9;
  if (kind === "one") {
    const codes = new Set([...Array(31).keys(), ...openCategories(game.mask).map((c) => SCORE + c), NO_MOVE]);
    checkEach(table, "turn", arrays.turn, points, "an expected score from 0 to 280");
    checkEach(table, "expect", arrays.expect, points, "an expected score from 0 to 280");
    checkEach(table, "move", arrays.move, (v) => codes.has(v), "a move code");
  } else if (kind === "target") checkEach(table, "target", arrays.target, chance, "a chance from 0 to 1");
  else {
    const most = BEST.reduce((a, b) => a + b, 0);
    checkEach(table, "first", arrays.first, (v) => v >= -most && v <= most, `a lead from -${most} to ${most}`);
    checkEach(table, "count", arrays.count, (v) => v <= 2 * most + 1, `a row's length from 0 to ${2 * most + 1}`);
  }
  return table;
}

// -- one player's answers, as `ShutTheBox yazy --expect`, `--move` and `--target X` print them

/** The row of the open set `mask` in the arrays of a game's table. */
export const rowOf = (game, mask) => (game.mask === ALL ? mask : packed(game.mask, mask));

/** The rerolls left as the command line reads them (table.py's _state). */
function rerollsOf(text) {
  const rerolls = whole("number of rerolls", text);
  if (rerolls < 0 || rerolls > REROLLS) throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${rerolls}`);
  return rerolls;
}

/** A mid-turn question's (mask, roll number, rerolls), checked in the command line's order and words. */
export function turnState(game, cats, dice, rerollsText) {
  const mask = withinGame(game, cats), roll = rollIndex(dice), rerolls = rerollsOf(rerollsText);
  if (!mask) throw new InvalidQuestion("no category is open: the game is over, there is no turn to play");
  return { mask, roll, rerolls };
}

/** `--expect [CATS [DICE REROLLS]]`: the maximum expected sum of the scores still to come. */
export function expectText(table, cats = "all", dice = null, rerolls = null) {
  const { game, arrays } = table;
  if (dice === null) return fixed(arrays.turn[rowOf(game, withinGame(game, cats))]);
  const { mask, roll, rerolls: left } = turnState(game, cats, dice, rerolls);
  return fixed(arrays.expect[(rowOf(game, mask) * 3 + left) * 252 + roll]);
}

/** `--move CATS DICE REROLLS`: `score CATEGORY`, `keep D D D` or `keep none`. */
export function moveText(table, cats, dice, rerolls) {
  const { game, arrays } = table;
  const { mask, roll, rerolls: left } = turnState(game, cats, dice, rerolls);
  const code = arrays.move[(rowOf(game, mask) * 3 + left) * 252 + roll];
  if (code === NO_MOVE) throw new TableError(`table file ${table.name} has no move for a turn with categories open; rebuild it`);
  return describeMove(code, ROLLS[roll]);
}

/** The target X (grammar.py's target_x): the points still to come, 0 to 280. */
export function targetX(text) {
  const x = whole("target X", text);
  if (x < 0 || x >= TARGETS) throw new InvalidQuestion(`the target X is the points still to come, 0 to ${TARGETS - 1} (the most a game scores), not ${x}`);
  return x;
}

/** The choices of a mid-turn target question (table.py's TargetTable._turn, turn.py's Turn). */
function targetChoices(table, x, cats, dice, rerolls) {
  const { game, arrays } = table;
  const { mask, roll, rerolls: left } = turnState(game, cats, dice, rerolls);
  const scoring = openCategories(mask).map((c) => {
    const base = rowOf(game, mask & ~(1 << c)) * TARGETS;
    return [c, Float64Array.from(ROLLS, (r) => { const p = score(c, r); return x > p ? arrays.target[base + x - p] : 1.0; })];
  });
  return turnChoices(scoring, roll, left);
}

/** `--target X --expect [CATS [DICE REROLLS]]`: the highest chance that the points still to come reach X. */
export function targetText(table, x, cats = "all", dice = null, rerolls = null) {
  const { game, arrays } = table;
  if (dice === null) return fixed(arrays.target[rowOf(game, withinGame(game, cats)) * TARGETS + x]);
  const [value] = best(targetChoices(table, x, cats, dice, rerolls));
  return fixed(checked(value, value * RELATIVE_BOUND, "yazy target: the chance"));
}

/** `--target X --move CATS DICE REROLLS`: the move that gives that chance. */
export const targetMoveText = (table, x, cats, dice, rerolls) => best(targetChoices(table, x, cats, dice, rerolls))[1];
