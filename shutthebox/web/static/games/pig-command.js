/* Pig's command line in JavaScript: the words after `ShutTheBox pig` read as the command reads them (the
 * shared reading is lib/command.js's; Pig's grammar.py here), so that web/answer.mjs and the page answer a
 * question's words, or refuse them, word for word as the command line does:
 *
 *   splitOptions(["--variant", "piglet", "--expect", "1", "2", "3"])
 *       // { table: null, flags: {}, game: { "--variant": "piglet" }, tokens: ["--expect", "1", "2", "3"] }
 *   answerWords(table, ["--options", "0", "0", "25"])   // "hold 0.657649 0.000000; roll 0.651341 0.006308"
 *   answerWords(table, ["--expct", "0", "0", "0"])      // InvalidQuestion: unknown option '--expct': did you mean --expect? (...)
 *
 * No DOM. */

import { FLAGS, nearest, oneQuestion, splitOptions as splitOptionsOf, whole, words, wrongCount } from "../lib/command.js";
import { NUMBER_NAMES, answerText } from "./pig-table.js";

export { FLAGS, nearest, words };

export const GAME_OPTIONS = ["--variant", "--goal", "--sides"];
const FORMS = ["--expect", "--move", "--options"];
const ASKED = "a pig question is --expect, --move or --options I J K";
const USE = "--expect [I J K], --move I J K or --options I J K";

// -- the command line's words

/** The options of a command line (split_options), Pig's game options among them. */
export const splitOptions = (argv) => splitOptionsOf(argv, GAME_OPTIONS);

/** A question's words -> [question, [I, J, K]] (grammar.py's parse, one_question's refusals). */
export function parseQuestion(tokens) {
  const [question, args] = oneQuestion(tokens, FORMS, ASKED, USE, GAME_OPTIONS);
  if (question === "--expect" && !args.length) return [question, [0, 0, 0]];
  if (args.length !== 3) throw wrongCount(question, "I J K", args);
  return [question, args.map((text, n) => whole(NUMBER_NAMES[n], text))];
}

/** A question's words answered from `table` (or `table()`, opened only once the words are read): the line the
 * command prints, or InvalidQuestion with its refusal. */
export function answerWords(table, tokens) {
  const [question, [i, j, k]] = parseQuestion(tokens);
  return answerText(typeof table === "function" ? table() : table, question, i, j, k);
}
