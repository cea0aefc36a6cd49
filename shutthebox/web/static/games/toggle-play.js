/* Toggle's Play: a seeded game. Roll two dice, turn card x, y or x+y until every card is face down.
 * Hint values every card the dice allow (cardValues); each card turned gets its cost in expected
 * rolls; each roll in the history opens its position in Coach. */

import { sixDecimals } from "../lib/notation.js";
import { askDiscard, el, plural } from "../lib/ui.js";
import { mulberry32, newSeed, rollDie } from "../lib/random.js";
import { coachRow, numberDie } from "./ui.js";
import { bit, cardValues, cardsOf, choices, stateText } from "./toggle-table.js";

const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

export class TogglePlay {
  /** table(): the rules' table; ctx: the page's context (setParams); openInCoach(up mask, x, y). */
  constructor(table, ctx, openInCoach) {
    Object.assign(this, { table, ctx, openInCoach, state: null, cardButtons: [] });
    const button = (id, text, key, title, onclick) =>
      el("button", { type: "button", id, title, onclick }, text + " ", el("kbd", {}, key));
    this.rollButton = button("toggle-roll", "Roll", "R", "Roll the dice (R)", () => this.roll());
    this.rollButton.classList.add("primary");
    this.hintButton = button("toggle-hint", "Hint", "H", "The table's card and every card's value (H)", () => this.hint());
    this.newButton = button("toggle-new", "New game", "N", "New game, new dice (N)", () => this.askNew());
    this.board = el("p", { class: "scoreboard", id: "toggle-board" });
    this.dice = el("div", { class: "dice", id: "toggle-dice", "aria-live": "polite" });
    this.cards = el("div", { class: "cards", id: "toggle-play-cards", role: "group", "aria-label": "Cards: press the one to turn" });
    this.message = el("p", { class: "message", id: "toggle-message", "aria-live": "assertive" });
    this.feedback = el("p", { class: "feedback", id: "toggle-feedback", "aria-live": "polite" });
    this.values = el("ol", { class: "toggle-hint", id: "toggle-hint-values", "aria-label": "Every card the dice allow, by expected rolls to go" });
    this.log = el("ol", { class: "log", id: "toggle-log", "aria-label": "Your rolls: press one to open it in Coach" });
    this.root = el("div", { id: "toggle-play" },
      el("p", { class: "hint", id: "toggle-keys" }, "Turn every card face down. Roll, then press card x, card y or card x+y. Keys: ",
        el("kbd", {}, "R"), " roll, ", el("kbd", {}, "Tab"), " or arrows to a card then ", el("kbd", {}, "Enter"), " to turn it, ",
        el("kbd", {}, "H"), " hint, ", el("kbd", {}, "N"), " new game."),
      this.board, this.dice, this.cards, el("div", { class: "row" }, this.rollButton, this.hintButton, this.newButton),
      this.message, this.feedback, this.values,
      el("h3", {}, "History"), el("p", { class: "hint" }, "Press a roll to open its position in Coach."), this.log);
  }

  /** A game with at least one roll and cards still face up: not to be thrown away without asking. */
  get inProgress() { return Boolean(this.state && !this.state.over && this.state.rolls > 0); }

  /** A new game with dice from `seed` (null: a random seed). */
  start(seed) {
    const table = this.table();
    if (!table) return;
    seed ??= newSeed();
    const all = 2 ** table.rules.cards - 1;
    this.state = { seed, draw: mulberry32(seed), up: all, rolls: 0, dice: null, moves: [], cost: 0,
      start: table.arrays.rolls[all], over: false, hints: 0 };
    if (this.cardButtons.length !== table.rules.cards) {
      // made once per rules and updated in place, so a focused card keeps the focus
      this.cardButtons = cardsOf(all).map((card) => el("button", { type: "button", "data-card": card, onclick: () => this.flip(card) }, String(card)));
      this.cards.replaceChildren(...this.cardButtons);
    }
    this.log.replaceChildren();
    this.values.replaceChildren();
    this.feedback.textContent = "";
    this.say(`Roll the dice (R). Optimal play expects ${sixDecimals(this.state.start)} rolls.`);
    this.ctx.setParams({ seed: String(seed) });
    this.render();
  }

  /** Forget the game (its rules were changed): Play starts a new one. */
  clear() { this.state = null; }

  /** New game, after asking when a game is in progress. */
  async askNew() {
    if (this.inProgress && !(await askDiscard("New game"))) { this.newButton.focus(); return; }
    this.start(null);
    this.rollButton.focus();
  }

  say(text) { this.message.textContent = text; }

  roll() {
    const s = this.state, cards = this.table().rules.cards, sides = this.table().rules.sides;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (s.dice) {
      this.say(`First turn a card: ${choices(cards, ...s.dice).join(", ")}.`);
      this.focusCard();
      return;
    }
    s.dice = [rollDie(s.draw, sides), rollDie(s.draw, sides)];
    s.rolls++;
    this.values.replaceChildren();
    const can = choices(cards, ...s.dice);
    if (!can.length) {
      this.say(`Dice ${s.dice[0]} and ${s.dice[1]}: no card to turn, the roll passes. Roll again.`);
      this.record(s.up, s.dice, "passes");
      s.dice = null;
      this.render();
      this.rollButton.focus();
      return;
    }
    this.say(`Dice ${s.dice[0]} and ${s.dice[1]}: turn card ${can.join(", card ")}.`);
    this.render();
    this.focusCard();
  }

