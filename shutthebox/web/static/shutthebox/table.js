/* The Shut the Box reader, built on lib/format.js (the envelope, its checks and checksums):
 * the games "two-player" (FORMAT.md 6.1), "multi-player" (6.3, 3 to 8 players) and
 * "one-player" (6.2), every rules key of section 6, one_die_optional's dice arrays included.
 *
 *   const t = parseTable(bytes, { name: "standard.msgpack", game: "players" });
 *   t.expect("123456789", [])        // 0.50281...
 *   t.move("13456789", 12, [17])     // [3, 9]
 *
 * Positions and moves are bitmasks (bit i set: tile i + 1 open / closed); the helpers convert
 * from and to the players' notation (lib/notation.js: "146789" with 9 tiles or fewer, "1,4,10" and
 * "12," with more) and moves ([3, 9]).
 */

import { openTable, readOpened, TableError } from "../lib/format.js";
import { InvalidQuestion, formatSet, maskOf, numbersOf, parseSet } from "../lib/notation.js";
import { RULE_KEYS, fileRules, rulesOfFile, variantOf, OBJECTIVES } from "./rules.js";

export { InvalidQuestion, TableError };

// -- tiles and bitmasks

export const tilesOf = numbersOf;
export { maskOf };

export function tileSum(mask) {
  let sum = 0;
  for (let tile = 1; mask; tile++, mask >>>= 1) if (mask & 1) sum += tile;
  return sum;
}

/** A position of a board of `tiles` tiles as the command line writes it: "146789", "1,4,10", "12,"; "none" when shut. */
export const formatPosition = (mask, tiles) => formatSet(mask, tiles);

export const formatMove = (tiles) => `[${tiles.join(", ")}]`;

const diceWords = (dice) => (dice === 1 ? "one die" : `${{ 2: "two", 3: "three" }[dice] || dice} dice`);

/** Chance of each total with `dice` dice of `sides` sides: { total: probability }. */
export function rollChances(dice, sides) {
  let counts = new Map([[0, 1]]);
  for (let d = 0; d < dice; d++) {
    const next = new Map();
    for (const [total, count] of counts) {
      for (let face = 1; face <= sides; face++) next.set(total + face, (next.get(total + face) || 0) + count);
    }
    counts = next;
  }
  const all = sides ** dice;
  const chances = {};
  for (const [total, count] of counts) chances[total] = count / all;
  return chances;
}

/** What every table shares: positions, dice, rolls and legal moves. */
class Board {
  constructor(read, rules) {
    this.name = read.name;
    this.size = read.size;
    this.header = read.header;
    this.rules = rules;
    this.allOpen = (1 << rules.tiles) - 1;
    this.R = rules.maxRoll + 1;
    this.variant = null;
  }

  /** A position of this board as the command line writes it ("146789", "1,4,10", "12,"). */
  positionText(mask) { return formatPosition(mask, this.rules.tiles); }

  /**
   * Bitmask of a position: text in the command line's notation (read as the Python API reads it,
   * lib/notation.js), an array of tiles, or a bitmask number. Never empty.
   */
  position(position) {
    const tiles = this.rules.tiles;
    if (typeof position === "number") {
      if (!Number.isInteger(position) || position <= 0 || position > this.allOpen) {
        throw new InvalidQuestion(`position ${position} is not a set of tiles 1 to ${tiles}`);
      }
      return position;
    }
    let mask = 0;
    if (typeof position === "string") {
      mask = parseSet(position, tiles);
    } else if (Array.isArray(position)) {
      for (const tile of position) {
        if (!Number.isInteger(tile) || tile < 1 || tile > tiles) {
          throw new InvalidQuestion(`position [${position}]: there is no tile ${tile} (the tiles are 1 to ${tiles})`);
        }
        const bit = 1 << (tile - 1);
        if (mask & bit) throw new InvalidQuestion(`position [${position}]: tile ${tile} is listed twice`);
        mask |= bit;
      }
    } else {
      throw new InvalidQuestion("a position is a string of tiles like '146789' or a list of tiles");
    }
    if (!mask) throw new InvalidQuestion("the position is empty: with no tile open the box is already shut");
    return mask;
  }

