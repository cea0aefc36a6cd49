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
// A missing or damaged table: one line on stderr, exit status 3.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.join(here, "..", "shutthebox", "web", "static");
globalThis.MessagePack = createRequire(import.meta.url)(path.join(web, "vendor", "msgpack.min.js"));
const { parseTable, SoloTable, TableError, InvalidQuestion } = await import(path.join(web, "shutthebox", "table.js"));

function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write("usage: node answer.mjs TABLE < questions.jsonl\n");
    return 2;
  }
  let table;
  try {
    let bytes;
    try {
      bytes = fs.readFileSync(argv[0]);
    } catch (error) {
      throw new TableError(`The table ${argv[0]} cannot be read (${error.code}).`);
    }
    table = parseTable(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { name: argv[0], game: "any" });
  } catch (error) {
    if (!(error instanceof TableError)) throw error;
    process.stderr.write(`answer.mjs: ${error.message}\n`);
    return 3;
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
    const question = JSON.parse(line);
    if (!Object.hasOwn(ask, question[0])) {
      process.stderr.write(`answer.mjs: '${question[0]}' is not a question for a ${table.game} table (${Object.keys(ask).join(", ")})\n`);
      return 2;
    }
    let answer;
    try {
      answer = ask[question[0]](question);
    } catch (error) {
      if (!(error instanceof InvalidQuestion)) throw error;
      answer = { error: error.message };
    }
    out.push(JSON.stringify(answer));
  }
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
