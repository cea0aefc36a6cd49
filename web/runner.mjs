// The one runner of every game's command line in the Node reader: the words after `node web/answer.mjs GAME` read
// as `ShutTheBox GAME` reads them (--table, the shared flags, the game's own options, then one question or a
// --batch), answered by the game's session and refused in the command's words and exit statuses. A game declares
// only what is its own:
//
//   { id,                      the command's name for it ("pig", "toggle", "shutthebox")
//     options,                 its game options (the Python grammar's GAME_OPTIONS)
//     usage,                   what --help prints
//     open(given, tablePath),  its session for the game options given and --table (null without)
//   }
//
// and its session answers: `answer(tokens)`, a promise of the line the command prints (InvalidQuestion for a
// refusal); optionally `line(text)` for a batch line (by default its words answered, "error: ..." when refused) and
// `before(lines)`, run once before a batch's first line (given them all), where the command opens its table.
import path from "node:path";

import { answerBatch, answeredFlags, refused, web } from "./io.mjs";

const { InvalidQuestion } = await import(path.join(web, "lib", "notation.js"));
const { splitOptions, words } = await import(path.join(web, "lib", "command.js"));
const { settle } = await import(path.join(web, "lib", "remote.js"));

/** `node answer.mjs GAME ARGS` for the declared `game`: its answers on stdout; the command's exit status. */
export async function runWords(game, argv) {
  try {
    const { table, flags, game: given, tokens } = splitOptions(argv, game.options);
    if (answeredFlags(flags, tokens, game.id, game.usage)) return 0;
    const session = game.open(given, table);
    if (!flags.batch) {
      process.stdout.write((await session.answer(tokens)) + "\n");
      return 0;
    }
    const line = session.line ? (text) => session.line(text) : (text) => answerLine(session, text);
    return await answerBatch(line, session.before ? (lines) => session.before(lines) : undefined);
  } catch (error) {
    return refused(error);
  }
}

/** A batch line as the command's batch answers it: "" for a blank line, "error: ..." for a refused one. */
export async function answerLine(session, text) {
  const said = words(text);
  if (!said.length) return "";
  try {
    return await session.answer(said);
  } catch (error) {
    if (!(error instanceof InvalidQuestion)) throw error;
    return `error: ${error.message}`;
  }
}

/** A table opened when a question first needs it, then kept: `open()` a promise of it, made once. A refused
 * opening is not kept (a batch's next line tries again, as the command's session does). */
export function lazily(open) {
  let table = null;
  return async () => {
    if (table === null) table = await open();
    return table;
  };
}

/** `ask(table)` answered from the table `get()` opens: a table read by ranges fetches the blocks the answer reads
 * (lib/remote.js's settle), each verified. */
export async function fromTable(get, ask) {
  const table = await get();
  return settle(() => ask(table));
}

/** `ask()` answered once the tables it needs are open: a `Need` error names one not opened yet, `provide(error)`
 * opens it and `ask` runs again (a table read by ranges fetches the blocks each answer reads). */
export async function withTables(ask, Need, provide) {
  for (;;) {
    try {
      return await settle(ask);
    } catch (error) {
      if (!(error instanceof Need)) throw error;
      await provide(error);
    }
  }
}

/** The usage every game's --help prints after its forms: where its answers come from. */
export const usageOf = (id, forms) => `${forms.map((form, n) => `${n ? "      " : "usage:"} node answer.mjs ${form}`).join("\n")}
The answers of \`ShutTheBox${id === "shutthebox" ? "" : ` ${id}`}\` (see its --help), read from its table files by the games page's reader.
`;
