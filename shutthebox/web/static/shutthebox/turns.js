/* The one turn controller of Play and Solo: seats 1..N (you or the computer), seeded dice
 * (mulberry32, one draw per die, so a seed replays the same dice), roll, choose tiles, close,
 * the end of a turn and of the game, the history of moves and the hint for the current roll.
 * It knows no DOM: play.js and solo.js show it.
 *
 * What a move is worth comes from a judge, made for the player to move:
 *   judge(game) -> { best(mask, roll): the table's move (0: none), value(mask, move): the value after it
 *                    (null: not in the table), before(mask): the value before rolling,
 *                    cost(bestValue, value): what a move gives away (>= 0), dice(mask): dice to throw }
 */

import { mulberry32, rollDie } from "../lib/random.js";
import { tilesOf, tileSum } from "./table.js";
import { tilesText } from "./view.js";

export const PLAYER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight"];

/** Throw `count` dice from a seeded stream: one draw per die. */
export const drawDice = (rng, count, sides) => Array.from({ length: count }, () => rollDie(rng, sides));

export class Turns {
  /** board: the table (rules, allOpen, legalMoves); seats: "you" or "computer" for players 1..N. */
  constructor({ board, seats, judge, seed }) {
    this.board = board;
    this.seats = seats;
    this.players = seats.length;
    this.judgeOf = judge;
    this.reset(seed);
  }

  reset(seed) {
    this.seed = seed >>> 0;
    this.rng = mulberry32(this.seed);
    this.player = 1;
    this.scores = []; // the scores posted, in turn order
    this.mask = this.board.allOpen;
    this.roll = null;
    this.dice = [];
    this.chosen = 0;
    this.over = false;
    this.shutBy = null; // the player who shut the box
    this.history = []; // one entry per roll: { player, scores, position, roll, dice, move, best, value, bestValue, cost }
    this.rolled = 0; // rolls by you
  }

  get judge() { return this.judgeOf(this); }
  get human() { return this.seats[this.player - 1] === "you"; }

  /**
   * Throw the dice for the player to move: `count` of them (one of board.diceChoices, when one die
   * is optional), else as many as the table says. The roll counts once `settle()` is called (after the animation).
   */
  throwDice(count = null) {
    const best = this.judge.dice(this.mask);
    if (count === null || !this.board.diceChoices(this.mask).includes(count)) count = best;
    this.diceChoice = { count, best };
    this.dice = drawDice(this.rng, count, this.board.rules.sides);
    this.roll = null;
    if (this.human) this.rolled += 1;
    return this.dice;
  }

  /** The dice have settled: the roll's best move (0: none, and the turn ends: call endTurn). */
  settle() {
    this.roll = this.dice.reduce((a, b) => a + b, 0);
    return this.judge.best(this.mask, this.roll);
  }

  /** The hint for the current roll: every legal move with its value, the table's first (see rankMoves). */
  hint() {
    return this.roll === null ? null : rankMoves(this.board, this.judge, this.mask, this.roll);
  }

  /** Why adding `tile` to the chosen tiles is refused, in the player's words; null if it is fine. */
  pickProblem(tile) {
    const bit = 1 << (tile - 1);
    if (!(this.mask & bit)) return `Tile ${tile} is already shut: choose open tiles.`;
    const tiles = tilesOf(this.chosen | bit), total = tileSum(this.chosen | bit), limit = this.board.rules.maxMoveTiles;
    if (limit !== null && tiles.length > limit) return `At most ${limit} tiles may be closed per roll.`;
    if (total > this.roll) return `${tilesText(tiles)} ${tiles.length === 1 ? "makes" : "make"} ${total}: more than the roll of ${this.roll}.`;
    return null;
  }

  /** Choose or un-choose a tile: null, or the reason it is refused. */
  pick(tile) {
    const bit = 1 << (tile - 1);
    if (this.chosen & bit) { this.chosen ^= bit; return null; }
    const problem = this.pickProblem(tile);
    if (!problem) this.chosen |= bit;
    return problem;
  }

