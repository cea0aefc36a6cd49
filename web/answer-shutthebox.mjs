// `node web/answer.mjs [shutthebox] ...`: Shut the Box's questions in the command line's words (its grammar.py and
// solo/grammar.py), printed as `ShutTheBox` prints them, on the page's shutthebox/table.js and rules.js:
//
//   node web/answer.mjs --one --expect POSITION | --one --move POSITION ROLL              -> 0.502810, [9]
//   node web/answer.mjs --two --expect POSITION SCORE | --two --move POSITION SCORE ROLL  -> 0.381212, [3, 9]
//   node web/answer.mjs [GAME OPTIONS] --scores S1,S2,... --expect POSITION | --move POSITION ROLL
//   node web/answer.mjs [GAME OPTIONS] --solo --expect|--move ... [--variant NAME] [--objective shut|score]
//   node web/answer.mjs [GAME OPTIONS] [--table PATH] --batch < questions.txt
//
// GAME OPTIONS: --tiles, --dice, --sides, --one-die, --max-move-tiles, --players. Without --table the table is
// $SHUTTHEBOX_TABLE (the assignment's game only), else found where the command looks.
import path from "node:path";

import { findTable, notFound, opened, source, web } from "./io.mjs";
import { answerLine, fromTable, lazily, usageOf } from "./runner.mjs";

const { parseTable, formatMove } = await import(path.join(web, "shutthebox", "table.js"));
const Rules = await import(path.join(web, "shutthebox", "rules.js"));
const { InvalidQuestion, shownText, sixDecimals } = await import(path.join(web, "lib", "notation.js"));
const { FLAGS, looksLikeOption, nearest, whole, words } = await import(path.join(web, "lib", "command.js"));

const OPTIONS = ["--tiles", "--dice", "--sides", "--one-die", "--max-move-tiles", "--players"];
const FIELD = { "--tiles": "tiles", "--dice": "dice", "--sides": "sides", "--one-die": "oneDie",
  "--max-move-tiles": "maxMoveTiles", "--players": "players" };
const FORMS = { "--one --expect": ["POSITION"], "--one --move": ["POSITION", "ROLL"], "--two --expect": ["POSITION", "SCORE"],
  "--two --move": ["POSITION", "SCORE", "ROLL"] };
const PLAYERS = ["--one", "--two"], QUESTIONS = ["--expect", "--move"];
const TABLE_ENV = "SHUTTHEBOX_TABLE";

// -- the question's words (grammar.py's parse_query)

/** A two-player question's words -> { form: "--one --move", args } or { form: "--expect"|"--move", args, scores }
 * (any player's), or { solo } for a single-player one; InvalidQuestion in the command's words. */