  /** Turn `card` (one the dice allow): the feedback gives its cost against the table's card. */
  flip(card) {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) { this.say("Roll the dice first (R)."); return; }
    const can = choices(this.table().rules.cards, ...s.dice);
    if (!can.includes(card)) {
      this.say(`Dice ${s.dice[0]} and ${s.dice[1]} let you turn card ${can.join(" or ")}, not card ${card}.`);
      return;
    }
    const ranked = cardValues(this.table(), { up: s.up, x: s.dice[0], y: s.dice[1] });
    const mine = ranked.cards.find((c) => c.card === card);
    const optimal = card === ranked.best || mine.cost < 5e-7; // a cost that prints as 0.000000
    s.moves.push({ roll: s.rolls, up: s.up, dice: s.dice, card, best: ranked.best, value: mine.value,
      bestValue: ranked.value, cost: mine.cost, optimal });
    s.cost += mine.cost;
    this.feedback.textContent = optimal
      ? `Card ${card}: optimal, cost ${sixDecimals(mine.cost)} (${sixDecimals(mine.value)} expected rolls to go).`
      : `Card ${card}: cost ${sixDecimals(mine.cost)} expected rolls (${sixDecimals(mine.value)} to go, against ` +
        `${sixDecimals(ranked.value)} after the table's card ${ranked.best}).`;
    this.record(s.up, s.dice, `card ${card}` + (optimal ? " (optimal)" : ` (cost ${sixDecimals(mine.cost)}; best ${ranked.best})`));
    s.up ^= bit(card);
    s.dice = null;
    this.values.replaceChildren();
    if (!s.up) {
      s.over = true;
      this.say(`Every card is face down after ${plural(s.rolls, "roll")}. Optimal play expects ` +
        `${sixDecimals(s.start)} rolls from the start; your choices cost ${sixDecimals(s.cost)} expected rolls.`);
      this.render();
      this.newButton.focus();
      return;
    }
    this.say(`${sixDecimals(this.table().arrays.rolls[s.up])} expected rolls to go with best play. Roll again.`);
    this.render();
    this.rollButton.focus();
  }

  /** A history row: the position before the roll, which opens in Coach. */
  record(up, dice, words) {
    const n = this.state.rolls;
    this.log.append(coachRow(`Roll ${n}: dice ${dice[0]} ${dice[1]} with ${stateText(up, this.table().rules.cards)} up, ${words}`,
      () => this.openInCoach(up, dice[0], dice[1]), { "data-roll": n }));
  }

  /** Before rolling the expected rolls to go; after, the table's card and every allowed card's value. */
  hint() {
    const s = this.state, table = this.table();
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) {
      this.say(`Hint: before rolling, ${sixDecimals(table.arrays.rolls[s.up])} expected rolls to go with best play.`);
      return;
    }
    s.hints++;
    const ranked = cardValues(table, { up: s.up, x: s.dice[0], y: s.dice[1] });
    this.say(`Hint: turn card ${ranked.best} (then ${sixDecimals(ranked.value)} expected rolls to go).`);
    this.values.replaceChildren(...[...ranked.cards].sort((a, b) => a.value - b.value).map((c) => el("li", {
      class: c.card === ranked.best ? "best" : null, "data-card": c.card, "data-value": sixDecimals(c.value) },
    `card ${c.card}: ${sixDecimals(c.value)} expected rolls to go`, c.card === ranked.best ? " (best)" : ` (cost ${sixDecimals(c.cost)})`)));
  }

  /** Arrow keys among the cards: the previous or next one, round the row. */
  step(from, delta) {
    const n = this.cardButtons.length;
    this.cardButtons[(this.cardButtons.indexOf(from) + delta + n) % n].focus();
  }

  /** The first card the dice allow. */
  focusCard() {
    const s = this.state;
    const can = choices(this.table().rules.cards, ...s.dice);
    this.cardButtons[can[0] - 1].focus();
  }

  key(event) {
    const k = event.key.toLowerCase();
    if (k === "r") this.roll();
    else if (k === "h") this.hint();
    else if (k === "n") this.askNew();
    else if (STEPS[event.key] && this.cardButtons.includes(event.target)) this.step(event.target, STEPS[event.key]);
    else return;
    event.preventDefault();
    if (document.activeElement === document.body || !document.activeElement) this.rollButton.focus();
  }

  /** Update the board in place. */
  render() {
    const s = this.state;
    if (!s) return;
    const can = s.dice ? choices(this.table().rules.cards, ...s.dice) : [];
    this.cardButtons.forEach((b, i) => {
      const card = i + 1, up = (s.up & bit(card)) !== 0, allowed = can.includes(card);
      b.className = `card${up ? " up" : " down"}${allowed ? " can" : ""}`;
      b.dataset.up = up ? "1" : "0";
      b.setAttribute("aria-label", `card ${card}, face ${up ? "up" : "down"}${allowed ? ", can be turned" : ""}`);
    });
    this.dice.replaceChildren(...(s.dice || []).map(numberDie));
    this.board.textContent = `Seed ${s.seed}. Rolls: ${s.rolls}. Face up: ${stateText(s.up, this.table().rules.cards)}.`;
    this.rollButton.setAttribute("aria-disabled", s.over || s.dice ? "true" : "false");
    this.hintButton.setAttribute("aria-disabled", s.over ? "true" : "false");
    document.body.dataset.toggle = s.over ? "over" : s.dice ? "flip" : "roll";
  }

  /** The game for the tests (no random generator). */
  snapshot() { return this.state && { ...this.state, draw: undefined }; }
}