  /** The numbers of dice the player may throw at a position (all dice first), as Rules.dice_choices. */
  diceChoices(mask) {
    const r = this.rules;
    const few = (r.oneDieAtMost !== null && tileSum(mask) <= r.oneDieAtMost) || (r.oneDieHighShut && mask >>> 6 === 0);
    if (!few) return [r.dice];
    return r.oneDieOptional ? [r.dice, 1] : [1];
  }

  /** How many dice are thrown at a position when there is no choice (the first choice otherwise). */
  diceFor(mask) { return this.diceChoices(mask)[0]; }

  /** Every roll the dice can show at a position, increasing. */
  possibleRolls(mask) {
    const rolls = new Set();
    for (const dice of this.diceChoices(mask)) for (let roll = dice; roll <= dice * this.rules.sides; roll++) rolls.add(roll);
    return [...rolls].sort((a, b) => a - b);
  }

  /** [lowest, highest] roll the dice can show at a position. */
  rollRange(mask) {
    const rolls = this.possibleRolls(mask);
    return [rolls[0], rolls[rolls.length - 1]];
  }

  /** Every legal move (bitmask) for a roll, largest bitmask first (the tie-break order). */
  legalMoves(mask, roll) {
    const moves = [];
    const limit = this.rules.maxMoveTiles;
    for (let move = mask; move; move = (move - 1) & mask) {
      if (tileSum(move) === roll && (limit === null || tilesOf(move).length <= limit)) moves.push(move);
    }
    return moves;
  }

  /** InvalidQuestion, in the command line's words, for a roll the dice cannot show at `mask`. */
  checkRoll(mask, roll) {
    const rolls = this.possibleRolls(mask);
    if (Number.isInteger(roll) && rolls.includes(roll)) return;
    if (Number.isInteger(roll) && Math.abs(roll) >= 1e6) throw new InvalidQuestion("the roll is far out of range"); // as the Python's
    if (!Number.isInteger(roll)) throw new InvalidQuestion(`the roll must be a whole number, not ${roll}`);
    const r = this.rules, total = tileSum(mask), choices = this.diceChoices(mask);
    let why = "";
    if (r.oneDieAtMost !== null && total <= r.oneDieAtMost) why = `the open tiles ${this.positionText(mask)} sum to ${total}, so `;
    else if (choices.includes(1)) why = "every tile above 6 is shut, so ";
    else if (r.oneDieAtMost !== null) why = `the open tiles ${this.positionText(mask)} sum to ${total}, so `;
    else if (r.oneDieHighShut) why = "a tile above 6 is open, so ";
    const what = choices.length > 1 ? `${diceWords(choices[0])} or one die may be thrown` :
      `${diceWords(choices[0])} ${choices[0] === 1 ? "is" : "are"} thrown`;
    const span = rolls.length === rolls[rolls.length - 1] - rolls[0] + 1 ? `${rolls[0]} to ${rolls[rolls.length - 1]}` : rolls.join(", ");
    const named = this.variant ? ` under the ${this.variant} rules` : "";
    throw new InvalidQuestion(`roll ${roll} is impossible${named}: ${why}${what} (${span})`);
  }

  /** The tiles of a move; InvalidQuestion when there is none (the turn ends). */
  moveTiles(mask, roll, move) {
    if (!move) {
      const limit = this.rules.maxMoveTiles;
      throw new InvalidQuestion(`no ${limit ? `${limit} or fewer ` : ""}open tiles of ${this.positionText(mask)} add up to ${roll}: ` +
        `the turn ends there, scoring ${tileSum(mask)}`);
    }
    return tilesOf(move);
  }
}

