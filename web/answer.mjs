#!/usr/bin/env node
// The page's Shut the Box reader (shutthebox/web/static/shutthebox/table.js, an ES module built
// on lib/format.js and lib/notation.js) in Node.js with the vendored decoder, answering
// questions given as JSON lines on stdin. A two- or multi-player table (docs/FORMAT.md 6.1, 6.3):
//
//   ["e1", "123456789"]                  -> {"value": 0.5028...}
//   ["m1", "146789", 9]                  -> {"move": [9]}
//   ["e2", "123456789", 8]               -> {"value": ...}
//   ["m2", "13456789", 17, 12]           -> {"move": [3, 9]}
//   ["expect", "123456789", [17, 20]]    -> {"value": ...}   the player after the scores posted
//   ["move", "12345", 7, [17, 20]]       -> {"move": [...]}
//   ["dice", "123", [17]]                -> {"dice": 1}
//   a question with no answer            -> {"error": "..."}
//
// a single-player table (solo-NAME.msgpack, 6.2):
//
//   ["shut", "123456789"], ["score", "123456789"], ["expect", "124", "score"], ["move", "12345", 7, "shut"]
//
// usage: node web/answer.mjs TABLE < questions.jsonl > answers.jsonl
// TABLE is a file, or the URL of one (http:// or https://): it is then read by HTTP ranges, only the
// blocks the questions need, each verified by its CRC-32 (lib/remote.js; the whole file from a host that
// refuses ranges). A missing or damaged table, or a host that answers a request otherwise than asked or not
// within 60 s ($SHUTTHEBOX_URL_TIMEOUT=SECONDS, 0.01 to 3600): one line on stderr, exit status 3; a bad URL: 2.
// A local file over 32 MiB ($SHUTTHEBOX_READ_WHOLE=BYTES) is read the same way, a block at a time, never whole.
// What every game's command shares (tables found and opened, --batch, refusals) is web/io.mjs's.
//
// Pig (docs/FORMAT.md section 10; the page's games/pig-table.js and games/pig-command.js) takes the command
// line's own words and prints what `ShutTheBox pig` prints:
//
//   node web/answer.mjs pig [--variant V] [--goal N] [--sides S] [--table PATH] --expect [I J K]   -> 0.530593
//   node web/answer.mjs pig ... --move I J K                                                       -> hold
//   node web/answer.mjs pig ... --options I J K             -> hold 0.657649 0.000000; roll 0.651341 0.006308
//   node web/answer.mjs pig ... --batch < questions.txt     one answer a line, "error: ..." for a refused one
//
// Every set-aside dice game (docs/FORMAT.md section 13: Threes and any game declared on that family; the page's
// families/setaside-table.js and families/setaside-command.js) likewise prints what `ShutTheBox GAME` prints:
//
//   node web/answer.mjs GAME [--dice N] [--sides S] [--table PATH] --expect [DICE]   -> 6.253979
//   node web/answer.mjs GAME ... --move DICE                                          -> set aside 3 3
//   node web/answer.mjs GAME ... --options DICE     -> set aside 3 3.000000 0.000000; set aside 3 6 6.000000 3.000000; ...
//   node web/answer.mjs GAME ... --batch < questions.txt
//
// yazy (docs/FORMAT.md 6.6 and 11; web/answer-yazy.mjs, on the page's games/yazy-command.js) likewise prints what
// `ShutTheBox yazy` prints, for one player, the target mode and two players:
//
//   node web/answer.mjs yazy [--categories LIST] [--table PATH] --expect [CATS [DICE REROLLS]]       -> 165.757319
//   node web/answer.mjs yazy ... --target X --expect [CATS [DICE REROLLS]], --move CATS DICE REROLLS
//   node web/answer.mjs yazy ... --players 2 --expect|--move|--options A B --scores S1,S2 [DICE REROLLS]
//   node web/answer.mjs yazy ... --batch < questions.txt
//
// A GAME is found by its table, never by its name: a file GAME-dN-sS.msgpack of the shipped data/ whose header
// is GAME's, with rules holding `points` and `best` (the family's), gives the game's default dice and sides and
// what their faces score (other dice and sides: the points of their file, which must agree on those faces).
//
// Exit status as the command's: 0 answered, 1 a batch line refused, 2 a bad question (one line on stderr,
// "answer.mjs: " and the command line's words), 3 the table missing or damaged. Without --table the table is
// looked for where the command looks (the shipped data/, then $SHUTTHEBOX_CACHE or ~/.cache/shutthebox);
// this reader solves nothing: a table not solved yet names the command that solves it.
import fs from "node:fs";
import path from "node:path";

