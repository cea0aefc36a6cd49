// `node web/answer.mjs yazy ...`: yazy's questions in the command line's words (one player, the target mode and
// two players; the page's games/yazy-command.js, yazy-table.js and yazy-duel.js), printing what `ShutTheBox
// yazy` prints, refused in its words, with its exit statuses. A table is opened when a question first needs it
// (the command's order: a two-player question's words are checked before its table is looked for); this reader
// solves nothing, so a table not solved yet is one line naming the command that solves it (exit status 3).
import path from "node:path";

import { findTable, notFound, opened, web } from "./io.mjs";
import { usageOf, withTables } from "./runner.mjs";

const { settle } = await import(path.join(web, "lib", "remote.js"));
const Command = await import(path.join(web, "games", "yazy-command.js"));
const Table = await import(path.join(web, "games", "yazy-table.js"));
const { ALL, gameCategories, gameOf } = await import(path.join(web, "games", "yazy-rules.js"));

/** A table is needed by a question and not opened yet (opened, then the question asked again). */
class NotOpened extends Error {
  constructor(kind) { super(`the ${kind} table is not opened`); this.kind = kind; }
}

export const YAZY = {
  id: "yazy",
  options: Command.GAME_OPTIONS,
  usage: usageOf("yazy", ["yazy [--categories LIST] [--table PATH] --expect [CATS [DICE REROLLS]]",
    "yazy ... --move CATS DICE REROLLS", "yazy ... --target X --expect [CATS [DICE REROLLS]] | --move CATS DICE REROLLS",
    "yazy ... --players 2 --expect A B --scores S1,S2 [DICE REROLLS]",
    "yazy ... --players 2 --move|--options A B --scores S1,S2 DICE REROLLS", "yazy ... --batch < questions.txt"]),
  open(given, tablePath) {
    const game = gameOf(Object.hasOwn(given, "--categories") ? gameCategories(given["--categories"]) : ALL);
    const fileOf = () => opened(tablePath);
    const tables = {};
    const session = {
      game, path: tablePath, only: null,
      opened: (kind) => Object.hasOwn(tables, kind),
      table(kind) {
        if (!tables[kind]) throw new NotOpened(kind);
        return tables[kind];
      },
    };
    /** The table of `kind`: --table's (with no --categories, under its own rules), else where the command looks. */
    const open = async (kind, file = null) => {
      let read, shown, own = game;
      if (tablePath !== null) {
        read = file ?? await fileOf();
        shown = tablePath;
        if (!Object.keys(given).length) own = Table.ownGame(read.header, kind, tablePath) ?? game;
      } else {
        const name = Table.tableName(kind, game), { found, tried } = findTable(name);
        if (found === null) throw notFound(name, tried, Table.solveCommand(kind, game));
        read = await opened(found);
        shown = found;
      }
      tables[kind] = await settle(() => Table.readKind(read, kind, own, shown));
    };
    const answer = (ask) => withTables(ask, NotOpened, (need) => open(need.kind));
    return {
      answer: (tokens) => answer(() => Command.answerWords(session, tokens)),
      line: (text) => answer(() => Command.answerLine(session, text)),
      async before() {
        if (tablePath === null) return;
        // before its first line, as the command does: the file's kind answers, or refuses
        const file = await fileOf();
        session.only = { "yazy-target": "target", "yazy-duel": "duel" }[file.header.game] ?? null;
        await open(session.only ?? "one", file);
      },
    };
  },
};
