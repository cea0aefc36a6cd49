/* Yahtzee's command line in JavaScript: the words after `ShutTheBox yahtzee` read as grammar.py reads them, and
 * answered from the tables as its Session answers them (the expected points, and `--target X` from the target
 * tables), refused in the same words and the same order, so that web/answer.mjs prints what the command prints:
 *
 *   session.answer(["--move", "all", "13366", "2"])                                   // "keep 6 6"
 *   session.answer(["--target", "67", "--expect", "4hlc", "--upper", "51", "--yahtzee-box", "50"])  // "0.854901"
 *
 * The session opens no file: a question needing a table it has not been given throws NeedTable naming it
 * (answer.mjs opens it, then asks again). Scandinavian Yatzy (--variant yatzy) is the command line's own. No DOM. */

import { TableError } from "../lib/format.js";
import { InvalidQuestion, shownText } from "../lib/notation.js";
import { oneQuestion, looksLikeOption, splitOptions as splitOptionsOf, whole, words, wrongCount } from "../lib/command.js";
import { rankOf } from "./yazy-rules.js";
import { CATEGORIES, FIFTY, JOKERS, OPEN, ROLLS, SIXES, STATES, UPPER, YAHTZEE, ZERO, canHold, cardOf, rulesOf, stateIndex,
  targetX } from "./yahtzee-rules.js";
import { optionsOf, turnOf } from "./yahtzee-turn.js";
import { heldState, reducedName, startChance } from "./yahtzee-target.js";
import { best, checkedChance, targetTurn } from "./yahtzee-target-turn.js";

export { words };
export const GAME_OPTIONS = ["--joker", "--variant"];
const FORMS = { "--expect": [[0, 1, 3], "CARD or CARD DICE REROLLS"], "--move": [[3], "CARD DICE REROLLS"],
  "--options": [[3], "CARD DICE REROLLS"] };
const ASKED = "a yahtzee question is --expect, --move or --options CARD [--upper N] [--yahtzee-box 50|0] [DICE REROLLS]";
const USE = "--expect CARD, --move CARD DICE REROLLS or --options CARD DICE REROLLS";
const QUERY_OPTIONS = ["--upper", "--yahtzee-box", "--target"];
export const YATZY = "yatzy";

/** The options of a command line (split_options), Yahtzee's game options among them. */
export const splitOptions = (argv) => splitOptionsOf(argv, GAME_OPTIONS);

/** The rule set of --variant and --joker (rules.py's variant_rule): a joker rule, or "yatzy". */
export function ruleSet(game) {
  const variant = game["--variant"], joker = game["--joker"];
  if (variant === undefined || variant === "yahtzee") {
    if (joker === undefined) return "official";
    if (!JOKERS.includes(joker)) throw new InvalidQuestion(`--joker must be official, free, none or bonus-only, not '${shownText(joker)}'`);
    return joker;
  }
  if (variant !== YATZY) throw new InvalidQuestion(`--variant must be yahtzee or yatzy, not '${shownText(variant)}'`);
  if (joker !== undefined) throw new InvalidQuestion("--joker is a rule of Yahtzee: Yatzy has no Yahtzee bonus and no jokers");
  return YATZY;
}

/** A question's words -> { question, args, options } (grammar.py's parse: query_options, card_words, one_question). */
export function parseQuestion(tokens) {
  const rest = [], options = {};
  for (let n = 0; n < tokens.length; n++) {
    const word = tokens[n], cut = word.indexOf("=");
    const name = cut < 0 ? word : word.slice(0, cut);
    if (!QUERY_OPTIONS.includes(name)) { rest.push(word); continue; }
    let value = word.slice(cut + 1);
    if (cut < 0) {
      value = tokens[n + 1];
      if (value === undefined || looksLikeOption(value)) throw new InvalidQuestion(`${name} needs a value (see --help)`);
      n++;
    }
    if (Object.hasOwn(options, name)) throw new InvalidQuestion(`${name} is given twice`);
    options[name] = value;
  }
  const joined = []; // `all -twos,chance`: one card word
  for (const word of rest) {
    const last = joined.length ? joined[joined.length - 1] : null;
    if (last !== null && last.toLowerCase() === "all" && word[0] === "-" && word[1] !== undefined && word[1] !== "-") joined[joined.length - 1] += " " + word;
    else joined.push(word);
  }
  const [question, args] = oneQuestion(joined, Object.keys(FORMS), ASKED, USE, GAME_OPTIONS);
  const [counts, names] = FORMS[question];
  if (!counts.includes(args.length)) throw wrongCount(question, names, args);
  return { question, args, options };
}

// -- the words of a state, in the command line's messages (rules.py)

