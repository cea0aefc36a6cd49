#!/usr/bin/env node
// The table reader in Node.js: the page's reader (shutthebox/web/static/table.js) with
// the vendored decoder, answering questions given as JSON lines on stdin:
//
//   ["e1", "123456789"]            -> {"value": 0.5028...}
//   ["m1", "146789", 9]            -> {"move": [9]}
//   ["e2", "123456789", 8]         -> {"value": ...}
//   ["m2", "13456789", 17, 12]     -> {"move": [3, 9]}
//   a question with no answer      -> {"error": "..."}
//
// or, given a single-player table (solo-NAME.msgpack, docs/FORMAT.md section 6.2):
//
//   ["shut", "123456789"]          -> {"value": 0.0714...}   shut probability
//   ["score", "123456789"]         -> {"value": 11.1575...}  lowest expected final score
//   ["expect", "124", "score"]     -> {"value": ...}         either, by objective
//   ["move", "12345", 7, "shut"]   -> {"move": [3, 4]}       optimal move for an objective
//
// usage: node web/answer.js TABLE < questions.jsonl > answers.jsonl
// A missing or damaged table: one line on stderr, exit status 3.
"use strict";
const fs = require("fs");
const path = require("path");

const web = path.join(__dirname, "..", "shutthebox", "web", "static");
const MessagePack = require(path.join(web, "vendor", "msgpack.min.js"));
const STB = require(path.join(web, "table.js"));

function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write("usage: node answer.js TABLE < questions.jsonl\n");
    return 2;
  }
  let table;
  try {
    let bytes;
    try {
      bytes = fs.readFileSync(argv[0]);
    } catch (error) {
      throw new STB.TableError("The table " + argv[0] + " cannot be read (" + error.code + ").");
    }
    table = STB.parse(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), MessagePack.decode, argv[0], "any");
  } catch (error) {
    if (!(error instanceof STB.TableError)) throw error;
    process.stderr.write("answer.js: " + error.message + "\n");
    return 3;
  }
  const solo = table instanceof STB.SoloTable;
  const ask = solo ? {
    shut: (q) => ({ value: table.shutProbability(q[1]) }),
    score: (q) => ({ value: table.expectedScore(q[1]) }),
    expect: (q) => ({ value: table.expect(q[1], q[2]) }),
    move: (q) => ({ move: table.move(q[1], q[2], q[3]) }),
  } : {
    e1: (q) => ({ value: table.expectOne(q[1]) }),
    m1: (q) => ({ move: table.moveOne(q[1], q[2]) }),
    e2: (q) => ({ value: table.expectTwo(q[1], q[2]) }),
    m2: (q) => ({ move: table.moveTwo(q[1], q[2], q[3]) }),
  };
  const out = [];
  for (const line of fs.readFileSync(0, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const question = JSON.parse(line);
    if (!Object.prototype.hasOwnProperty.call(ask, question[0])) {
      process.stderr.write("answer.js: '" + question[0] + "' is not a question for a " + table.header.game +
        " table (" + Object.keys(ask).join(", ") + ")\n");
      return 2;
    }
    let answer;
    try {
      answer = ask[question[0]](question);
    } catch (error) {
      if (!(error instanceof STB.InvalidQuery)) throw error;
      answer = { error: error.message };
    }
    out.push(JSON.stringify(answer));
  }
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
