/* Pig's Play on the Play shell (lib/play.js): you against the table's optimal player, the dice seeded as
 * every game's (mulberry32, one draw per die; Piglet's coin a 2-sided die: 1 tails, 2 heads), a hint with
 * the chance to win of rolling and of holding, each decision's cost in chance to win (what `ShutTheBox pig
 * --options I J K` prints as its loss), a history whose rows open Coach, and a review of every decision.
 * Move codes in the link (yours only: the computer's follow from the seed): 1 roll, 0 hold. */

import { createPlay } from "../lib/play.js";
import { chance as chanceNum, chanceCost, tieOf } from "../lib/numbers.js";
import { dieNode, el } from "../lib/ui.js";
import { mulberry32, rollDie } from "../lib/random.js";
import { coachRow, seatChooser } from "./ui.js";
import { fixed } from "../lib/printing.js";
import { ADD, BUST, HOLD, ROLL, chanceText, choiceChances, diceOf, lossOf, rollOutcome } from "./pig-table.js";

export const HOLD_CODE = 0, ROLL_CODE = 1;
const CHOICE = [HOLD, ROLL]; // code -> the command line's word

/**
 * One game. Player 1 moves first; a turn rolls until a bust (the turn total lost; in Two-Dice Pig double 1s
 * also lose the banked score) or a hold (the turn total banked); reaching the goal, by a hold or a roll, wins.
 */
export class Game {
  constructor(table, seed, seat) {
    this.table = table;
    this.rules = table.rules;
    this.goal = table.rules.goal;
    this.seed = seed;
    this.seat = seat; // your player number
    this.draw = mulberry32(seed);
    this.scores = [0, 0];
    this.mover = 1;
    this.turn = 0;
    this.dice = [];
    this.over = false;
    this.winner = null;
    this.history = [];
  }

  /** The mover's decision as a Coach question: (I, J, K). */
  position() {
    return { i: this.scores[this.mover - 1], j: this.scores[2 - this.mover], k: this.turn };
  }

  /** Every choice with its chance to win and its loss against the table's choice (--options, unchecked). */
  values() {
    const p = this.position();
    const c = choiceChances(this.table, p.i, p.j, p.k);
    const best = c.choices[0].chance;
    for (const x of c.choices) x.loss = lossOf(best, x.chance);
    return c;
  }

  legal(code) {
    return !this.over && (code === ROLL_CODE || (code === HOLD_CODE && this.turn > 0));
  }

  /** The mover rolls (1) or holds (0): the history row. */
  act(code) {
    const p = this.position();
    const values = this.values();
    const chosen = values.choices.find((x) => x.choice === CHOICE[code]);
    const row = { ...p, player: this.mover, who: this.mover === this.seat ? "you" : "computer", choice: CHOICE[code],
      best: values.best, chance: chosen.chance, loss: chosen.loss, dice: [], outcome: "" };
    this.history.push(row);
    if (code === HOLD_CODE) {
      this.dice = [];
      row.outcome = `banked ${this.turn}, ${this.scores[this.mover - 1] + this.turn} in all`;
      row.short = `banks ${this.turn}`;
      this.endTurn(this.turn);
      return row;
    }
    this.dice = diceOf(this.rules).map((sides) => rollDie(this.draw, sides));
    row.dice = this.dice;
    const [kind, points] = rollOutcome(this.rules.variant, this.dice);
    if (kind === ADD) {
      this.turn += points;
      row.short = `+${points}`;
      row.outcome = `+${points}, turn total ${this.turn}`;
      if (p.i + this.turn >= this.goal) {
        this.scores[this.mover - 1] += this.turn;
        row.outcome += `: ${this.scores[this.mover - 1]} reaches the goal`;
        this.finish(this.mover);
      }
    } else if (kind === BUST) {
      row.short = "the turn is lost";
      row.outcome = `the turn total of ${this.turn} is lost`;
      this.endTurn(0);
    } else {
      row.short = "back to 0";
      row.outcome = `double 1s: the turn total and the banked ${this.scores[this.mover - 1]} are lost, back to 0`;
      this.scores[this.mover - 1] = 0;
      this.endTurn(0);
    }
    return row;
  }

  endTurn(gain) {
    this.scores[this.mover - 1] += gain;
    this.turn = 0;
    if (this.scores[this.mover - 1] >= this.goal) { this.finish(this.mover); return; }
    this.mover = 3 - this.mover;
  }

  finish(winner) {
    this.over = true;
    this.winner = winner;
    this.turn = 0;
  }

  /** A copy for the tests (no dice stream, no table). */
  snapshot() {
    const { table, draw, ...rest } = this;
    return JSON.parse(JSON.stringify({ ...rest, position: this.over ? null : this.position() }));
  }
}

/** A die or a coin as the page shows it. */
const face = (variant, n) => (variant === "piglet"
  ? el("span", { class: "pig-coin", role: "img", "aria-label": n === 1 ? "tails" : "heads" }, n === 1 ? "T" : "H") : dieNode(n));
