// `node web/answer.mjs pig ...`: Pig's questions (docs/FORMAT.md section 10) in the command line's words, printed as
// `ShutTheBox pig` prints them, on the page's games/pig-table.js and games/pig-command.js:
//
//   node web/answer.mjs pig [--variant V] [--goal N] [--sides S] [--table PATH] --expect [I J K]   -> 0.530593
//   node web/answer.mjs pig ... --move I J K                                                       -> hold
//   node web/answer.mjs pig ... --options I J K             -> hold 0.657649 0.000000; roll 0.651341 0.006308
//   node web/answer.mjs pig ... --batch < questions.txt
import path from "node:path";

import { tableFor, web } from "./io.mjs";
import { fromTable, lazily, usageOf } from "./runner.mjs";

const { readOpened } = await import(path.join(web, "lib", "format.js"));
const Pig = await import(path.join(web, "games", "pig-table.js"));
const PigCommand = await import(path.join(web, "games", "pig-command.js"));

/** The file's own rules (a Pig table's header), as the command line reads them (Rules.from_fields); null for
 * another game's file. */
function ownRules(header) {
  const own = header.rules;
  if (header.game !== Pig.GAME || !own || typeof own !== "object" || Array.isArray(own)) return null;
  const fields = Object.fromEntries(Object.entries(own).map(([key, value]) => [`--${key}`, String(value)]));
  if (Object.hasOwn(Pig.FIXED_SIDES, fields["--variant"]) && fields["--sides"] === String(Pig.FIXED_SIDES[fields["--variant"]])) {
    delete fields["--sides"];
  }
  return Pig.rulesFromOptions(fields);
}

/** The table of `rules` (or, with --table alone, of the file's own rules), verified: a TableError otherwise. */
async function pigTable(rules, given, tablePath) {
  const { file, own } = await tableFor(tablePath, given, () => ({ name: Pig.tableName(rules),
    command: Pig.tableSpec(rules).command }), ownRules);
  return Pig.checkValues(readOpened(file, Pig.tableSpec(own ?? rules).options));
}

export const PIG = {
  id: "pig",
  options: PigCommand.GAME_OPTIONS,
  usage: usageOf("pig", ["pig [--variant V] [--goal N] [--sides S] [--table PATH] --expect [I J K]", "pig ... --move I J K",
    "pig ... --options I J K", "pig ... --batch < questions.txt"]),
  open(given, tablePath) {
    const rules = Pig.rulesFromOptions(given);
    const table = lazily(() => pigTable(rules, given, tablePath));
    return {
      // the words first, then the table (a refused question reads none), as the command does
      async answer(tokens) {
        PigCommand.parseQuestion(tokens);
        await table();
        return fromTable(table, (read) => PigCommand.answerWords(read, tokens));
      },
      before: table, // a batch opens it before its first line, as the command does
    };
  },
};