  /** What to say once the chosen tiles changed. */
  chosenText() {
    if (!this.chosen) return "";
    const tiles = tilesOf(this.chosen), total = tileSum(this.chosen);
    return total === this.roll ? `${tilesText(tiles)} = ${total}: press Close tiles (Enter).` :
      `Chosen ${tiles.join(" + ")} = ${total}; ${this.roll - total} more to make ${this.roll}.`;
  }

  /** Why the chosen tiles cannot be closed for this roll; null if they can. */
  confirmProblem() {
    const total = tileSum(this.chosen);
    if (!this.chosen) return `Choose open tiles that add up to ${this.roll} first.`;
    if (total !== this.roll) return `Your tiles add up to ${total}, but they must add up to the roll, ${this.roll}.`;
    return null;
  }

  /** Close `move` (a legal move for the roll): its history entry; the box shut ends the game. */
  close(move) {
    const judge = this.judge;
    const best = judge.best(this.mask, this.roll);
    const value = judge.value(this.mask, move), bestValue = judge.value(this.mask, best);
    const entry = { player: this.player, scores: this.scores.slice(), position: this.mask, roll: this.roll, dice: this.dice.slice(),
      move, best, value, bestValue, cost: judge.cost(bestValue, value), you: this.human };
    this.history.push(entry);
    this.mask &= ~move;
    this.chosen = 0;
    this.roll = null;
    if (!this.mask) {
      this.shutBy = this.player;
      this.over = true;
    }
    return entry;
  }

  /** No open tiles make the roll: the turn ends, its score is posted; the next player starts, or the game ends. */
  endTurn() {
    const score = tileSum(this.mask);
    this.history.push({ player: this.player, scores: this.scores.slice(), position: this.mask, roll: this.roll, dice: this.dice.slice(),
      move: 0, best: 0, value: null, bestValue: null, cost: 0, you: this.human });
    this.scores.push(score);
    this.roll = null;
    if (this.player === this.players) this.over = true;
    else {
      this.player += 1;
      this.mask = this.board.allOpen;
    }
    return score;
  }

  /** Each player's share of the win once over: the one who shut the box, else the lowest scores share. */
  shares() {
    if (!this.over) return null;
    if (this.shutBy) return this.seats.map((_, i) => (i + 1 === this.shutBy ? 1 : 0));
    const low = Math.min(...this.scores), count = this.scores.filter((s) => s === low).length;
    return this.scores.map((s) => (s === low ? 1 / count : 0));
  }

  get position() { return this.board.positionText(this.mask); }
}

/**
 * A Coach answer (`answer`: the position's, before rolling) for `roll`, if one is given: the legal moves
 * ranked as rankMoves ranks them and the table's move, or that the turn ends and its value.
 */
export function answerRoll(answer, board, judge, mask, roll) {
  if (roll === null || roll === undefined) return answer;
  board.checkRoll(mask, roll);
  answer.roll = roll;
  const ranked = rankMoves(board, judge, mask, roll);
  if (!ranked.moves.length) return Object.assign(answer, { turnEnds: true, endValue: judge.value(mask, 0) });
  return Object.assign(answer, { moves: ranked.moves, best: tilesOf(ranked.best) });
}

/**
 * Every legal move for a roll with its value after it and its cost, the table's move first, then
 * by value (judge.better, else higher), then the larger bitmask. -> { moves, best (bitmask) }.
 */
export function rankMoves(board, judge, mask, roll) {
  const best = judge.best(mask, roll);
  const bestValue = judge.value(mask, best);
  const better = judge.better || ((a, b) => a > b);
  const moves = board.legalMoves(mask, roll).map((move) => {
    const value = judge.value(mask, move);
    return { move, tiles: tilesOf(move), after: mask & ~move ? board.positionText(mask & ~move) : null, value, best: move === best,
      cost: judge.cost(bestValue, value) };
  });
  moves.sort((a, b) => {
    if (a.best !== b.best) return a.best ? -1 : 1;
    if (a.value !== b.value) return better(a.value, b.value) ? -1 : 1;
    return b.move - a.move;
  });
  return { moves, best };
}