/**
 * Exact answers for the game of `players` players (2: "two-player", 3 to 8: "multi-player"),
 * asked as the Python API asks them: by the scores posted before the player to move.
 */
export class PlayersTable extends Board {
  constructor(read, rules, players) {
    super(read, rules);
    this.players = players;
    this.game = players === 2 ? "two-player" : "multi-player";
    this.P = 1 << rules.tiles;
    const a = read.arrays;
    if (players === 2) {
      // FORMAT.md 6.3: state 0 is e1/m1, state b is e2/m2 at score b.
      const S = rules.maxScore + 1;
      this.e = (state, mask) => (state ? a.e2[mask * S + state] : a.e1[mask]);
      this.m = (state, mask, roll) => (state ? a.m2[(mask * S + state) * this.R + roll] : a.m1[mask * this.R + roll]);
      this.c = a.c1 ? (state, mask) => (state ? a.c2[mask * S + state] : a.c1[mask]) : null;
    } else {
      this.e = (state, mask) => a.e[state * this.P + mask];
      this.m = (state, mask, roll) => a.m[(state * this.P + mask) * this.R + roll];
      this.c = a.c ? (state, mask) => a.c[state * this.P + mask] : null;
    }
  }

  /** The mover of the scores posted before them: { player, best, shared, state } (FORMAT.md 6.3). */
  turn(scores = []) {
    if (!Array.isArray(scores)) throw new InvalidQuestion("the scores posted so far must be a list of whole numbers");
    const players = this.players, M = this.rules.maxScore;
    if (scores.length >= players) {
      throw new InvalidQuestion(`${scores.length} scores posted, but in a game of ${players} players at most ${players - 1} are posted before a turn`);
    }
    for (const score of scores) {
      if (score === 0) throw new InvalidQuestion("score 0 means that player shut the box and won: nobody plays after");
      if (!Number.isInteger(score) || score < 1 || score > M) {
        throw new InvalidQuestion(`a posted score must be a whole number from 1 to ${M} (the sum of the tiles left open), not ${score}`);
      }
    }
    if (!scores.length) return { player: 1, best: 0, shared: 0, state: 0 };
    const player = scores.length + 1, best = Math.min(...scores), shared = scores.filter((s) => s === best).length;
    const state = players === 2 ? best : 1 + M * (((player - 1) * (player - 2)) / 2 + shared - 1) + best - 1;
    return { player, best, shared, state };
  }

  /** Expected wins of the player to move at `position`, before rolling, after `scores` were posted. */
  expect(position, scores = []) {
    const mask = this.position(position);
    return this.e(this.turn(scores).state, mask);
  }

  /** The optimal move (tiles, increasing); InvalidQuestion when the turn ends or the roll is impossible. */
  move(position, roll, scores = []) {
    const mask = this.position(position);
    const { state } = this.turn(scores);
    this.checkRoll(mask, roll);
    return this.moveTiles(mask, roll, this.m(state, mask, roll));
  }

  /** How many dice the player to move should throw (a choice only when one die is optional). */
  dice(position, scores = []) {
    const mask = this.position(position);
    const { state } = this.turn(scores);
    return this.c ? this.c(state, mask) : this.diceChoices(mask)[0];
  }

  // The assignment's four questions (two players), as the command line asks them.
  expectOne(position) { return this.expect(position, []); }
  moveOne(position, roll) { return this.move(position, roll, []); }
  expectTwo(position, score) { this.checkScoreToBeat(score); return this.expect(position, [score]); }
  moveTwo(position, score, roll) { this.checkScoreToBeat(score); return this.move(position, roll, [score]); }

  checkScoreToBeat(score) {
    if (this.players !== 2) return;
    if (score === 0) throw new InvalidQuestion("score 0 means player one shut the box and won: player two does not play");
    if (!Number.isInteger(score) || score < 1 || score > this.rules.maxScore) {
      throw new InvalidQuestion(`player one's score must be a whole number from 1 to ${this.rules.maxScore} (the sum of the tiles left open), not ${score}`);
    }
  }