import { SHIPPED, answerBatch, answeredFlags, findTable, isUrl, notFound, opened, refused, source, web } from "./io.mjs";
import { runWords } from "./runner.mjs";

const { parseTable, SoloTable, TableError, InvalidQuestion } = await import(path.join(web, "shutthebox", "table.js"));
const { openTable, readOpened } = await import(path.join(web, "lib", "format.js"));
const { settle } = await import(path.join(web, "lib", "remote.js"));
const { shownText } = await import(path.join(web, "lib", "notation.js"));
const Pig = await import(path.join(web, "games", "pig-table.js"));
const PigCommand = await import(path.join(web, "games", "pig-command.js"));
const SetAside = await import(path.join(web, "families", "setaside-table.js"));
const SetAsideCommand = await import(path.join(web, "families", "setaside-command.js"));

async function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write("usage: node answer.mjs TABLE < questions.jsonl\n");
    return 2;
  }
  let table;
  try {
    table = parseTable(await source(argv[0], argv[0]), { name: argv[0], game: "any" });
  } catch (error) {
    return refused(error);
  }
  const ask = table instanceof SoloTable ? {
    shut: (q) => ({ value: table.shutProbability(q[1]) }),
    score: (q) => ({ value: table.expectedScore(q[1]) }),
    expect: (q) => ({ value: table.expect(q[1], q[2]) }),
    move: (q) => ({ move: table.move(q[1], q[2], q[3]) }),
  } : {
    e1: (q) => ({ value: table.expectOne(q[1]) }),
    m1: (q) => ({ move: table.moveOne(q[1], q[2]) }),
    e2: (q) => ({ value: table.expectTwo(q[1], q[2]) }),
    m2: (q) => ({ move: table.moveTwo(q[1], q[2], q[3]) }),
    expect: (q) => ({ value: table.expect(q[1], q[2]) }),
    move: (q) => ({ move: table.move(q[1], q[2], q[3]) }),
    dice: (q) => ({ dice: table.dice(q[1], q[2]) }),
  };
  const out = [];
  for (const line of fs.readFileSync(0, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let question;
    try {
      question = JSON.parse(line);
    } catch {
      question = null;
    }
    if (!Array.isArray(question)) {
      process.stderr.write(`answer.mjs: the line '${shownText(line.slice(0, 80))}' is not a question: a JSON array such as ["e1", "1234"]\n`);
      return 2;
    }
    if (!Object.hasOwn(ask, question[0])) {
      process.stderr.write(`answer.mjs: '${question[0]}' is not a question for a ${table.game} table (${Object.keys(ask).join(", ")})\n`);
      return 2;
    }
    let answer;
    try {
      answer = await settle(() => ask[question[0]](question)); // a table read by ranges: its blocks as asked
    } catch (error) {
      if (error instanceof TableError) {
        process.stderr.write(`answer.mjs: ${error.message}\n`);
        return 3;
      }
      if (!(error instanceof InvalidQuestion)) throw error;
      answer = { error: error.message };
    }
    out.push(JSON.stringify(answer));
  }
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
  return 0;
}

// -- Pig: the command line's words