const faces = (variant, dice) => (variant === "piglet" ? dice.map((n) => (n === 1 ? "tails" : "heads")).join(" ") : dice.join(" "));

/** The command line's six decimals of a chance, or why it is not printed. */
const printedOf = (table, index, x) => {
  const { text, why } = chanceText(table, index, x);
  return text === null ? `not printed (${why})` : text;
};

/** A chance as every page shows it (lib/numbers.js: 45.5%, the command line's six decimals a press away), or why it is
 * not printed. */
export function chanceWords(table, index, x) {
  const { text, why } = chanceText(table, index, x);
  return text === null ? `not printed (${why})` : chanceNum(x.chance, text);
}

/** The rules of a turn for the shell. getTable(): the rules' table; openInCoach(position). */
function pigPart(getTable, openInCoach) {
  let play, board, dice, rollButton, holdButton, seats;
  let events = []; // what happened since your last decision
  const result = (g) => `${g.winner === g.seat ? "You win" : "The computer wins"}, ${g.scores[g.winner - 1]} to ${g.scores[2 - g.winner]}.`;
  const yours = (g) => !g.over && g.mover === g.seat;
  const amount = (v) => ["chance to win ", v.words()];
  const costText = (cost, short) => [chanceCost(cost), short ? "" : " of winning chance"];
  const rowText = (row) => `${row.who === "you" ? "You" : "Computer"} at ${row.i} (${row.who === "you" ? "computer" : "you"} ${row.j}), ` +
    `turn total ${row.k}: ${row.choice}` + (row.choice === ROLL ? ` → ${faces(getTable().rules.variant, row.dice)}, ${row.short}` : `, ${row.short}`);
  return {
    id: "pig",
    tie: () => tieOf(getTable()),
    ids: { log: "pig-history", hintList: "pig-hint-values" },
    hintClass: "pig-hint",
    help: ["Keys: ", el("kbd", {}, "R"), " or ", el("kbd", {}, "Enter"), " roll, ", el("kbd", {}, "S"), " hold (bank the turn total);"],
    itemWords: "roll (1) or hold (2)",
    confirmWords: "rolls",
    build(shell) {
      play = shell;
      seats = seatChooser("pig", play);
      board = el("div", { class: "pig-board", id: "pig-board", "aria-live": "polite" });
      dice = el("div", { class: "dice", id: "pig-dice", "aria-live": "polite" });
      rollButton = el("button", { type: "button", class: "primary", id: "pig-roll", "data-code": ROLL_CODE,
        title: "Roll: add to the turn total, or lose it (R, 1 or Enter)", onclick: () => play.act(ROLL_CODE) }, "Roll ", el("kbd", {}, "R"));
      holdButton = el("button", { type: "button", id: "pig-hold", "data-code": HOLD_CODE,
        title: "Hold: bank the turn total and pass the dice (S or 2)", onclick: () => play.act(HOLD_CODE) }, "Hold ", el("kbd", {}, "S"));
      const actions = [rollButton, holdButton];
      return { board: el("div", {}, seats.root, board, dice,
        el("div", { class: "chips pig-actions", role: "group", "aria-label": "Your choice", id: "pig-actions" }, ...actions)),
      items: actions, groups: [actions] };
    },
    newGame(seed, { seat = 1 } = {}) {
      const g = new Game(getTable(), seed, seat === 2 ? 2 : 1);
      seats.set(g.seat);
      events = [];
      return g;
    },
    opening: (g) => (g.seat === 1 ? "You play first: roll (R or Enter)." : "The computer plays first."),
    link: (g) => ({ seat: String(g.seat) }),
    optionsOf: (params) => ({ seat: params.get("seat") === "2" ? 2 : 1 }),
    codes: () => 2,
    legal(g, code) {
      if (g.over) return "The game is over: press New game (N).";
      if (code !== ROLL_CODE && code !== HOLD_CODE) return `There is no move ${code}: roll (1) or hold (0).`;
      if (!g.legal(code)) return "A turn starts with a roll: there is no turn total to hold yet.";
      return null;
    },
    judge(g, code) {
      if (g.mover !== g.seat) return null; // the computer's
      const values = g.values();
      const mine = values.choices.find((x) => x.choice === CHOICE[code]), top = values.choices[0];
      const chance = (x) => ({ chance: x.chance, words: () => chanceWords(g.table, values.index, x) }); // a new node each time
      const choice = CHOICE[code];
      return { choice: choice[0].toUpperCase() + choice.slice(1), value: chance(mine), best: values.best, same: choice === values.best,
        bestValue: chance(top), cost: mine.loss, position: g.position() };
    },
    apply(g, code) {
      const row = g.act(code);
      const who = row.who === "you" ? "You" : "The computer";
      const line = `${who} ${row.choice === ROLL ? `rolled ${faces(g.rules.variant, row.dice)}: ${row.outcome}` : `held: ${row.outcome}`}.` +
        (g.over ? " " + result(g) : "");
      events = row.who === "you" ? [line] : [...events, line];
      return { say: events.join(" "), row: { text: rowText(row), position: { i: row.i, j: row.j, k: row.k } } };
    },
    auto: (g) => (!g.over && g.mover !== g.seat ? (g.values().best === ROLL ? ROLL_CODE : HOLD_CODE) : null),
    hint(g) {
      const values = g.values();
      const words = (x) => chanceWords(g.table, values.index, x);
      return { say: [`Hint: ${values.best}, chance to win `, words(values.choices[0]), "."],
        // drawn on the board: the best choice's button
        marks: [{ node: values.best === ROLL ? rollButton : holdButton, word: "best" }], markWords: `The hint's choice: ${values.best}.`,
        choices: values.choices.map((x) => ({ text: x.choice, value: printedOf(g.table, values.index, x), shown: words(x), cost: x.loss,
          attrs: { "data-choice": x.choice, "data-loss": fixed(x.loss, 6) } })) };
    },
    pick: (g, n) => (n === 1 ? ROLL_CODE : HOLD_CODE),
    confirm: () => ROLL_CODE,
    keys: { r: () => ROLL_CODE, s: () => HOLD_CODE },
    focus(g, code) {
      // after a key's move, the focus rests on Roll, which Enter also presses: Enter never repeats another move
      if (code === HOLD_CODE && yours(g) && g.legal(HOLD_CODE)) return holdButton;
      return rollButton;
    },
    over: (g) => g.over,
    started: (g) => g.history.some((row) => row.who === "you"),
    amount,
    costText,
    summary: (g) => events.join(" ") || result(g),
    /** The review: how many decisions were optimal, the total cost, the three costliest, and every decision with
     * its cost as `ShutTheBox pig --options I J K` prints it (rows that open Coach). */
    review(g, decisions, cost) {
      const optimal = decisions.filter((d) => d.optimal).length;
      const row = (d, n, attrs = {}) => coachRow([`${n + 1}. I J K = ${d.position.i} ${d.position.j} ${d.position.k}: ${d.choice.toLowerCase()}`,
        ...(d.optimal ? [" (optimal)"] : [" (cost ", ...costText(d.cost, true), `; best ${d.best})`])],
      () => openInCoach(d.position),
      { "data-i": d.position.i, "data-j": d.position.j, "data-k": d.position.k, "data-choice": d.choice.toLowerCase(),
        "data-loss": fixed(d.cost, 6), ...attrs });
      const costliest = decisions.map((d, n) => [d, n]).filter(([d]) => !d.optimal)
        .sort(([a, n], [b, m]) => b.cost - a.cost || n - m).slice(0, 3);
      return [
        el("p", { id: "pig-review-total" }, `${optimal} of ${decisions.length} decisions optimal; your choices cost `,
          ...costText(cost), " in all."),
        costliest.length ? el("p", {}, "The costliest decisions:") : null,
        costliest.length ? el("ol", { class: "log", id: "pig-costliest" }, ...costliest.map(([d, n]) => row(d, n, { "data-decision": n }))) : null,
        el("details", { id: "pig-every-decision" }, el("summary", {}, `Every decision (${decisions.length}), with its cost in chance to win`),
          el("p", { class: "hint" }, "A decision's cost is how much less chance to win it leaves than the table's choice, as " +
            "ShutTheBox pig --options I J K prints it (I: your banked score, J: the computer's, K: the turn total)."),
          el("ol", { class: "log", id: "pig-decisions" }, ...decisions.map((d, n) => row(d, n, { "data-decision": n })))),
      ];
    },
    render(g) {
      const seatName = (player) => (player === 1 ? "first" : "second");
      const line = (player) => el("p", { class: player === g.mover && !g.over ? "mover" : null, "data-player": player },
        `${player === g.seat ? "You" : "Computer"} (${seatName(player)}): `, el("strong", {}, String(g.scores[player - 1])));
      const state = g.over ? result(g)
        : `${g.mover === g.seat ? "Your" : "The computer's"} turn: turn total ${g.turn}` +
          (g.turn ? ` (holding banks ${g.scores[g.mover - 1] + g.turn})` : "") + ".";
      board.replaceChildren(line(1), line(2), el("p", { id: "pig-turn-line" }, state),
        el("p", { class: "hint" }, `Goal ${g.goal}; seed ${g.seed}.`));
      dice.replaceChildren(...g.dice.map((n) => face(g.rules.variant, n)));
      rollButton.setAttribute("aria-disabled", yours(g) ? "false" : "true");
      holdButton.setAttribute("aria-disabled", yours(g) && g.legal(HOLD_CODE) ? "false" : "true");
    },
    snapshot: (g) => g.snapshot(),
  };
}

/** The Play shell. options: { getTable() -> the rules' table, openInCoach({i, j, k}), params, setParams(values),
 * anim (false: the computer plays at once) }; start(seed, { seat }). */
export const pigPlay = ({ getTable, openInCoach, params, setParams, anim }) => createPlay(pigPart(getTable, openInCoach),
  { params: params ?? new URLSearchParams(), setParams, openInCoach, anim, historyRow: coachRow });
