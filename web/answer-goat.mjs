// `node web/answer.mjs goat ...`: Goat's questions (docs/FORMAT.md 6.7) in the command line's words (its
// grammar.py), printed as `ShutTheBox goat` prints them, on the page's games/goat-table.js; the dice chosen once a
// turn (--choose once, goat-gG-once.msgpack) too:
//
//   node web/answer.mjs goat [--goal G] [--choose each|once] --solo --expect SCORE [--dice K --stop-at T] -> 8.783638
//   node web/answer.mjs goat ... --solo --expect|--move SCORE [TURN ROLLS [DICE]]                        -> roll 2
//   node web/answer.mjs goat ... --one|--two --expect|--move MY OPP [TURN ROLLS [DICE]]
//   node web/answer.mjs goat ... --duel A B          (worked out when asked: web/goat-duel.mjs)
//   node web/answer.mjs goat ... --batch < questions.txt
import path from "node:path";

import { tableFor, web } from "./io.mjs";
import { fromTable, lazily, usageOf } from "./runner.mjs";

const { readOpened } = await import(path.join(web, "lib", "format.js"));
const { InvalidQuestion, shownText, sixDecimals } = await import(path.join(web, "lib", "notation.js"));
const { looksLikeOption, whole, wholeIn, wrongCount } = await import(path.join(web, "lib", "command.js"));
const Goat = await import(path.join(web, "games", "goat-table.js"));

const OPTIONS = ["--goal", "--choose"];
const CHOICES = ["each", "once"];
const PLAYERS = { "--solo": 0, "--one": 1, "--two": 2 };
const QUESTIONS = ["--expect", "--move"];
const VALUED = ["--dice", "--stop-at"];
const DUEL_FORM = "--duel A B, each K,T (dice, stop at turn total T) or optimal";
const { DICE, ROLLS, MAX_GAIN, NEEDS } = Goat;
const MIN_SUM = [0, 1, 3, 6, 10, 15, 21];

/** The rules of the game options' texts (Rules.from_options): { goal, choose }. */
function rulesOf(given) {
  const goal = Object.hasOwn(given, "--goal") ? wholeIn("--goal", given["--goal"], 2, 150) : 100;
  const choose = given["--choose"] ?? "each";
  if (!CHOICES.includes(choose)) throw new InvalidQuestion(`--choose must be one of ${CHOICES.join(", ")}, not '${shownText(choose)}'`);
  return { goal, choose };
}

// -- the slots of a turn: 63 under each, 118 under once (docs/FORMAT.md 6.7)

/** [dice][rolls] -> the slot of turn total 0's place under once (rules.py's _once_layout), and the slots. */
const ONCE = (() => {
  const base = [[]];
  let at = 1;
  for (let dice = 1; dice <= DICE; dice++) {
    base.push([]);
    for (let rolls = 1; rolls < ROLLS; rolls++) {
      base[dice][rolls] = at - rolls * MIN_SUM[dice];
      at += rolls * (Goat.MAX_SUM[dice] - MIN_SUM[dice]) + 1;
    }
  }
  return { base, slots: at };
})();
const slotsOf = (rules) => (rules.choose === "once" ? ONCE.slots : Goat.SLOTS);

/** The slot of (TURN, ROLLS[, DICE]) under `choose`; InvalidQuestion unless the state can occur (check_state). */
function stateSlot(turn, rolls, dice, choose) {
  if (rolls < 0 || rolls >= ROLLS) throw new InvalidQuestion(`ROLLS is the rolls taken this turn, 0 to ${ROLLS - 1}, not ${rolls}`);
  const [low, high] = rolls === 0 ? [0, 0] : [rolls, rolls * Goat.MAX_SUM[DICE]];
  const plural = rolls > 1 ? "s" : "";
  if (turn < low || turn > high) {
    if (rolls === 0) throw new InvalidQuestion(`before the first roll the turn total is 0, not ${turn}`);
    throw new InvalidQuestion(`${rolls} roll${plural} cannot make a turn total of ${turn} (only ${low} to ${high})`);
  }
  if (choose === "each") {
    if (dice !== null) {
      throw new InvalidQuestion("DICE (the dice chosen for the turn) is part of a state only under --choose once; " +
        "under --choose each the dice are chosen before every roll");
    }
    return Goat.slot(rolls, turn);
  }
  if (rolls === 0) {
    if (dice !== null) throw new InvalidQuestion("before the first roll no dice are chosen yet: give DICE only with ROLLS 1 or 2");
    return 0;
  }
  if (dice === null) {
    throw new InvalidQuestion(`under --choose once the dice chosen this turn are part of the state: give DICE, 1 to ${DICE}, after ROLLS`);
  }
  if (dice < 1 || dice > DICE) throw new InvalidQuestion(`DICE is the number of dice chosen this turn, 1 to ${DICE}, not ${dice}`);
  const [first, last] = [rolls * MIN_SUM[dice], rolls * Goat.MAX_SUM[dice]];
  if (turn < first || turn > last) {
    throw new InvalidQuestion(`${rolls} roll${plural} of ${dice} ${dice === 1 ? "die" : "dice"} cannot make a turn total of ` +
      `${turn} (only ${first} to ${last})`);
  }
  return ONCE.base[dice][rolls] + turn;
}