  /** The table's move (bitmask, 0: none) for the mover of `turn`. */
  bestMove(turn, mask, roll) { return this.m(turn.state, mask, roll); }

  /**
   * The mover's expected wins after a move (bitmask); 1 once shut. With no move (0) the turn ends
   * with the open tiles' sum: known from the table for two players and for the last player; for a
   * player before the last it is not in the table (null).
   */
  valueAfter(turn, mask, move) {
    const after = mask & ~move;
    if (!after) return 1;
    if (move) return this.e(turn.state, after);
    const mine = tileSum(mask);
    if (turn.player === this.players) {
      return mine < turn.best ? 1 : mine === turn.best ? 1 / (turn.shared + 1) : 0;
    }
    if (this.players === 2) return 1 - this.e(mine, this.allOpen);
    return null;
  }
}

/**
 * Exact single-player answers (FORMAT.md 6.2) for both objectives: "shut" (the highest chance of
 * shutting the box) and "score" (the lowest expected final score; lower is better).
 */
export class SoloTable extends Board {
  constructor(read, rules) {
    super(read, rules);
    this.game = "one-player";
    this.variant = variantOf(rules);
    this.arrays = read.arrays;
  }

  static objective(objective = "shut") {
    if (!OBJECTIVES.includes(objective)) throw new InvalidQuestion(`unknown objective '${objective}' (choose shut or score)`);
    return objective;
  }

  /** The objective's value before rolling: shut probability, or lowest expected final score. */
  value(mask, objective) { return this.arrays[objective === "score" ? "score" : "shut"][mask]; }

  /** The table's move (bitmask, 0: none) for the objective. */
  bestMove(mask, roll, objective) { return this.arrays[objective === "score" ? "score_move" : "shut_move"][mask * this.R + roll]; }

  shutProbability(position) { return this.value(this.position(position), "shut"); }
  expectedScore(position) { return this.value(this.position(position), "score"); }
  expect(position, objective) { return this.value(this.position(position), SoloTable.objective(objective)); }

  move(position, roll, objective) {
    objective = SoloTable.objective(objective);
    const mask = this.position(position);
    this.checkRoll(mask, roll);
    return this.moveTiles(mask, roll, this.bestMove(mask, roll, objective));
  }

  /** The objective's value after a move (0: none, the turn ends with the open tiles' sum). */
  valueAfter(mask, move, objective) {
    const shut = objective !== "score";
    if (!move) return shut ? (mask ? 0 : 1) : tileSum(mask);
    if (!(mask & ~move)) return shut ? 1 : 0;
    return this.value(mask & ~move, objective);
  }

  better(a, b, objective) { return objective === "score" ? a < b : a > b; }

  /** The dice the table throws at a position for the objective (a choice only under the optional one die). */
  dice(mask, objective) {
    const choices = this.diceChoices(mask);
    return choices.length > 1 ? this.arrays[objective === "score" ? "score_dice" : "shut_dice"][mask] : choices[0];
  }

  /** What a move of value `value` costs against the best one's (>= 0). */
  cost(bestValue, value, objective) { return Math.max(0, objective === "score" ? value - bestValue : bestValue - value); }
}

const GAMES = ["two-player", "multi-player", "one-player"];