const PIG_USAGE = `usage: node answer.mjs pig [--variant V] [--goal N] [--sides S] [--table PATH] --expect [I J K]
       node answer.mjs pig ... --move I J K
       node answer.mjs pig ... --options I J K
       node answer.mjs pig ... --batch < questions.txt
The answers of \`ShutTheBox pig\` (see its --help), read from its table files by the games page's reader.
`;

/** The table of `rules` (or, with --table alone, of the file's own rules), verified: a TableError otherwise. */
async function pigTable(rules, given, tablePath) {
  let file;
  if (tablePath !== null) {
    file = await opened(tablePath);
    const own = file.header.rules;
    if (!Object.keys(given).length && file.header.game === Pig.GAME && own && typeof own === "object" && !Array.isArray(own)) {
      // --table alone: the file's own rules, as the command line reads them (Rules.from_fields)
      const fields = Object.fromEntries(Object.entries(own).map(([key, value]) => [`--${key}`, String(value)]));
      if (Object.hasOwn(Pig.FIXED_SIDES, fields["--variant"]) && fields["--sides"] === String(Pig.FIXED_SIDES[fields["--variant"]])) {
        delete fields["--sides"];
      }
      try {
        rules = Pig.rulesFromOptions(fields);
      } catch (error) {
        if (!(error instanceof InvalidQuestion)) throw error;
        throw new TableError(`The table ${tablePath} holds rules this version does not take (${error.message}).`);
      }
    }
  } else {
    const name = Pig.tableName(rules);
    const { found, tried } = findTable(name);
    if (found === null) throw notFound(name, tried, Pig.tableSpec(rules).command);
    file = await opened(found);
  }
  return Pig.checkValues(readOpened(file, Pig.tableSpec(rules).options));
}

/** `node answer.mjs pig ARGS`: the command line's answers; its exit status. */
async function pigMain(argv) {
  try {
    const { table: tablePath, flags, game, tokens } = PigCommand.splitOptions(argv);
    if (answeredFlags(flags, tokens, "pig", PIG_USAGE)) return 0;
    const rules = Pig.rulesFromOptions(game);
    // the table is opened when a question needs it (a refused question reads none), as the command does;
    // one read by ranges fetches the blocks each answer reads (settle)
    let table = null;
    const theTable = () => {
      if (table === null) throw new NotOpened();
      return table;
    };
    const answer = async (words) => {
      for (;;) {
        try {
          return await settle(() => PigCommand.answerWords(theTable, words));
        } catch (error) {
          if (!(error instanceof NotOpened)) throw error;
          table = await pigTable(rules, game, tablePath);
        }
      }
    };
    if (!flags.batch) {
      process.stdout.write((await answer(tokens)) + "\n");
      return 0;
    }
    return await answerBatch(async (line) => {
      const words = PigCommand.words(line);
      if (!words.length) return "";
      try {
        return await settle(() => PigCommand.answerWords(table, words));
      } catch (error) {
        if (!(error instanceof InvalidQuestion)) throw error;
        return `error: ${error.message}`;
      }
    }, async () => { table = await pigTable(rules, game, tablePath); }); // before its first line, as the command does
  } catch (error) {
    return refused(error);
  }
}

/** The table is needed by a question and not opened yet (opened, then the question asked again). */
class NotOpened extends Error {}

// -- the set-aside dice family: the command line's words

