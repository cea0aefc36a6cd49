/* yazy's command line in JavaScript: the words after `ShutTheBox yazy` read as the command reads them (the shared
 * reading is lib/command.js's; yazy's grammar.py here: `--target X`, `--players 2 ... --scores S1,S2`), so that
 * web/answer.mjs answers a question's words, or refuses them, word for word as the command line does:
 *
 *   answerWords(session, ["--players", "2", "--expect", "all", "all", "--scores", "0,0"])   // "0.498983"
 *
 * A session holds the game (`--categories`) and its tables, opened when a question first needs one:
 * { game, path (--table or null), only ("target" or "duel": a batch on such a --table), opened(kind), table(kind) }.
 * No DOM. */

import { InvalidQuestion, shownText } from "../lib/notation.js";
import { looksLikeOption, oneQuestion, splitOptions as splitOptionsOf, words, wrongCount } from "../lib/command.js";
import { fixed } from "../lib/printing.js";
import { duelState, moveText as duelMove, optionsText, over, winText } from "./yazy-duel.js";
import { expectText, moveText, targetMoveText, targetText, targetX } from "./yazy-table.js";

export { words };
export const GAME_OPTIONS = ["--categories"];
const FORMS = { "--expect": [[0, 1, 3], "[CATS] or CATS DICE REROLLS"], "--move": [[3], "CATS DICE REROLLS"] };
const DUEL_FORMS = { "--expect": [[2, 4], "A B [DICE REROLLS]"], "--move": [[4], "A B DICE REROLLS"],
  "--options": [[4], "A B DICE REROLLS"] };

/** The options of a command line (split_options), `--categories` among them. */
export const splitOptions = (argv) => splitOptionsOf(argv, GAME_OPTIONS);

/** `--goal=50`, or `--goal` and the next word (engine/text.py's option_value): [name, value]. */
function optionValue(tokens, n, hint) {
  const word = tokens[n], cut = word.indexOf("=");
  if (cut >= 0) return [word.slice(0, cut), word.slice(cut + 1), n];
  const given = tokens[n + 1];
  if (given === undefined || looksLikeOption(given)) throw new InvalidQuestion(`${word} needs a value${hint}`);
  return [word, given, n + 1];
}

const nameOf = (word) => (word.includes("=") ? word.slice(0, word.indexOf("=")) : word);

/** [two players?, the text of --scores, the other words] (grammar.py's duel_words). */
export function duelWords(tokens) {
  let players = null, scores = null;
  const rest = [];
  for (let n = 0; n < tokens.length; n++) {
    const name = nameOf(tokens[n]);
    if (name !== "--players" && name !== "--scores") {
      rest.push(tokens[n]);
      continue;
    }
    const [, value, next] = optionValue(tokens, n, name === "--players" ? " (--players 1 or 2)" : " (--scores S1,S2: the two totals)");
    n = next;
    if ((name === "--players" ? players : scores) !== null) throw new InvalidQuestion(`${name} is given twice`);
    if (name === "--players") {
      if (value !== "1" && value !== "2") throw new InvalidQuestion(`--players is 1 or 2, not '${shownText(value)}'`);
      players = value;
    } else scores = value;
  }
  if (players === "2" && scores === null) {
    throw new InvalidQuestion("a two-player question gives the totals: --scores S1,S2 (the mover's, then the opponent's)");
  }
  if (scores !== null && players !== "2") throw new InvalidQuestion("--scores is for two players' questions: add --players 2");
  return [players === "2", scores, rest];
}

/** [question, args, X or null] of a one-player question (grammar.py's parse). */
export function parseOne(tokens) {
  let target = null;
  const rest = [];
  for (let n = 0; n < tokens.length; n++) {
    if (nameOf(tokens[n]) !== "--target") {
      rest.push(tokens[n]);
      continue;
    }
    if (target !== null) throw new InvalidQuestion("--target is given twice");
    const [, value, next] = optionValue(tokens, n, " (--target X: the points to reach)");
    n = next;
    target = targetX(value);
  }
  const [question, args] = oneQuestion(rest, Object.keys(FORMS), "a yazy question is [--target X] --expect [CATS] [DICE REROLLS] " +
    "or [--target X] --move CATS DICE REROLLS", "--expect [CATS] or --move CATS DICE REROLLS", GAME_OPTIONS);
  const [counts, names] = FORMS[question];
  if (!counts.includes(args.length)) throw wrongCount(question, names, args);
  return [question, args, target];
}

/** [question, args] of a two-player question, after duelWords (grammar.py's parse_duel). */
export function parseDuel(tokens) {
  if (tokens.some((word) => nameOf(word) === "--target")) {
    throw new InvalidQuestion("--target is a one-player question: two players' questions are the chance to win");
  }
  const [question, args] = oneQuestion(tokens, Object.keys(DUEL_FORMS), "a two-player yazy question is --players 2 --expect A B " +
    "--scores S1,S2 [DICE REROLLS] or --players 2 --move|--options A B --scores S1,S2 DICE REROLLS",
    "--expect A B [DICE REROLLS] or --move|--options A B DICE REROLLS", GAME_OPTIONS);
  const [counts, names] = DUEL_FORMS[question];
  if (!counts.includes(args.length)) throw wrongCount(question, names, args);
  return [question, args];
}

/** In a batch on a target-mode or two-player --table, a question of another kind is refused. */
function refuseUnless(session, kind) {
  if (session.only === "target" && kind !== "target") {
    throw new InvalidQuestion(`table file ${session.path} is a target-mode table: it answers --target questions only`);
  }
  if (session.only === "duel" && kind !== "duel") {
    throw new InvalidQuestion(`table file ${session.path} is a two-player table: it answers --players 2 questions only`);
  }
}

/** A question's words answered from the session's tables: the line the command prints, or InvalidQuestion with its
 * refusal (grammar.py's Session.answer, in its order: a table is opened where the command opens it). */
export function answerWords(session, tokens) {
  const [players, scores, rest] = duelWords(tokens);
  if (players) {
    const [question, args] = parseDuel(rest);
    refuseUnless(session, "duel");
    const [mine, theirs, dice = null, rerolls = null] = args;
    if (!session.opened("duel") && session.path === null) { // a finished game needs no table
      const [mover, other, d] = duelState(session.game, mine, theirs, scores);
      if (!mover && !other) {
        if (dice !== null || question !== "--expect") throw new InvalidQuestion("no category is open: the game is over, there is no turn to play");
        return fixed(over(d));
      }
    }
    const table = session.table("duel");
    if (question === "--move") return duelMove(table, mine, theirs, scores, dice, rerolls);
    if (question === "--options") return optionsText(table, mine, theirs, scores, dice, rerolls);
    return winText(table, mine, theirs, scores, dice, rerolls);
  }
  const [question, args, target] = parseOne(rest);
  if (target !== null) {
    refuseUnless(session, "target");
    const table = session.table("target");
    return question === "--move" ? targetMoveText(table, target, ...args) : targetText(table, target, ...(args.length ? args : ["all"]));
  }
  refuseUnless(session, "one");
  const table = session.table("one");
  return question === "--move" ? moveText(table, ...args) : expectText(table, ...args);
}

/** A batch line: its answer, or "error: ..." as the command's batch writes it; "" for a blank line. */
export function answerLine(session, line) {
  const said = words(line);
  if (!said.length) return "";
  try {
    return answerWords(session, said);
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return `error: ${error.message}`;
  }
}