/** The arrays a table of game `kind` holds for `rules` and `players`: { name: [dtype, shape] }, in the file's order. */
function arraysOf(kind, rules, players) {
  const P = 1 << rules.tiles, S = rules.maxScore + 1, R = rules.maxRoll + 1;
  if (kind === "two-player") {
    const arrays = { e1: ["<f8", [P]], m1: ["<u2", [P, R]], e2: ["<f8", [P, S]], m2: ["<u2", [P, S, R]] };
    return rules.oneDieOptional ? Object.assign(arrays, { c1: ["|u1", [P]], c2: ["|u1", [P, S]] }) : arrays;
  }
  if (kind === "multi-player") {
    const states = 1 + (rules.maxScore * players * (players - 1)) / 2;
    const arrays = { e: ["<f8", [states, P]], m: ["<u2", [states, P, R]] };
    return rules.oneDieOptional ? Object.assign(arrays, { c: ["|u1", [states, P]] }) : arrays;
  }
  const arrays = { shut: ["<f8", [P]], shut_move: ["<u2", [P, R]], score: ["<f8", [P]], score_move: ["<u2", [P, R]] };
  return rules.oneDieOptional ? Object.assign(arrays, { shut_dice: ["|u1", [P]], score_dice: ["|u1", [P]] }) : arrays;
}

/** The arrays a table with this header holds, foreseen before they are read (lib/remote.js's `arrays`: where
 * their descriptors are), or none for a header parseTable refuses (which it then says). */
export function expectedArrays(header) {
  try {
    const rules = GAMES.includes(header.game) && rulesOfFile(header.rules);
    const players = header.game === "multi-player" ? header.players : 2;
    return rules && Number.isInteger(players) && players >= 2 && players <= 8 ? arraysOf(header.game, rules, players) : {};
  } catch {
    return {};
  }
}

/**
 * Verify and read a Shut the Box table (Uint8Array or ArrayBuffer, or a file lib/remote.js's openRemote opened).
 *   options: { name, decode, game: "players" (two- or multi-player, the default), "one-player" or "any",
 *              rules (optional: the rules it must hold), players (optional: how many players it must be for) }
 * -> PlayersTable or SoloTable. Throws TableError naming the file and what is wrong.
 */
export function parseTable(input, { name = "file", decode, game = "players", rules: wanted = null, players: wantedPlayers = null } = {}) {
  const opened = input && input.header && input.map ? input : openTable(input, { name, decode });
  const header = opened.header;
  const kind = header.game;
  const allowed = game === "any" ? GAMES : game === "players" ? ["two-player", "multi-player"] : [game];
  if (!allowed.includes(kind)) {
    const want = allowed.map((g) => `'${g}'`).join(" or ");
    throw new TableError(`The table ${name} answers the game '${kind}', not ${want}` +
      (game === "one-player" ? ": give a single-player table (solo-NAME.msgpack)." :
        game === "players" ? ": give a table of the game for players (standard.msgpack)." : "."));
  }
  const fields = header.rules;
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw new TableError(`The table ${name} has malformed rules; rebuild it with \`make tables\`.`);
  for (const key of Object.keys(fields)) {
    if (!RULE_KEYS.includes(key)) {
      throw new TableError(`The table ${name} has the rule '${key}', which this page does not know: ` +
        "it would misread the dice. Use the page that came with the table.");
    }
  }
  const rules = rulesOfFile(fields);
  if (!rules) throw new TableError(`The table ${name} has malformed rules; rebuild it with \`make tables\`.`);
  const players = kind === "multi-player" ? header.players : kind === "two-player" ? 2 : 1;
  if (kind === "multi-player" && (!Number.isInteger(players) || players < 3 || players > 8)) {
    throw new TableError(`The table ${name} has no valid player count; rebuild it with \`make tables\`.`);
  }
  if (wanted && wantedPlayers && (players !== wantedPlayers)) {
    throw new TableError(`The table ${name} is for ${players} players, not ${wantedPlayers}: it is no answer to this question.`);
  }
  const read = readOpened(opened, {
    game: kind, rules: wanted ? fileRules(wanted) : fields, arrays: arraysOf(kind, rules, players),
    fields: (map) => (map.max_score !== rules.maxScore || map.max_roll !== rules.maxRoll
      ? "has max_score or max_roll inconsistent with its rules" : null),
  });
  return kind === "one-player" ? new SoloTable(read, rules) : new PlayersTable(read, rules, players);
}