function parseQuery(tokens) {
  if (isSolo(tokens)) return { solo: parseSolo(tokens) };
  let scores = null;
  const at = tokens.findIndex((token) => token === "--scores" || token.startsWith("--scores="));
  if (at >= 0) {
    if (tokens[at] === "--scores") {
      if (at + 1 >= tokens.length) throw new InvalidQuestion("--scores needs the scores posted so far, like --scores 17,23");
      scores = tokens[at + 1];
      tokens = [...tokens.slice(0, at), ...tokens.slice(at + 2)];
    } else {
      scores = tokens[at].slice("--scores=".length);
      tokens = [...tokens.slice(0, at), ...tokens.slice(at + 1)];
    }
  }
  const players = tokens.filter((t) => PLAYERS.includes(t)), questions = tokens.filter((t) => QUESTIONS.includes(t));
  const unknown = tokens.filter((t) => looksLikeOption(t) && !PLAYERS.includes(t) && !QUESTIONS.includes(t));
  const args = tokens.filter((t) => !looksLikeOption(t));
  if (unknown.length) {
    if (FLAGS.includes(unknown[0]) || ["--table", ...OPTIONS].some((option) => unknown[0].startsWith(option))) {
      throw new InvalidQuestion(`${unknown[0]} is an option of the command line, not of a query`);
    }
    const found = nearest(unknown[0], [...PLAYERS, ...QUESTIONS, "--scores", "--solo", "--variant", "--objective", ...FLAGS,
      "--table", ...OPTIONS]);
    throw new InvalidQuestion(`unknown option '${shownText(unknown[0])}'${found === null ? "" : `: did you mean ${found}?`} ` +
      "(the questions are --one/--two with --expect/--move)");
  }
  if (!tokens.length) throw new InvalidQuestion("no question asked: use --one or --two with --expect or --move (see --help)");
  if (scores !== null) return parseAny(scores, players, questions, args);
  if (new Set(players).size > 1) throw new InvalidQuestion("ask for one player only: --one or --two, not both");
  if (new Set(questions).size > 1) throw new InvalidQuestion("ask one question only: --expect or --move, not both");
  if (!players.length) throw new InvalidQuestion("say which player: --one or --two");
  if (!questions.length) throw new InvalidQuestion("say which question: --expect or --move");
  const form = `${players[0]} ${questions[0]}`, names = FORMS[form];
  if (players.length > 1 || questions.length > 1) {
    throw new InvalidQuestion(`${players.length > 1 ? players[0] : questions[0]} is given twice`);
  }
  if (args.length !== names.length) {
    throw new InvalidQuestion(`${form} takes ${names.join(" ")}, but got ${args.length ? `${args.length}: ${args.join(" ")}` : "no arguments"}`);
  }
  return { form, args };
}

/** `--scores 17,23 --expect POSITION` or `--move POSITION ROLL`: any player's question (_parse_any). */
function parseAny(scores, players, questions, args) {
  if (players.length) throw new InvalidQuestion(`--scores says which player is to move: leave out ${players[0]}`);
  if (questions.length !== 1) throw new InvalidQuestion("ask one question: --expect or --move");
  let parts = words(scores.replaceAll(",", " "));
  if (words(scores).join(" ") === "none") parts = []; // the first player's turn
  else if (!parts.length) {
    throw new InvalidQuestion(`--scores '${shownText(scores)}' lists no score; write none when no score is posted yet`);
  }
  const posted = parts.map((part) => whole("posted score", part));
  const names = questions[0] === "--expect" ? ["POSITION"] : ["POSITION", "ROLL"];
  if (args.length !== names.length) {
    throw new InvalidQuestion(`--scores ... ${questions[0]} takes ${names.join(" ")}, but got ${args.length} argument(s)`);
  }
  return { form: questions[0], args, scores: posted };
}

// -- single-player questions (solo/grammar.py)

const isSolo = (tokens) => tokens.some((t) => t === "--solo" || t.startsWith("--variant") || t.startsWith("--objective"));
const SOLO_FORMS = { "--expect": ["POSITION"], "--move": ["POSITION", "ROLL"] };

function variantRules(name) {
  if (!Object.hasOwn(Rules.SOLO_VARIANTS, name)) {
    throw new InvalidQuestion(`unknown variant '${shownText(name)}' (choose ${Object.keys(Rules.SOLO_VARIANTS).join(", ")})`);
  }
  return Rules.SOLO_VARIANTS[name].rules;
}