/** `--upper N` (text): the points scored in ones..sixes, a total the closed upper boxes can hold. */
export function upperOf(text, card) {
  const total = whole("upper total", text);
  if (total >= 0 && canHold(card, total)) return total;
  const closed = CATEGORIES.slice(0, SIXES + 1).filter((_, c) => ((UPPER & ~card) >> c) & 1);
  const shown = shownText(text);
  if (!closed.length) throw new InvalidQuestion(`--upper ${shown}: no upper box is closed, so the upper section holds 0`);
  throw new InvalidQuestion(`--upper ${shown}: the closed upper boxes (${closed.join(",")}) cannot hold ${shown} ` +
    `point${total === 1 ? "" : "s"} together (box j holds a multiple of j from 0 to 5j)`);
}

/** `--yahtzee-box 50|0` (text or undefined): OPEN, ZERO or FIFTY. */
export function boxOf(text, card, joker) {
  if ((card >> YAHTZEE) & 1) {
    if (text !== undefined) throw new InvalidQuestion("--yahtzee-box is for a closed yahtzee box, and yahtzee is open on this card");
    return OPEN;
  }
  if (text === undefined) {
    if (joker === "none") return ZERO;
    throw new InvalidQuestion("the yahtzee box is closed on this card: say what it holds, --yahtzee-box 50 or 0");
  }
  if (text === "50") return FIFTY;
  if (text === "0") return ZERO;
  throw new InvalidQuestion(`--yahtzee-box must be 50 or 0, not '${shownText(text)}'`);
}

/** Five dice as digits in any order -> the sorted roll (rules.py's parse_dice). */
export function diceOf(text) {
  const rank = rankOf(text);
  if (rank !== undefined && /^[1-6]{5}$/.test(text)) return ROLLS[rank];
  const quoted = `'${shownText(text)}'`;
  if (!/^[0-9]+$/.test(text)) throw new InvalidQuestion(`dice ${quoted}: write the five dice as digits 1 to 6, such as 13366`);
  if (text.length !== 5) throw new InvalidQuestion(`dice ${quoted}: there are five dice, not ${text.length}`);
  throw new InvalidQuestion(`dice ${quoted}: a die shows 1 to 6, not ${[...text].find((d) => !"123456".includes(d))}`);
}

