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
// Every game's questions also in the command line's own words, printed as `ShutTheBox [GAME]` prints them and refused
// in its words: one runner (web/runner.mjs) reads the command line as the command does, each game declaring its
// options, usage and session in web/answer-GAME.mjs:
//
//   node web/answer.mjs --two --move 13456789 17 12               -> [3, 9]     Shut the Box (answer-shutthebox.mjs)
//   node web/answer.mjs --players 3 --scores 17,20 --expect all    -> 0.788031   (its game options, --solo too)
//   node web/answer.mjs toggle --move all 3 4                      -> 7          (answer-toggle.mjs)
//   node web/answer.mjs goat --duel 2,23 optimal                   -> 0.398872   (answer-goat.mjs, goat-duel.mjs)
//   node web/answer.mjs pig --options 0 0 25       -> hold 0.657649 0.000000; roll 0.651341 0.006308 (answer-pig.mjs)
//   node web/answer.mjs threes --move 13356                        -> set aside 3 3 (any set-aside game: answer-setaside.mjs)
//   node web/answer.mjs yazy --expect                              -> 165.757319 (answer-yazy.mjs)
//   node web/answer.mjs yahtzee --move all 66612 2                 -> keep 6 6 6 (answer-yahtzee.mjs)
//   node web/answer.mjs GAME ... --batch < questions.txt           one answer a line, "error: ..." for a refused one
//
// A command line that names no game and starts with an option is Shut the Box's, as the command's; a lone argument
// that is a file or a URL is a table asked in JSON lines (above). What every game's command shares (tables found
// and opened, --batch, refusals) is web/io.mjs's. Any other first word is refused with the reader's usage.
//
// Exit status as the command's: 0 answered, 1 a batch line refused, 2 a bad question (one line on stderr,
// "answer.mjs: " and the command line's words), 3 the table missing or damaged. Without --table the table is
// looked for where the command looks (the shipped data/, then $SHUTTHEBOX_CACHE or ~/.cache/shutthebox);
// this reader solves nothing: a table not solved yet names the command that solves it.
import fs from "node:fs";
import path from "node:path";

import { isUrl, refused, source, web } from "./io.mjs";
import { runWords } from "./runner.mjs";

const { parseTable, SoloTable, TableError, InvalidQuestion } = await import(path.join(web, "shutthebox", "table.js"));
const { settle } = await import(path.join(web, "lib", "remote.js"));
const { shownText } = await import(path.join(web, "lib", "notation.js"));

async function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write("usage: node answer.mjs TABLE < questions.jsonl\n" +
      "       node answer.mjs [GAME] ARGS (the command line's words, GAME one of its games; see GAME --help)\n");
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

const args = process.argv.slice(2);
// a lone argument that is a file or a URL is a table (the JSON-lines questions above)
const aTable = args.length === 1 && (isUrl(args[0]) || fs.existsSync(args[0]));
/** The games answered by the one runner, each declared in its answer-GAME.mjs (the set-aside family's found by
 * their shipped tables). */
const DECLARED = {
  shutthebox: () => import("./answer-shutthebox.mjs").then(({ SHUTTHEBOX }) => SHUTTHEBOX),
  toggle: () => import("./answer-toggle.mjs").then(({ TOGGLE }) => TOGGLE),
  goat: () => import("./answer-goat.mjs").then(({ GOAT }) => GOAT),
  pig: () => import("./answer-pig.mjs").then(({ PIG }) => PIG),
  yazy: () => import("./answer-yazy.mjs").then(({ YAZY }) => YAZY),
  yahtzee: () => import("./answer-yahtzee.mjs").then(({ YAHTZEE }) => YAHTZEE),
};
// Shut the Box is the game of a command line that names none and starts with an option, as the command's
if (!aTable && args.length && args[0].startsWith("-")) args.unshift("shutthebox");
const game = aTable || !args.length ? null : Object.hasOwn(DECLARED, args[0]) ? await DECLARED[args[0]]()
  : await import("./answer-setaside.mjs").then(({ setAsideGame }) => setAsideGame(args[0]));
const status = await (game ? runWords(game, args.slice(1)) : main(args));
// out once answered or refused, not when the last request still coming from a refused table's host ends
process.stdout.write("", () => process.stderr.write("", () => process.exit(status)));