/** -> { question, args, variant (or null), objective }. */
function parseSolo(tokens) {
  if (!tokens.includes("--solo")) {
    throw new InvalidQuestion("--variant and --objective belong to single-player questions: add --solo");
  }
  let variant = null, objective = null, solo = 0;
  const questions = [], args = [];
  for (let n = 0; n < tokens.length; n++) {
    const word = tokens[n], cut = word.indexOf("=");
    const [name, value] = cut < 0 ? [word, ""] : [word.slice(0, cut), word.slice(cut + 1)];
    if (name === "--variant" || name === "--objective") {
      let text = value;
      if (!text) {
        text = tokens[++n];
        if (text === undefined || text.startsWith("--")) {
          throw new InvalidQuestion(`${name} needs a value (${name === "--variant" ? Object.keys(Rules.SOLO_VARIANTS).join(", ")
            : Rules.OBJECTIVES.join(" or ")})`);
        }
      }
      if (name === "--variant") {
        if (variant !== null) throw new InvalidQuestion("--variant is given twice");
        variantRules(text);
        variant = text;
      } else {
        if (objective !== null) throw new InvalidQuestion("--objective is given twice");
        if (!Rules.OBJECTIVES.includes(text)) throw new InvalidQuestion(`unknown objective '${shownText(text)}' (choose shut or score)`);
        objective = text;
      }
    } else if (word === "--solo") solo++;
    else if (Object.hasOwn(SOLO_FORMS, word)) questions.push(word);
    else if (PLAYERS.includes(word)) throw new InvalidQuestion(`--solo is the single-player game: drop ${word}`);
    else if (looksLikeOption(word)) {
      throw new InvalidQuestion(`unknown option '${shownText(word)}' (a --solo question is --expect or --move, with --variant and --objective)`);
    } else args.push(word);
  }
  if (solo > 1) throw new InvalidQuestion("--solo is given twice");
  if (!questions.length) throw new InvalidQuestion("say which question: --solo --expect POSITION or --solo --move POSITION ROLL");
  if (new Set(questions).size > 1) throw new InvalidQuestion("ask one question only: --expect or --move, not both");
  if (questions.length > 1) throw new InvalidQuestion(`${questions[0]} is given twice`);
  const names = SOLO_FORMS[questions[0]];
  if (args.length !== names.length) {
    throw new InvalidQuestion(`--solo ${questions[0]} takes ${names.join(" ")}, but got ${args.length ? `${args.length}: ${args.join(" ")}` : "no arguments"}`);
  }
  return { question: questions[0], args, variant, objective: objective ?? "shut" };
}

// -- the tables

/** The game options' rules and players (rules_from_options), or null when none is given. */
function gameOf(given) {
  if (!Object.keys(given).length) return null;
  const fields = Object.fromEntries(Object.entries(given).map(([flag, text]) => [FIELD[flag], text]));
  return Rules.rulesFromOptions(fields);
}

/** A Shut the Box table of `game` ("players" or "one-player"): --table's (with `rules`/`players` it must hold), or
 * the named file found where the command looks. */
async function tableOf(kind, file, name, command, rules = null, players = null) {
  if (file === null) {
    const { found, tried } = findTable(name);
    if (found === null) throw notFound(name, tried, command);
    file = found;
  }
  return parseTable(await source(file), { name: file, game: kind, rules, players: rules ? players : null });
}

/** The command that solves a table: the game options as given, then `question`. */
const solving = (given, question) => ["ShutTheBox", ...Object.entries(given).map(([flag, text]) => `${flag} ${text}`), question].join(" ");

/** The two- or more-player table of the game options (grammar.py's _load). */
function playersTable(game, given, tablePath) {
  if (game === null) {
    return tableOf("players", tablePath ?? (process.env[TABLE_ENV] || null), "standard.msgpack", "make tables");
  }
  const { rules, players } = game;
  return tableOf("players", tablePath, Rules.tableName(rules, players), solving(given, "--one --expect all"), rules, players);
}

/** The single-player table of a question (solo_table): the game options' rules, the variant's, or the standard. */
function soloTable(variant, given, tablePath, rules) {
  if (rules !== null && variant !== null && !Rules.sameRules(variantRules(variant), rules)) {
    throw new InvalidQuestion(`--variant ${variant} is ${Rules.describeRules(variantRules(variant))}, but the game options ` +
      `say ${Rules.describeRules(rules)}: give one or the other`);
  }
  const chosen = rules ?? (variant === null ? null : variantRules(variant)), wanted = chosen ?? Rules.STANDARD;
  return tableOf("one-player", tablePath, Rules.soloName(wanted), solving(given, "--solo --expect all"),
    tablePath !== null && chosen === null ? null : wanted);
}