/** A banked score below the goal (GoatTable._score). */
function banked(name, score, goal) {
  if (score < 0) throw new InvalidQuestion(`${name} is a banked score, 0 or more, not ${score}`);
  if (score >= goal) throw new InvalidQuestion(`${name} ${score} has reached the goal ${goal}: the game is over`);
  return score;
}

/** (array name, element index) of a question's numbers (SCORE or MY OPP, then TURN ROLLS [DICE]), checked in the
 * order and words of GoatTable's probes. */
function locate(table, player, numbers) {
  const { goal, choose } = table.rules, slots = slotsOf(table.rules);
  if (player === 0) {
    const [score, turn = 0, rolls = 0, dice = null] = numbers;
    const row = banked("SCORE", score, goal);
    return ["solo", row * slots + stateSlot(turn, rolls, dice, choose)];
  }
  const [mine, opp, turn = 0, rolls = 0, dice = null] = numbers;
  const my = banked("MY", mine, goal);
  if (opp < 0) throw new InvalidQuestion(`OPP is a banked score, 0 or more, not ${opp}`);
  const here = stateSlot(turn, rolls, dice, choose);
  if (player === 1) {
    if (opp >= goal) {
      throw new InvalidQuestion(`OPP ${opp} has reached the goal ${goal}: the second player's total ends the game ` +
        "before the first player moves again");
    }
    return ["one", (my * goal + opp) * slots + here];
  }
  if (opp < goal) return ["two", (my * goal + opp) * slots + here];
  if (opp > goal - 1 + MAX_GAIN) {
    throw new InvalidQuestion(`OPP ${opp} is out of reach: the first player banks at most ${goal - 1 + MAX_GAIN}`);
  }
  return ["last", (Math.min(opp - my, NEEDS) - 1) * slots + here];
}

// -- the question's words (grammar.py's parse and parse_duel)

/** -> { player, question, numbers, valued: { "--dice": K, "--stop-at": T } }; `once`: a state after a roll may
 * end in DICE (the table says when it must). */
function parse(tokens, once) {
  const players = [], questions = [], numbers = [], valued = {};
  for (let n = 0; n < tokens.length; n++) {
    const word = tokens[n], cut = word.indexOf("="), name = cut < 0 ? word : word.slice(0, cut);
    if (VALUED.includes(name)) {
      let value = word.slice(cut + 1);
      if (cut < 0) {
        value = tokens[++n];
        if (value === undefined || looksLikeOption(value)) throw new InvalidQuestion(`${name} needs a value`);
      }
      if (Object.hasOwn(valued, name)) throw new InvalidQuestion(`${name} is given twice`);
      valued[name] = whole(name === "--stop-at" ? "stop at" : "number of dice", value);
    } else if (Object.hasOwn(PLAYERS, word)) players.push(word);
    else if (QUESTIONS.includes(word)) questions.push(word);
    else if (looksLikeOption(word)) {
      throw new InvalidQuestion(`unknown option '${shownText(word)}' (a goat question is --solo, --one or --two with ` +
        "--expect or --move; see --help)");
    } else numbers.push(whole("number", word));
  }
  if (players.length !== 1 || questions.length !== 1) {
    throw new InvalidQuestion("ask one question: --solo, --one or --two, with --expect or --move (see --help)");
  }
  const player = PLAYERS[players[0]], question = questions[0], fixed = Object.keys(valued).length;
  if (fixed && (player || question !== "--expect" || fixed !== 2)) {
    throw new InvalidQuestion("a fixed strategy is asked as --solo --expect SCORE --dice K --stop-at T");
  }
  let names = player === 0 ? ["SCORE"] : ["MY", "OPP"];
  if (question === "--move" || numbers.length > names.length) names = [...names, "TURN", "ROLLS"];
  if (fixed) names = ["SCORE"];
  const last = names[names.length - 1] === "ROLLS";
  if (!(once && last && numbers.length === names.length + 1) && numbers.length !== names.length) {
    throw wrongCount(`${players[0]} ${question}`, names.join(" ") + (once && last ? " [DICE]" : ""), numbers, "number");
  }
  return { player, question, numbers, valued };
}

