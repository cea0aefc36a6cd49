// `node web/answer.mjs toggle ...`: toggle's questions (Project Euler 640; docs/FORMAT.md 6.5) in the command
// line's words, printed as `ShutTheBox toggle` prints them, on the page's games/toggle-table.js:
//
//   node web/answer.mjs toggle [--cards N] [--sides S] [--table PATH] --expect STATE   -> 50.317928
//   node web/answer.mjs toggle ... --move STATE X Y                                     -> 7
//   node web/answer.mjs toggle ... --batch < questions.txt
import path from "node:path";

import { tableFor, web } from "./io.mjs";
import { fromTable, lazily, usageOf } from "./runner.mjs";

const { readOpened } = await import(path.join(web, "lib", "format.js"));
const { InvalidQuestion, sixDecimals } = await import(path.join(web, "lib", "notation.js"));
const { oneQuestion, whole, wholeIn, wrongCount } = await import(path.join(web, "lib", "command.js"));
const Toggle = await import(path.join(web, "games", "toggle-table.js"));

const OPTIONS = ["--cards", "--sides"];
const LIMITS = { "--cards": [1, 16], "--sides": [2, 12] };
const FORMS = { "--expect": ["STATE"], "--move": ["STATE", "X", "Y"] };
const ASKED = "a toggle question is --expect STATE or --move STATE X Y";
const USE = "--expect STATE or --move STATE X Y";

/** The rules of the game options' texts, checked in the command's order and words (Rules.from_options). */
function rulesOf(given) {
  const value = (flag) => (Object.hasOwn(given, flag) ? wholeIn(flag, given[flag], ...LIMITS[flag])
    : Toggle.DEFAULT_RULES[flag.slice(2)]);
  const cards = value("--cards"), sides = value("--sides");
  return Toggle.checkRules(cards, sides);
}

/** The verified table of `rules` (with --table and no game option, of the file's own rules). */
async function tableOf(rules, given, tablePath) {
  const { file, own } = await tableFor(tablePath, given, () => ({ name: Toggle.tableSpec(rules).options.name,
    command: Toggle.tableSpec(rules).command }), (header) => (header.game === "toggle" && header.rules && typeof header.rules === "object"
    ? rulesOf({ "--cards": String(header.rules.cards), "--sides": String(header.rules.sides) }) : null));
  return readOpened(file, Toggle.tableSpec(own ?? rules).options);
}

/** The line the command prints for a question's words. */
async function answerWords(table, tokens) {
  const [question, args] = oneQuestion(tokens, Object.keys(FORMS), ASKED, USE, OPTIONS);
  if (args.length !== FORMS[question].length) throw wrongCount(question, FORMS[question].join(" "), args);
  await table(); // opened once the words are read, as the command opens it
  if (question === "--expect") {
    return fromTable(table, (t) => sixDecimals(t.arrays.rolls[Toggle.maskOf(t, args[0])]));
  }
  const x = whole("die", args[1]), y = whole("die", args[2]); // read before the state, as the command reads them
  return fromTable(table, (t) => {
    const said = Toggle.answer(t, { up: args[0], x, y });
    if (said.error) throw new InvalidQuestion(said.error);
    return said.move;
  });
}

export const TOGGLE = {
  id: "toggle",
  options: OPTIONS,
  usage: usageOf("toggle", ["toggle [--cards N] [--sides S] [--table PATH] --expect STATE", "toggle ... --move STATE X Y",
    "toggle ... --batch < questions.txt"]),
  open(given, tablePath) {
    const rules = rulesOf(given);
    const table = lazily(() => tableOf(rules, given, tablePath));
    return { answer: (tokens) => answerWords(table, tokens), before: table };
  },
};
