/* Goat's Play on the Play shell (lib/play.js): you against the table's optimal play, with seeded dice,
 * a hint that values every legal action, the win chance each of your decisions gave up. Chances are
 * shown as the Shut the Box page shows them (45.50%) with the command line's six decimals beside.
 * Move codes in the link (yours only: the computer's follow from the seed): 0 stop, K roll K dice. */

import { sixDecimals } from "../lib/notation.js";
import { createPlay } from "../lib/play.js";
import { chance as chanceNum, chanceCost, isOptimal, tieOf } from "../lib/numbers.js";
import { dieNode, el, plural } from "../lib/ui.js";
import { mulberry32, rollDie } from "../lib/random.js";
import { coachRow, seatChooser } from "./ui.js";
import { DICE, ROLLS, actionText } from "./goat-table.js";
import { THROWS, actionValues, costOf } from "./goat-values.js";
import { prefetch } from "../lib/remote.js";

/**
 * One game's rules and dice. Players 1 (first) and 2 (second) play rounds; after the second
 * player's turn the game ends if either has reached the goal, the higher total winning (a tie is half).
 * Dice: mulberry32(seed), one draw per die, in order.
 */
export class Game {
  constructor(table, seed, seat) {
    this.table = table;
    this.goal = table.rules.goal;
    this.seed = seed;
    this.seat = seat; // your player number
    this.draw = mulberry32(seed);
    this.scores = [0, 0];
    this.mover = 1;
    this.turn = 0;
    this.rolls = 0;
    this.dice = [];
    this.over = false;
    this.winner = null; // 1, 2 or 0 (a tie)
    this.history = [];
  }

  /** The mover's decision as a Coach question. */
  position() {
    return { player: this.mover, my: this.scores[this.mover - 1], opp: this.scores[2 - this.mover],
      turn: this.turn, rolls: this.rolls };
  }

  legal(action) {
    return !this.over && (action === 0 ? this.rolls > 0 : Number.isInteger(action) && action >= 1 && action <= DICE);
  }

  /** The mover takes ``action`` (0 stop, K roll K dice): the history row, with its value and cost. */
  act(action) {
    const p = this.position();
    const values = actionValues(this.table, p);
    const row = { ...p, who: this.mover === this.seat ? "you" : "computer", action, best: values.best,
      value: values.actions.find((a) => a.action === action).value, bestValue: values.value,
      cost: costOf(values, action), dice: [], outcome: "" };
    if (isOptimal(row.cost, tieOf(this.table))) row.cost = 0; // a tie with the table's action: optimal
    this.history.push(row);
    if (action === 0) {
      row.outcome = `banks ${this.turn}`;
      this.dice = [];
      this.endTurn(this.turn);
      return row;
    }
    this.dice = Array.from({ length: action }, () => rollDie(this.draw, 6));
    row.dice = this.dice;
    if (new Set(this.dice).size < action) {
      row.outcome = "a match: the turn scores 0";
      row.short = "a match";
      this.endTurn(0);
      return row;
    }
    const sum = this.dice.reduce((x, y) => x + y, 0);
    this.turn += sum;
    this.rolls += 1;
    row.outcome = `+${sum}, turn total ${this.turn}`;
    row.short = `+${sum}`;
    if (this.rolls === ROLLS) {
      row.outcome += `; the third roll banks ${this.turn}`;
      this.endTurn(this.turn);
    }
    return row;
  }

  endTurn(gain) {
    this.scores[this.mover - 1] += gain;
    this.turn = 0;
    this.rolls = 0;
    if (this.mover === 2 && Math.max(...this.scores) >= this.goal) {
      this.over = true;
      const [one, two] = this.scores;
      this.winner = one > two ? 1 : two > one ? 2 : 0;
      return;
    }
    this.mover = 3 - this.mover;
  }

  /** The next mover's decision once the mover banks `gain`; null when that ends the game. */
  afterTurn(gain) {
    const copy = Object.assign(Object.create(Game.prototype), this, { scores: [...this.scores] });
    copy.endTurn(gain);
    return copy.over ? null : copy.position();
  }

  /** A copy for the tests (no dice generator, no table). */
  snapshot() {
    const { table, draw, ...rest } = this;
    return JSON.parse(JSON.stringify({ ...rest, position: this.over ? null : this.position() }));
  }
}