/** The rerolls left (rules.py's rerolls_left). */
export function rerollsOf(text) {
  const n = whole("number of rerolls", text);
  if (n < 0 || n > 2) throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${shownText(text)}`);
  return n;
}

const NO_TURN = "no box is open: the game is over, there is no turn to play";

/** [card, upper, box] of a question's state (YahtzeeTable.state). */
function stateOf(cats, upper, box, joker) {
  const card = cardOf(cats);
  return [card, upper === undefined ? 0 : upperOf(upper, card), boxOf(box, card, joker)];
}

/** grammar.py's checked: a bad question refused as the table would, before any table is opened. */
function checked(joker, args, upper, box) {
  const card = cardOf(args.length ? args[0] : "all");
  upperOf(upper ?? "0", card);
  boxOf(box, card, joker);
  if (args.length === 3) {
    diceOf(args[1]);
    rerollsOf(args[2]);
    if (!card) throw new InvalidQuestion(NO_TURN);
  }
}

/** A question needs a table the session has not been given: `key` is "score", "target" (--table's) or
 * { name, state } of a card's reduced table (the whole game's answers it too, when there). */
export class NeedTable extends Error {
  constructor(key) { super("a table is needed"); this.key = key; }
}

/**
 * The command's session (grammar.py's Session): `joker` the rule set of the game options, `path` --table or null.
 * Its tables, given by the reader when a NeedTable asks: `score` (the expected points), `target` (--table's, or
 * the whole game's target table), `targets` (name -> a card's reduced table); `targetOnly`: a batch on --table
 * of a target table.
 */
export class YahtzeeSession {
  constructor(joker, path) {
    Object.assign(this, { joker, path, score: null, target: null, targetOnly: false, targets: new Map() });
  }

  /** The table of key, or NeedTable. */
  need(key, found) {
    if (!found) throw new NeedTable(key);
    return found;
  }

  /** A question's words: the line the command prints, or InvalidQuestion with its refusal. */
  answer(tokens) {
    const { question, args, options } = parseQuestion(tokens);
    const upper = options["--upper"], box = options["--yahtzee-box"];
    if (Object.hasOwn(options, "--target")) return this.targetAnswer(question, args, options["--target"], upper, box);
    if (this.targetOnly) throw new InvalidQuestion(`table file ${this.path} is a target table: it answers --target questions only`);
    if (this.joker === YATZY) throw new InvalidQuestion("--variant yatzy is the command line's own: ask `ShutTheBox yahtzee --variant yatzy`");
    if (this.score === null && this.path === null) checked(this.joker, args, upper, box);
    const table = this.need("score", this.score);
    const joker = table.rules.joker;
    const [card, total, holds] = stateOf(args.length ? args[0] : "all", upper, box, joker);
    if (question === "--expect" && args.length < 3) {
      const value = table.arrays.turn[stateIndex(card, total, holds)];
      if (value > 0 && value < 1) {
        throw new TableError(`table file ${table.name} holds an impossible value: turn[${stateIndex(card, total, holds)}] ` +
          `is ${value}, not an expected number of points (0, or 1 and more)`);
      }
      return value.toFixed(6); // FORMAT.md section 9: every stored value prints right
    }
    if (!card) throw new InvalidQuestion(NO_TURN);
    const turn = turnOf(table, joker, card, total, holds);
    const found = optionsOf(turn, diceOf(args[1]), rerollsOf(args[2]));
    return question === "--move" ? found.best : question === "--options" ? found.line : found.value;
  }

  /** `--target X`: the chance to reach X, or the move that gives it (grammar.py's target_answer). */
  targetAnswer(question, args, x, upper, box) {
    if (question === "--options") throw new InvalidQuestion("--target takes --expect or --move, not --options");
    const target = targetX(x);
    if (this.joker === YATZY) throw new InvalidQuestion("--target is for Yahtzee's joker rules: Yatzy has no target table");
    if (this.target === null || this.path === null) checked(this.joker, args, upper, box);
    if (this.path !== null) this.need("target", this.target); // --table's, opened now
    const [card, total, holds] = stateOf(args.length ? args[0] : "all", upper, box, this.joker);
    if (this.path === null) { // Targets: the game over needs no table; else the card's table
      if (!card && args.length < 3) return (target <= 0 ? 1 : 0).toFixed(6);
      if (!card) throw new InvalidQuestion(NO_TURN);
    }
    const table = this.path !== null ? this.target : this.tableFor(card, total, holds);
    const held = heldState(table, card, total, holds);
    if (args.length < 3) return startChance(table, ...held, target).toFixed(6);
    if (!held[0]) throw new InvalidQuestion(NO_TURN);
    const turn = targetTurn(table, ...held, target);
    const choices = turn.choices(diceOf(args[1]), rerollsOf(args[2]));
    const [chance, move] = best(choices);
    return question === "--move" ? move : checkedChance(chance).toFixed(6);
  }

  /** The table answering a card with no --table (target/table.py's Targets.table_for): the whole game's when the
   * reader has it, else the card's reduced one (NeedTable with its name and state: the reader looks for both). */
  tableFor(card, total, holds) {
    if (this.target) return this.target;
    const name = reducedName(this.joker, card, total, holds);
    const found = this.targets.get(name);
    if (!found) throw new NeedTable({ name, state: [card, total, holds] });
    return found;
  }
}

// -- the tables' headers

/** lib/format.js's options for the expected points' table of a joker rule (FORMAT.md section 9). */
export function scoreSpec(joker, name) {
  return { name, game: "yahtzee", rules: rulesOf(joker), arrays: { turn: ["<f8", [STATES]] },
    fields: (h) => (typeof h.error_bound !== "string" ? "has no error_bound" : h.tie !== "1e-09" ? `has the tie ${JSON.stringify(h.tie)}` : null) };
}

/** A header value as Python writes it in a message (str() of the value, repr() inside a list). */
const python = (value, inside = false) => (Array.isArray(value) ? `[${value.map((v) => python(v, true)).join(", ")}]`
  : typeof value === "string" ? (inside ? `'${value}'` : value) : value === true ? "True" : value === false ? "False"
    : value === null || value === undefined ? "None" : String(value));

/** engine/table.py's describe_header: "a goat table (goal 100, dice 6, rolls 3)". */
const described = (game, rules) => (rules && typeof rules === "object" && !Array.isArray(rules)
  ? `a ${python(game)} table (${Object.entries(rules).map(([key, value]) => `${key} ${python(value)}`).join(", ")})`
  : `a '${python(game)}' table (${python(rules, true)})`);

/** A TableError in the command's words unless the opened file's header holds `game` and `rules` (engine/reader.py). */
export function checkHeader(opened, path, game, rules) {
  const got = opened.header;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const sameRules = got.rules && typeof got.rules === "object" && !Array.isArray(got.rules) &&
    Object.keys(got.rules).length === Object.keys(rules).length && Object.keys(rules).every((key) => same(got.rules[key], rules[key]));
  if (got.game !== game || !sameRules) {
    throw new TableError(`table file ${path} holds ${described(got.game, got.rules)}, not ${described(game, rules)} as asked; ` +
      "give a valid table file");
  }
}

/** A batch line (or Coach's command field): its answer, or "error: ..." as the command's batch writes it; ""
 * for a blank line. A NeedTable goes up. */
export function answerLine(session, line) {
  const said = words(line);
  if (!said.length) return "";
  try {
    return session.answer(said);
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return `error: ${error.message}`;
  }
}