// -- the session (grammar.py's Session)

const moveText = formatMove;

function session(given, tablePath) {
  // the game options are read when a table needs them, as the command reads them (a bad question first)
  const game = () => gameOf(given);
  const table = lazily(() => playersTable(game(), given, tablePath));
  const solos = new Map(); // a table a rule set, kept for the batch's next lines
  let soloOnly = false; // a batch on --table of a one-player table

  /** The game options' rules for a single-player question (_solo_rules). */
  const soloRules = () => {
    if (!Object.keys(given).length) return null;
    if (Object.hasOwn(given, "--players")) throw new InvalidQuestion("--solo is the single-player game: drop --players");
    return game().rules;
  };

  async function answerSolo({ question, args, variant, objective }) {
    const rules = soloRules(), key = `${variant}/${rules ? Rules.ruleKey(rules) : ""}`;
    if (!solos.has(key)) solos.set(key, lazily(() => soloTable(variant, given, tablePath, rules)));
    const solo = solos.get(key);
    await solo();
    if (question === "--expect") return fromTable(solo, (t) => sixDecimals(t.expect(args[0], objective)));
    const roll = whole("roll", args[1]);
    return fromTable(solo, (t) => moveText(t.move(args[0], roll, objective)));
  }

  async function answer(tokens) {
    const query = parseQuery(tokens);
    if (query.solo) return answerSolo(query.solo);
    if (soloOnly) throw new InvalidQuestion(`table file ${tablePath} is a one-player table: it answers --solo questions only`);
    await table();
    const { form, args } = query;
    // the numbers are read before the position (run_query's order), the table's checks then as the command's
    if (form === "--one --expect") return fromTable(table, (t) => sixDecimals(t.expectOne(args[0])));
    if (form === "--one --move") {
      const roll = whole("roll", args[1]);
      return fromTable(table, (t) => moveText(t.moveOne(args[0], roll)));
    }
    if (form === "--two --expect") {
      const score = whole("score", args[1]);
      return fromTable(table, (t) => sixDecimals(t.expectTwo(t.position(args[0]), score)));
    }
    if (form === "--two --move") {
      const score = whole("score", args[1]), roll = whole("roll", args[2]);
      return fromTable(table, (t) => moveText(t.moveTwo(t.position(args[0]), score, roll)));
    }
    const roll = form === "--move" ? whole("roll", args[1]) : null;
    return fromTable(table, (t) => {
      // two players: the scores checked first (TwoPlayerTable.expect); more: the position first (PlayersTable's)
      const mask = t.players === 2 ? (t.turn(query.scores), t.position(args[0])) : args[0];
      return form === "--expect" ? sixDecimals(t.expect(mask, query.scores)) : moveText(t.move(mask, roll, query.scores));
    });
  }

  return {
    answer,
    line: (text) => answerLine({ answer }, text),
    /** Before a batch's first line, as the command: --table's one-player file answers --solo lines only; with
     * game options and only --solo lines the players' table is not opened; otherwise it is. */
    async before(lines) {
      const options = Object.keys(given).length > 0;
      if (tablePath !== null && !options) {
        if ((await opened(tablePath)).header.game === "one-player") {
          soloOnly = true;
          return;
        }
      }
      if (options && lines.every((line) => !words(line).length || isSolo(words(line)))) return;
      await table();
    },
  };
}

export const SHUTTHEBOX = {
  id: "shutthebox",
  options: OPTIONS,
  usage: usageOf("shutthebox", ["[shutthebox] --one --expect POSITION | --one --move POSITION ROLL",
    "--two --expect POSITION SCORE | --two --move POSITION SCORE ROLL",
    "[GAME OPTIONS] --scores S1,S2,... --expect POSITION | --move POSITION ROLL",
    "[GAME OPTIONS] --solo --expect POSITION | --move POSITION ROLL [--variant NAME] [--objective shut|score]",
    "[GAME OPTIONS] [--table PATH] --batch < questions.txt"]),
  open: session,
};