const STOP = 0;
const fetchedFor = new WeakMap(); // game -> the position whose next decisions were fetched ahead
// The most blocks fetched ahead at a decision (8 KiB each): its own, the next mover's after the turn ends
// now, then the mover's after each throw, in that order.
const DECISION_BLOCKS = 8;
/** A win chance: the percent, the printed six decimals a press away. */
const chance = (value) => chanceNum(value, sixDecimals(value));

/** The rules of a turn for the shell. getTable(): the goal's table. */
function goatPart(getTable) {
  let play, board, dice, rollButtons, stopButton, allActions, seats;
  let events = []; // what happened since your last decision, one line each
  const result = (g) => {
    const [one, two] = g.scores;
    if (g.winner === 0) return `A tie at ${one}: half a win each.`;
    return `${g.winner === g.seat ? "You win" : "The computer wins"}, ${Math.max(one, two)} to ${Math.min(one, two)}.`;
  };
  const yours = (g) => !g.over && g.mover === g.seat;
  return {
    id: "goat",
    tie: () => tieOf(getTable()),
    ids: { log: "goat-history", hintList: "goat-hint-values" },
    hintClass: "goat-hint",
    help: ["Keys: ", el("kbd", {}, "S"), " or ", el("kbd", {}, "0"), " stop;"],
    itemWords: "roll that many dice",
    confirmWords: "stops",
    build(shell) {
      play = shell;
      seats = seatChooser("goat", play);
      board = el("div", { class: "goat-board", id: "goat-board", "aria-live": "polite" });
      dice = el("div", { class: "dice", id: "goat-dice", "aria-live": "polite" });
      rollButtons = Array.from({ length: DICE }, (_, i) => el("button", {
        type: "button", class: "chip", id: `goat-roll-${i + 1}`, "data-action": i + 1,
        title: `Roll ${i + 1} ${i ? "dice" : "die"} (${i + 1})`, onclick: () => play.act(i + 1) }, `Roll ${i + 1} `, el("kbd", {}, String(i + 1))));
      stopButton = el("button", { type: "button", class: "primary", id: "goat-stop", "data-action": STOP,
        title: "Stop and bank the turn total (S or 0)", onclick: () => play.act(STOP) }, "Stop ", el("kbd", {}, "S"));
      allActions = [...rollButtons, stopButton];
      return { board: el("div", {}, seats.root, board, dice,
        el("div", { class: "chips goat-actions", role: "group", "aria-label": "Your action", id: "goat-actions" }, ...allActions)),
      items: rollButtons, groups: [allActions] };
    },
    newGame(seed, { seat = 1 } = {}) {
      const g = new Game(getTable(), seed, seat === 2 ? 2 : 1);
      seats.set(g.seat);
      events = [];
      return g;
    },
    opening: (g) => (g.seat === 1 ? "You play first: choose how many dice to roll." : "The computer plays first."),
    link: (g) => ({ seat: String(g.seat) }),
    optionsOf: (params) => ({ seat: params.get("seat") === "2" ? 2 : 1 }),
    codes: () => DICE + 1,
    legal(g, code) {
      if (g.over) return "The game is over: press New game (N).";
      if (!Number.isInteger(code) || code > DICE) return `There is no action ${code}: stop (0) or roll 1 to ${DICE} dice.`;
      if (!g.legal(code)) return "Roll first: you can stop after at least one roll.";
      return null;
    },
    judge(g, code) {
      if (g.mover !== g.seat) return null; // the computer's
      const values = actionValues(g.table, g.position());
      const value = values.actions.find((a) => a.action === code).value;
      const choice = actionText(code);
      return { choice: choice[0].toUpperCase() + choice.slice(1), value, best: actionText(values.best), same: code === values.best,
        bestValue: values.value, cost: costOf(values, code), position: g.position() };
    },
    apply(g, code) {
      const row = g.act(code);
      const who = row.who === "you" ? "You" : "The computer";
      const line = `${who} ${row.action ? `rolled ${plural(row.action, "die", "dice")}: ${row.dice.join(" ")}, ${row.outcome}`
        : `stopped: the turn ${row.outcome}`}.` + (g.over ? " " + result(g) : "");
      events = row.who === "you" ? [line] : [...events, line];
      const text = `${row.who === "you" ? "You" : "Computer"} at ${row.my} (${row.who === "you" ? "computer" : "you"} ` +
        `${row.opp}), ${row.rolls ? `turn total ${row.turn} after ${plural(row.rolls, "roll")}` : "a turn's start"}: ${actionText(row.action)}` +
        (row.action ? ` → ${row.dice.join(" ")}, ${row.short}` : "");
      return { say: events.join(" "), row: { text, position: { player: row.player, my: row.my, opp: row.opp, turn: row.turn, rolls: row.rolls } } };
    },
    auto: (g) => (!g.over && g.mover !== g.seat ? actionValues(g.table, g.position()).best : null),
    /** What the next decisions read, fetched while the mover thinks: this decision's values (the hint, the
     * cost or the computer's move), the next mover's first decision if the turn ends now (banked, or a match),
     * and this mover's next decision after each throw of this turn. */
    ahead(g) {
      const p = g.position(), key = `${p.player}/${p.my}/${p.opp}/${p.turn}/${p.rolls}`;
      if (fetchedFor.get(g) === key) return;
      fetchedFor.set(g, key);
      prefetch(g.table, (t) => {
        const read = (q) => { try { if (q) actionValues(t, q); } catch { /* a position that cannot occur */ } };
        read(p);
        for (const gain of p.rolls ? [p.turn, 0] : [0]) read(g.afterTurn(gain));
        if (p.rolls + 1 >= ROLLS) return;
        for (let k = 1; k <= DICE; k++) {
          for (const [sum] of THROWS[k].sums) read({ ...p, turn: p.turn + sum, rolls: p.rolls + 1 });
        }
      }, DECISION_BLOCKS);
    },
    hint(g) {
      const values = actionValues(g.table, g.position());
      return { say: [`Hint: ${actionText(values.best)}, win chance `, chance(values.value), "."],
        // drawn on the board: the best action's button
        marks: [{ node: allActions.find((b) => Number(b.dataset.action) === values.best), word: "best" }],
        markWords: `The hint's choice: ${actionText(values.best)}.`,
        // best first, as the list says: by cost, then in the actions' order
        choices: [...values.actions].sort((a, b) => costOf(values, a.action) - costOf(values, b.action) || a.action - b.action)
          .map((a) => ({ text: a.text, value: sixDecimals(a.value), shown: chance(a.value), cost: costOf(values, a.action),
          attrs: { "data-action": a.action, "data-value": sixDecimals(a.value) } })) };
    },
    pick: (g, n) => n,
    confirm: () => STOP,
    keys: { s: () => STOP, 0: () => STOP },
    focus(g, code) {
      // after a key's roll, Enter stops (Enter on a roll button would roll again)
      if (code === null && yours(g) && g.legal(STOP)) return stopButton;
      const used = allActions.find((b) => Number(b.dataset.action) === code);
      if (used && g.legal(code)) return used;
      const here = allActions.includes(document.activeElement) && g.legal(Number(document.activeElement.dataset.action));
      return here ? document.activeElement : rollButtons[0];
    },
    over: (g) => g.over,
    started: (g) => g.history.some((row) => row.who === "you"),
    amount: (value) => ["win chance ", chance(value)],
    costText: (cost, short) => [chanceCost(cost), short ? "" : " of winning chance"],
    summary: (g) => events.join(" ") || result(g),
    render(g) {
      const seatName = (player) => (player === 1 ? "first" : "second");
      const line = (player) => el("p", { class: player === g.mover && !g.over ? "mover" : null, "data-player": player },
        `${player === g.seat ? "You" : "Computer"} (${seatName(player)}): `, el("strong", {}, String(g.scores[player - 1])),
        // the score track: how far along to the goal (the number beside says it to a screen reader)
        el("progress", { class: "track", max: String(g.goal), value: String(Math.min(g.scores[player - 1], g.goal)), "aria-hidden": "true" }));
      const state = g.over ? result(g)
        : `${g.mover === g.seat ? "Your" : "The computer's"} turn: turn total ${g.turn}, ${plural(g.rolls, "roll")} of ${ROLLS} taken.`;
      board.replaceChildren(line(1), line(2), el("p", { id: "goat-turn-line" }, state),
        el("p", { class: "hint" }, `Goal ${g.goal}; seed ${g.seed}.`));
      dice.replaceChildren(...g.dice.map(dieNode));
      for (const b of allActions) b.setAttribute("aria-disabled", yours(g) && g.legal(Number(b.dataset.action)) ? "false" : "true");
    },
    snapshot: (g) => g.snapshot(),
  };
}

/** The Play shell. options: { getTable() -> the goal's table, openInCoach(question), params, setParams(values),
 * anim (false: the computer plays at once) }; start(seed, { seat }). */
export const goatPlay = ({ getTable, openInCoach, params, setParams, anim }) => createPlay(goatPart(getTable),
  { params: params ?? new URLSearchParams(), setParams, openInCoach, anim, historyRow: coachRow });