/** A side of a duel: "optimal" or [K, T] (T above THRESHOLDS plays as THRESHOLDS). */
function parseSide(text) {
  if (text === "optimal") return text;
  const cut = text.indexOf(",");
  const [dice, stop] = cut < 0 ? [text, ""] : [text.slice(0, cut), text.slice(cut + 1)];
  if (cut < 0 || !dice || !stop) {
    throw new InvalidQuestion(`a duel side is K,T (dice, stop at turn total T) or optimal, not '${shownText(text)}'`);
  }
  const k = whole("number of dice K", dice), t = whole("turn total T", stop);
  if (k < 1 || k > DICE) throw new InvalidQuestion(`K is the number of dice, 1 to ${DICE}, not ${k}`);
  if (t < 1) throw new InvalidQuestion(`T is the turn total to stop at, 1 or more, not ${t}`);
  return [k, Math.min(t, Goat.THRESHOLDS)];
}

function parseDuel(tokens) {
  if (tokens[0] !== "--duel" || tokens.slice(1).some(looksLikeOption)) {
    throw new InvalidQuestion(`ask one question: ${DUEL_FORM} alone (see --help)`);
  }
  if (tokens.length !== 3) throw wrongCount("--duel", "A B", tokens.slice(1));
  return [parseSide(tokens[1]), parseSide(tokens[2])];
}

// -- the table

/** What the reader checks of a goat table of `rules`: games/goat-table.js's, with 118 slots under once. */
function specOf({ goal, choose }) {
  const spec = Goat.tableSpec(goal);
  if (choose === "each") return spec;
  const name = `goat-g${goal}-once.msgpack`, arrays = {};
  for (const [key, [dtype, shape]] of Object.entries(spec.options.arrays)) {
    arrays[key] = [dtype, key === "fixed" ? shape : [...shape.slice(0, -1), ONCE.slots]];
  }
  return { options: { ...spec.options, name, rules: { goal, choose, dice: DICE, rolls: ROLLS }, arrays },
    command: `ShutTheBox goat --goal ${goal} --choose once --solo --expect 0` };
}

/** The file's own rules (a goat table's header): { goal, choose }, or null for another game's file. */
function ownRules(header) {
  const own = header.rules;
  if (header.game !== "goat" || !own || typeof own !== "object") return null;
  return rulesOf(Object.fromEntries(Object.entries({ "--goal": own.goal, "--choose": own.choose })
    .filter(([, value]) => value !== undefined).map(([flag, value]) => [flag, String(value)])));
}

/** The verified table of `rules` (with --table and no game option, of the file's own rules): { rules, arrays }. */
async function tableOf(rules, given, tablePath) {
  const { file, own } = await tableFor(tablePath, given, () => ({ name: specOf(rules).options.name,
    command: specOf(rules).command }), ownRules);
  return { ...readOpened(file, specOf(own ?? rules).options), rules: own ?? rules };
}

// -- the session (grammar.py's Session)

function session(given, tablePath) {
  const rules = rulesOf(given);
  const table = lazily(() => tableOf(rules, given, tablePath));

  async function answer(tokens) {
    if (tokens.includes("--duel")) {
      const [first, second] = parseDuel(tokens);
      const { duelText } = await import("./goat-duel.mjs");
      return duelText(table, first, second, ONCE);
    }
    // under --table alone the file's own rules say whether DICE ends a state (the table opened first)
    const once = (tablePath !== null && !Object.keys(given).length ? (await table()).rules : rules).choose === "once";
    const { player, question, numbers, valued } = parse(tokens, once);
    await table();
    return fromTable(table, (t) => {
      if (Object.keys(valued).length) {
        return sixDecimals(t.arrays.fixed[Goat.locateFixed(t, { score: numbers[0], dice: valued["--dice"], stopAt: valued["--stop-at"] })]);
      }
      const [name, index] = locate(t, player, numbers);
      return question === "--move" ? Goat.actionText(t.arrays[`${name}_move`][index]) : sixDecimals(t.arrays[name][index]);
    });
  }

  return { answer, before: table };
}

export const GOAT = {
  id: "goat",
  options: OPTIONS,
  usage: usageOf("goat", ["goat [--goal G] [--choose each|once] [--table PATH] --solo --expect SCORE --dice K --stop-at T",
    "goat ... --solo --expect|--move SCORE [TURN ROLLS [DICE]]", "goat ... --one|--two --expect|--move MY OPP [TURN ROLLS [DICE]]",
    "goat ... --duel A B", "goat ... --batch < questions.txt"]),
  open: session,
};
