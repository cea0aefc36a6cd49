/* Goat's Play: you against the table's optimal play, with seeded dice, a hint that values every
 * legal action, the win chance each of your decisions gave up, and a history that opens in Coach. */

import { sixDecimals } from "../lib/notation.js";
import { askDiscard, el, plural } from "../lib/ui.js";
import { mulberry32, newSeed, rollDie } from "../lib/random.js";
import { coachRow, numberDie } from "./ui.js";
import { DICE, ROLLS, actionText } from "./goat-table.js";
import { actionValues, costOf } from "./goat-values.js";

const STEP_MS = 650; // the computer's pace: quick, but each roll can be read

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

  /** A copy for the tests (no dice generator, no table). */
  snapshot() {
    const { table, draw, ...rest } = this;
    return JSON.parse(JSON.stringify({ ...rest, position: this.over ? null : this.position() }));
  }
}

/**
 * The Play panel. options: { getTable() -> the goal's table, openInCoach(question), setParams(values),
 * anim (false: the computer plays at once) } -> { root, start(seed, seat), key(event), ... }.
 */
export function mountPlay({ getTable, openInCoach, setParams, anim }) {
  let game = null;
  let timer = null;
  let busy = false; // the computer is playing

  const seatRadios = ["1", "2"].map((value) => el("input", { type: "radio", name: "goat-seat", value, id: `goat-seat-${value}` }));
  const seatBox = el("fieldset", { class: "radios", id: "goat-seat" }, el("legend", {}, "Your seat"),
    ...seatRadios.map((input) => el("label", { for: input.id }, input, input.value === "1" ? " First player" : " Second player")));
  const board = el("div", { class: "goat-board", id: "goat-board", "aria-live": "polite" });
  const dice = el("div", { class: "dice", id: "goat-dice" });
  const rollButtons = Array.from({ length: DICE }, (_, i) => el("button", {
    type: "button", class: "chip", id: `goat-roll-${i + 1}`, "data-action": i + 1,
    title: `Roll ${i + 1} ${i ? "dice" : "die"} (${i + 1})`, onclick: () => human(i + 1) }, `Roll ${i + 1} `, el("kbd", {}, String(i + 1))));
  const stopButton = el("button", { type: "button", class: "primary", id: "goat-stop", "data-action": 0,
    title: "Stop and bank the turn total (S or 0)", onclick: () => human(0) }, "Stop ", el("kbd", {}, "S"));
  const hintButton = el("button", { type: "button", id: "goat-hint", title: "Value every action (H)", onclick: () => hint() }, "Hint ", el("kbd", {}, "H"));
  const newButton = el("button", { type: "button", id: "goat-new", title: "New game, new dice (N)", onclick: () => newGame() }, "New game ", el("kbd", {}, "N"));
  const actions = el("div", { class: "chips goat-actions", role: "group", "aria-label": "Your action", id: "goat-actions" }, ...rollButtons, stopButton);
  const message = el("p", { class: "message goat-events", id: "goat-message", "aria-live": "polite" });
  let events = []; // what happened since your last decision, one line each

  /** A line in the message: after ``more`` lines since your last decision, else alone. */
  function say(text, more = false) {
    if (more && events[events.length - 1] === text) return;
    events = more ? [...events, text] : [text];
    message.replaceChildren(...events.map((line) => el("span", {}, line)));
  }
  const feedback = el("p", { class: "feedback", id: "goat-feedback", "aria-live": "polite" });
  const hintBox = el("div", { class: "goat-hint", id: "goat-hint-box", "aria-live": "polite" });
  const history = el("ol", { class: "log", id: "goat-history" });
  const root = el("div", { id: "goat-play" },
    seatBox, el("p", { class: "hint" }, "Keys: 1-6 roll that many dice, S or 0 stop, H hint, N new game. " +
      "A row of the history opens its position in Coach."),
    board, dice, actions, el("div", { class: "row" }, hintButton, newButton), message, feedback, hintBox,
    el("h3", {}, "History"), history);
  const allActions = [...rollButtons, stopButton];

  seatRadios.forEach((input) => input.addEventListener("change", async () => {
    const seat = Number(input.value);
    if (game && seat === game.seat) return;
    if (inProgress() && !(await askDiscard("Change seat"))) {
      seatRadios.forEach((r) => { r.checked = Number(r.value) === game.seat; });
      seatBox.querySelector("input:checked").focus();
      return;
    }
    start(null, seat);
  }));

  const inProgress = () => game !== null && !game.over && game.history.length > 0;
  const yourTurn = () => game && !game.over && !busy && game.mover === game.seat;
  const name = (player) => (player === game.seat ? "You" : "The computer");

  function start(seed, seat) {
    const table = getTable();
    if (!table) return null;
    clearTimeout(timer);
    busy = false;
    seed ??= newSeed();
    seat = seat === 2 ? 2 : 1;
    game = new Game(table, seed, seat);
    seatRadios.forEach((r) => { r.checked = Number(r.value) === seat; });
    setParams({ seed: String(seed), seat: String(seat) });
    history.replaceChildren();
    say(seat === 1 ? "You play first: choose how many dice to roll." : "The computer plays first.");
    feedback.textContent = "";
    hintBox.replaceChildren();
    render();
    computer();
    return game;
  }

  async function newGame() {
    if (inProgress() && !(await askDiscard("New game"))) { focusActions(); return; }
    start(null, game ? game.seat : 1);
    focusActions();
  }

  function human(action) {
    if (!game) return;
    if (game.over) { say("The game is over: press New game (N)."); return; }
    if (busy || game.mover !== game.seat) { say("Wait: the computer is playing.", true); return; }
    if (!game.legal(action)) { say("Roll first: you can stop after at least one roll."); return; }
    const row = game.act(action);
    feedback.textContent = row.action === row.best
      ? `${actionText(action)}: optimal, cost ${sixDecimals(0)} (win chance ${sixDecimals(row.value)}).`
      : `${actionText(action)}: cost ${sixDecimals(row.cost)} of win chance (${sixDecimals(row.value)} against ` +
        `${sixDecimals(row.bestValue)} for the table's ${actionText(row.best)}).`;
    hintBox.replaceChildren();
    report(row);
    computer();
    focusActions(action);
  }

  /** The computer's turn, one action at a time: at once without animation, else a step every STEP_MS. */
  function computer() {
    busy = false;
    while (game && !game.over && game.mover !== game.seat) {
      if (anim) {
        busy = true;
        render();
        const playing = game;
        timer = setTimeout(() => {
          if (game !== playing) return;
          report(game.act(bestAction()));
          computer();
          // back to your turn: focus returns to the actions unless you have gone elsewhere meanwhile
          if (!busy && (document.activeElement === document.body || allActions.includes(document.activeElement))) focusActions();
        }, STEP_MS);
        return;
      }
      report(game.act(bestAction()));
    }
    render();
  }

  const bestAction = () => actionValues(game.table, game.position()).best;

  /** One action happened: the dice, the message, a history row. */
  function report(row) {
    const who = row.who === "you" ? "You" : "The computer";
    say(`${who} ${row.action ? `rolled ${plural(row.action, "die", "dice")}: ` +
      `${row.dice.join(" ")}, ${row.outcome}` : `stopped and ${row.outcome}`}.` + (game.over ? " " + result() : ""), row.who === "computer");
    const rowText = `${row.who === "you" ? "You" : "Computer"} at ${row.my} (${row.who === "you" ? "computer" : "you"} ` +
      `${row.opp}), turn ${row.turn} after ${plural(row.rolls, "roll")}: ${actionText(row.action)}` +
      (row.action === row.best ? "" : ` (best ${actionText(row.best)}, cost ${sixDecimals(row.cost)})`) +
      (row.action ? ` → ${row.dice.join(" ")}, ${row.short}` : "");
    history.append(coachRow(rowText, () => openInCoach({ player: row.player, my: row.my, opp: row.opp, turn: row.turn, rolls: row.rolls })));
    render();
  }

  function result() {
    const [one, two] = game.scores;
    if (game.winner === 0) return `A tie at ${one}: half a win each.`;
    const you = game.winner === game.seat;
    return `${you ? "You win" : "The computer wins"}, ${Math.max(one, two)} to ${Math.min(one, two)}.`;
  }

  function hint() {
    if (!yourTurn()) { say(game && game.over ? "The game is over: press New game (N)." : "Wait: the computer is playing.", Boolean(game)); return; }
    const values = actionValues(game.table, game.position());
    hintBox.replaceChildren(
      el("p", { id: "goat-hint-best" }, `Hint: ${actionText(values.best)}, win chance ${sixDecimals(values.value)}.`),
      el("ul", { id: "goat-hint-values" }, ...values.actions.map((a) => el("li", {
        class: a.action === values.best ? "best" : null, "data-action": a.action, "data-value": sixDecimals(a.value) },
      `${a.text}: ${sixDecimals(a.value)}`))));
  }

  function render() {
    if (!game) return;
    const seatName = (player) => (player === 1 ? "first" : "second");
    const line = (player) => el("p", { class: player === game.mover && !game.over ? "mover" : null, "data-player": player },
      `${player === game.seat ? "You" : "Computer"} (${seatName(player)}): `, el("strong", {}, String(game.scores[player - 1])));
    const state = game.over ? result()
      : `${name(game.mover) === "You" ? "Your" : "The computer's"} turn: turn total ${game.turn}, ` +
        `${plural(game.rolls, "roll")} of ${ROLLS} taken.`;
    board.replaceChildren(line(1), line(2), el("p", { id: "goat-turn-line" }, state),
      el("p", { class: "hint" }, `Goal ${game.goal}; seed ${game.seed}.`));
    dice.replaceChildren(...game.dice.map(numberDie));
    const mine = yourTurn();
    for (const b of allActions) b.setAttribute("aria-disabled", mine && game.legal(Number(b.dataset.action)) ? "false" : "true");
    hintButton.setAttribute("aria-disabled", mine ? "false" : "true");
    root.dataset.state = game.over ? "over" : mine ? "yours" : "computer";
  }

  /** Focus stays on the action buttons: the one just used while it is legal, else the first that is. */
  function focusActions(action = null) {
    if (!game) return;
    if (game.over) { newButton.focus(); return; }
    const used = allActions.find((b) => Number(b.dataset.action) === action);
    const target = used && game.legal(action) ? used
      : allActions.includes(document.activeElement) && game.legal(Number(document.activeElement.dataset.action))
        ? document.activeElement : rollButtons[0];
    target.focus();
  }

  function key(event) {
    const k = event.key.toLowerCase();
    if (k >= "1" && k <= "6") human(Number(k));
    else if (k === "s" || k === "0") human(0);
    else if (k === "h") hint();
    else if (k === "n") newGame();
    else return false;
    return true;
  }

  return {
    root, start, key, focus: () => focusActions(),
    game: () => game,
    inProgress,
  };
}