const familyUsage = (id) => `usage: node answer.mjs ${id} [--dice N] [--sides S] [--table PATH] --expect [DICE]
       node answer.mjs ${id} ... --move DICE
       node answer.mjs ${id} ... --options DICE
       node answer.mjs ${id} ... --batch < questions.txt
The answers of \`ShutTheBox ${id}\` (see its --help), read from its table files by the games page's reader.
`;

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
async function setAsideTable(family, rules, given, tablePathGiven) {
  let file;
  if (tablePathGiven !== null) {
    file = await opened(tablePathGiven);
    const own = file.header.game === family.id ? setAsideRules(file.header) : null;
    if (!Object.keys(given).length && own) {
      // --table alone: the file's own dice and sides, as the command line reads them (Rules.from_fields)
      try {
        rules = SetAside.rulesFromOptions(family, { "--dice": String(own.dice), "--sides": String(own.sides) });
      } catch (error) {
        if (!(error instanceof InvalidQuestion)) throw error;
        throw new TableError(`The table ${tablePathGiven} holds rules this version does not take (${error.message}).`);
      }
    }
  } else {
    const name = SetAside.tableName(family, rules);
    const { found, tried } = findTable(name);
    if (found === null) throw notFound(name, tried, SetAside.solveCommand(family, rules));
    file = await opened(found);
  }
  // faces the shipped table has not: their points are the file's (its first faces must score as the game's)
  const own = setAsideRules(file.header);
  const points = own && own.points.length > family.points.length ? [...family.points, ...own.points.slice(family.points.length)]
    : family.points;
  const table = readOpened(file, SetAside.tableSpec({ ...family, points }, rules).options);
  return settle(() => SetAside.checkTable(table));
}

/** `node answer.mjs GAME ARGS` for a set-aside dice game: the command line's answers; its exit status. */
async function setAsideMain(family, argv) {
  try {
    const { table: tablePathGiven, flags, game, tokens } = SetAsideCommand.splitOptions(argv);
    if (answeredFlags(flags, tokens, family.id, familyUsage(family.id))) return 0;
    const rules = SetAside.rulesFromOptions(family, game);
    if (!flags.batch) {
      // the table first, then the question's words, as the family's session does (a table read by ranges: the
      // blocks each answer reads, settle)
      const table = await setAsideTable(family, rules, game, tablePathGiven);
      process.stdout.write((await settle(() => SetAsideCommand.answerWords(table, tokens))) + "\n");
      return 0;
    }
    let table;
    return await answerBatch((line) => settle(() => SetAsideCommand.answerLine(table, line)),
      async () => { table = await setAsideTable(family, rules, game, tablePathGiven); }); // before its first line, as the command does
  } catch (error) {
    return refused(error);
  }
}

const args = process.argv.slice(2);
// a lone argument that is a file or a URL is a table (the JSON-lines questions above)
const aTable = args.length === 1 && (isUrl(args[0]) || fs.existsSync(args[0]));
/** The games answered by the one runner (web/runner.mjs), each declared in its answer-GAME.mjs. */
const DECLARED = {
  shutthebox: () => import("./answer-shutthebox.mjs").then(({ SHUTTHEBOX }) => SHUTTHEBOX),
  toggle: () => import("./answer-toggle.mjs").then(({ TOGGLE }) => TOGGLE),
  goat: () => import("./answer-goat.mjs").then(({ GOAT }) => GOAT),
};
// Shut the Box is the game of a command line that names none and starts with an option, as the command's
const flagship = !aTable && args.length > 0 && args[0].startsWith("-");
if (flagship) args.unshift("shutthebox");
const declared = aTable ? null : DECLARED[args[0]];
const setAside = ["pig", "yazy", "yahtzee"].includes(args[0]) || declared || aTable || !args.length ? null
  : findSetAsideGame(args[0]);
const yazy = () => import("./answer-yazy.mjs").then(({ yazyMain }) => yazyMain(args.slice(1)));
const yahtzee = () => import("./answer-yahtzee.mjs").then(({ yahtzeeMain }) => yahtzeeMain(args.slice(1)));
const status = await (declared ? declared().then((game) => runWords(game, args.slice(1)))
  : args[0] === "pig" ? pigMain(args.slice(1)) : args[0] === "yazy" && !aTable ? yazy()
    : args[0] === "yahtzee" && !aTable ? yahtzee() : setAside ? setAsideMain(setAside, args.slice(1)) : main(args));
// out once answered or refused, not when the last request still coming from a refused table's host ends
process.stdout.write("", () => process.stderr.write("", () => process.exit(status)));
