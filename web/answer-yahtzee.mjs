// `node web/answer.mjs yahtzee ...`: Yahtzee's questions in the command line's words, printed as
// `ShutTheBox yahtzee` prints them (docs/FORMAT.md sections 9 and 12; the page's games/yahtzee-command.js, with
// games/yahtzee-target.js and yahtzee-target-turn.js for `--target X`):
//
//   node web/answer.mjs yahtzee [--joker J] [--table PATH] --expect [CARD] [--upper N] [--yahtzee-box 50|0]  -> 254.587729
//   node web/answer.mjs yahtzee ... --move CARD [...] DICE REROLLS                                   -> keep 6 6
//   node web/answer.mjs yahtzee ... --options CARD [...] DICE REROLLS
//   node web/answer.mjs yahtzee ... --target X --expect CARD [...] [DICE REROLLS]   -> 0.854901 (the chance to reach X)
//   node web/answer.mjs yahtzee ... --target X --move CARD [...] DICE REROLLS
//   node web/answer.mjs yahtzee ... --batch < questions.txt
//
// Tables where the command finds them: yahtzee-JOKER.msgpack; for --target the whole game's
// yahtzee-target.JOKER.msgpack, else the card's reduced table (yahtzee-target.JOKER.4hlc-u51-y50.msgpack) the command
// caches; --table names one file (a target table then answers --target questions only, in a batch). This reader
// solves nothing: a table not there names the command that solves it (exit status 3).
import path from "node:path";

import { findTable, notFound, opened, web } from "./io.mjs";
import { usageOf, withTables } from "./runner.mjs";

const { TableError } = await import(path.join(web, "shutthebox", "table.js"));
const { readOpened } = await import(path.join(web, "lib", "format.js"));
const { shownText } = await import(path.join(web, "lib", "notation.js"));
const Command = await import(path.join(web, "games", "yahtzee-command.js"));
const Target = await import(path.join(web, "games", "yahtzee-target.js"));
const { JOKERS, rulesOf } = await import(path.join(web, "games", "yahtzee-rules.js"));

export const YAHTZEE = {
  id: "yahtzee",
  options: Command.GAME_OPTIONS,
  usage: usageOf("yahtzee", ["yahtzee [--joker J] [--table PATH] --expect [CARD] [--upper N] [--yahtzee-box 50|0]",
    "yahtzee ... --expect|--move|--options CARD [...] DICE REROLLS", "yahtzee ... --target X --expect CARD [...] [DICE REROLLS]",
    "yahtzee ... --target X --move CARD [...] DICE REROLLS", "yahtzee ... --batch < questions.txt"]),
  open(game, tablePath) {
    const session = new Command.YahtzeeSession(Command.ruleSet(game), tablePath);
    const given = Object.keys(game).length > 0;

    /** The expected points' table: --table's (its own joker rule when no game option is given), else found. */
    async function scoreTable() {
      let file = tablePath;
      if (file === null) {
        const name = `yahtzee-${session.joker}.msgpack`;
        const { found, tried } = findTable(name);
        if (found === null) {
          throw notFound(name, tried, `ShutTheBox yahtzee${session.joker === "official" ? "" : ` --joker ${session.joker}`} --expect`);
        }
        file = found;
      }
      const open = await opened(file);
      const own = open.header.rules?.joker;
      if (tablePath !== null && !given && open.header.game === "yahtzee" && JOKERS.includes(own) && !open.header.rules.variant) {
        session.joker = own; // --table alone: the file's own rule (rules_to_open)
      }
      Command.checkHeader(open, file, "yahtzee", rulesOf(session.joker));
      return readOpened(open, Command.scoreSpec(session.joker, file));
    }

    /** A target table file, verified. */
    async function targetFile(file, start = null) {
      const open = await opened(file);
      Command.checkHeader(open, file, Target.GAME, rulesOf(session.joker));
      if (start !== null && open.header.start !== start.join(",")) {
        throw new TableError(`table file ${file} holds the game from ${shownText(String(open.header.start))}, not from ` +
          `${start.join(",")} as its name says; delete it to solve it again`);
      }
      return Target.targetTable(readOpened(open, Target.targetSpec(session.joker, file)));
    }

    /** Give the session the table a question needs (NeedTable's key). */
    async function provide(key) {
      if (key === "score") {
        session.score = await scoreTable();
        return;
      }
      if (key === "target") { // --table's
        session.target = await targetFile(tablePath);
        return;
      }
      const whole = findTable(Target.wholeName(session.joker));
      if (whole.found !== null) {
        session.target = await targetFile(whole.found);
        return;
      }
      const reduced = findTable(key.name);
      if (reduced.found === null) {
        const folders = reduced.tried.map((file) => path.dirname(file));
        throw new TableError(`no target table for this card: neither ${key.name} nor ${Target.wholeName(session.joker)} ` +
          `is in ${folders.join(" or ")}; this reader solves nothing: solve it with ` +
          `\`${Target.solveCommand(session.joker, ...key.state)}\` (or in the page, under \`ShutTheBox serve\`)`);
      }
      session.targets.set(key.name, await targetFile(reduced.found, Target.normal(session.joker, ...key.state)));
    }

    /** A question's answer, its tables opened as it needs them (a table read by ranges: the blocks it reads). */
    const answer = (ask) => withTables(ask, Command.NeedTable, (need) => provide(need.key));
    return {
      answer: (tokens) => answer(() => session.answer(tokens)),
      line: (text) => answer(() => Command.answerLine(session, text)),
      async before() {
        // before the first line, as the command does: --table's target table answers --target questions only;
        // otherwise the expected points' table is opened
        if (tablePath !== null && (await opened(tablePath)).header.game === Target.GAME) session.targetOnly = true;
        else await provide("score");
      },
    };
  },
};
