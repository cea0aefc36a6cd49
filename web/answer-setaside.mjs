// `node web/answer.mjs GAME ...` for every set-aside dice game (docs/FORMAT.md section 13: Threes and any game
// declared on that family): its questions in the command line's words, printed as `ShutTheBox GAME` prints them, on
// the page's families/setaside-table.js and families/setaside-command.js:
//
//   node web/answer.mjs GAME [--dice N] [--sides S] [--table PATH] --expect [DICE]   -> 6.253979
//   node web/answer.mjs GAME ... --move DICE                                          -> set aside 3 3
//   node web/answer.mjs GAME ... --options DICE     -> set aside 3 3.000000 0.000000; set aside 3 6 6.000000 3.000000; ...
//   node web/answer.mjs GAME ... --batch < questions.txt
//
// A GAME is found by its table, never by its name: a file GAME-dN-sS.msgpack of the shipped data/ whose header
// is GAME's, with rules holding `points` and `best` (the family's), gives the game's default dice and sides and
// what their faces score (other dice and sides: the points of their file, which must agree on those faces).
import fs from "node:fs";
import path from "node:path";

import { SHIPPED, tableFor, web } from "./io.mjs";
import { fromTable, lazily, usageOf } from "./runner.mjs";

const { TableError, openTable, readOpened } = await import(path.join(web, "lib", "format.js"));
const { settle } = await import(path.join(web, "lib", "remote.js"));
const SetAside = await import(path.join(web, "families", "setaside-table.js"));
const SetAsideCommand = await import(path.join(web, "families", "setaside-command.js"));

/** The header rules of a set-aside game's table: { dice, sides, points, best } as section 13 writes them, or null. */
function setAsideRules(header) {
  const rules = header.rules;
  if (!rules || typeof rules !== "object" || Array.isArray(rules)) return null;
  const { dice, sides, points, best } = rules;
  if (!Number.isInteger(dice) || !Number.isInteger(sides) || !Array.isArray(points) || points.length !== sides ||
      !points.every(Number.isSafeInteger) || !["lowest", "highest"].includes(best)) return null;
  return { dice, sides, points, best };
}

/**
 * The set-aside dice game `id`, found by its shipped table (GAME-dN-sS.msgpack in data/, a `GAME` header whose rules
 * hold `points` and `best`): { id, dice, sides, points, best }, its defaults; null when `id` is no such game.
 */
function findSetAsideGame(id) {
  if (!/^[a-z][a-z0-9-]*$/.test(id)) return null;
  const name = new RegExp(`^${id}-d[0-9]+-s[0-9]+\\.msgpack$`);
  for (const folder of SHIPPED) {
    let names;
    try {
      names = fs.readdirSync(folder).filter((file) => name.test(file)).sort();
    } catch {
      continue;
    }
    for (const file of names) {
      try {
        const bytes = fs.readFileSync(path.join(folder, file));
        const { header } = openTable(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { name: file });
        const rules = header.game === id ? setAsideRules(header) : null;
        if (rules && file === SetAside.tableName({ id }, rules)) return { id, ...rules };
      } catch (error) {
        if (!(error instanceof TableError)) throw error;
      }
    }
  }
  return null;
}

/** The verified table of `rules` (or, with --table alone, of the file's own dice and sides) of the game `family`:
 * a TableError otherwise. The points of faces the shipped table does not have are the file's. */
async function setAsideTable(family, rules, given, tablePath) {
  const { file, own: asked } = await tableFor(tablePath, given, () => ({ name: SetAside.tableName(family, rules),
    command: SetAside.solveCommand(family, rules) }), (header) => {
    const mine = header.game === family.id ? setAsideRules(header) : null;
    return mine && SetAside.rulesFromOptions(family, { "--dice": String(mine.dice), "--sides": String(mine.sides) });
  });
  rules = asked ?? rules;
  // faces the shipped table has not: their points are the file's (its first faces must score as the game's)
  const own = setAsideRules(file.header);
  const points = own && own.points.length > family.points.length ? [...family.points, ...own.points.slice(family.points.length)]
    : family.points;
  const table = readOpened(file, SetAside.tableSpec({ ...family, points }, rules).options);
  return settle(() => SetAside.checkTable(table));
}

/** The declaration of the set-aside game `id` for the runner (web/runner.mjs), or null when `id` is no such game. */
export function setAsideGame(id) {
  const family = findSetAsideGame(id);
  if (family === null) return null;
  return {
    id,
    options: SetAsideCommand.GAME_OPTIONS,
    usage: usageOf(id, [`${id} [--dice N] [--sides S] [--table PATH] --expect [DICE]`, `${id} ... --move DICE`,
      `${id} ... --options DICE`, `${id} ... --batch < questions.txt`]),
    open(given, tablePath) {
      const rules = SetAside.rulesFromOptions(family, given);
      const table = lazily(() => setAsideTable(family, rules, given, tablePath));
      return {
        // the table first, then the question's words, as the family's session does
        answer: async (tokens) => fromTable(table, (read) => SetAsideCommand.answerWords(read, tokens)),
        before: table, // a batch opens it before its first line, as the command does
      };
    },
  };
}
