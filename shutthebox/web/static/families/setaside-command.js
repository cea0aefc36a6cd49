/* A set-aside dice game's command line in JavaScript: the words after `ShutTheBox GAME` read as the command
 * reads them (engine/command.py's split_options and one_question, engine/text.py's wrong_count, the family's
 * grammar.py), so that web/answer.mjs and the page answer a question's words, or refuse them, word for word
 * as the command line does:
 *
 *   splitOptions(["--dice", "4", "--move", "1336"])   // { table: null, flags: {}, game: { "--dice": "4" }, tokens: [...] }
 *   answerWords(table, ["--move", "13356"])            // "set aside 3 3"
 *   answerWords(table, ["--mvoe", "12"])               // InvalidQuestion: unknown option '--mvoe': did you mean --move? (...)
 *
 * The command line's generic helpers (difflib's "did you mean", Python's str.split() and isdigit()) are
 * lib/command.js's. No DOM. */

import { InvalidQuestion } from "../lib/notation.js";
import { oneQuestion, splitOptions as splitOptionsOf, words, wrongCount } from "../lib/command.js";
import { expectText, moveText, optionsText } from "./setaside-table.js";

export { words };
export const GAME_OPTIONS = ["--dice", "--sides"];
const FORMS = ["--expect", "--move", "--options"];
const ASKED = "a question is --expect [DICE], --move DICE or --options DICE";
const USE = "--expect [DICE], --move DICE or --options DICE";

/** The options of a command line (split_options), the family's game options among them. */
export const splitOptions = (argv, gameOptions = GAME_OPTIONS) => splitOptionsOf(argv, gameOptions);

/** A question's words -> [question, DICE or null] (one_question, then the family grammar's count of DICE). */
export function parseQuestion(tokens, gameOptions = GAME_OPTIONS) {
  const [question, args] = oneQuestion(tokens, FORMS, ASKED, USE, gameOptions);
  if (args.length > 1 || (question !== "--expect" && !args.length)) {
    throw wrongCount(question, question === "--expect" ? "[DICE]" : "DICE", args);
  }
  return [question, args.length ? args[0] : null];
}

/** A question's words answered from `table`: the line the command prints, or InvalidQuestion with its refusal. */
export function answerWords(table, tokens) {
  const [question, dice] = parseQuestion(tokens);
  if (question === "--expect") return expectText(table, dice);
  return question === "--move" ? moveText(table, dice) : optionsText(table, dice);
}

/** A line of a batch (or of Coach's command field): its answer, or "error: ..." as the command's batch writes it;
 * "" for a blank line. */
export function answerLine(table, line) {
  const said = words(line);
  if (!said.length) return "";
  try {
    return answerWords(table, said);
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return `error: ${error.message}`;
  }
}
