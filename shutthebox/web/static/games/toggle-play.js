/* Toggle's Play on the Play shell (lib/play.js): a seeded game. Roll two dice, turn card x, y or x+y
 * until every card is face down. Hint values every card the dice allow (cardValues); each card turned
 * gets its cost in expected rolls. Move codes in the link: 0 roll, N turn card N. */

import { sixDecimals } from "../lib/notation.js";
import { score, scoreCost, tieOf } from "../lib/numbers.js";
import { createPlay } from "../lib/play.js";
import { dieNode, el, plural } from "../lib/ui.js";
import { mulberry32, rollDie } from "../lib/random.js";
import { coachRow } from "./ui.js";
import { bit, cardValues, cardsOf, choices, stateText } from "./toggle-table.js";

/** Expected rolls as players read them (one decimal, the command line's six a press away). */
const rolls = (value) => score(value, sixDecimals(value));

const ROLL = 0;

/** The rules of a turn for the shell. table(): the rules' table. */
function togglePart(table) {
  let rollButton, cardButtons = [], cards, dice, board;
  const can = (g) => (g.dice ? choices(g.cards, ...g.dice) : []);
  const over = "The game is over: press New game (N).";
  return {
    id: "toggle",
    tie: (g) => tieOf(g.table),
    ids: { hintList: "toggle-hint-values" },
    hintClass: "toggle-hint",
    help: ["Turn every card face down. Keys: ", el("kbd", {}, "R"), " roll;"],
    itemWords: "turn that card",
    confirmWords: "rolls",
    build(play) {
      rollButton = el("button", { type: "button", id: "toggle-roll", class: "primary", title: "Roll the dice (R)",
        onclick: () => play.act(ROLL) }, "Roll ", el("kbd", {}, "R"));
      board = el("p", { class: "scoreboard", id: "toggle-board" });
      dice = el("div", { class: "dice", id: "toggle-dice", "aria-live": "polite" });
      cards = el("div", { class: "cards", id: "toggle-play-cards", role: "group", "aria-label": "Cards: press the one to turn" });
      this.play = play;
      return { board: el("div", {}, board, dice, cards), items: () => cardButtons, controls: [rollButton] };
    },
    newGame(seed) {
      const t = table(), all = 2 ** t.rules.cards - 1;
      if (cardButtons.length !== t.rules.cards) {
        // made once per rules and updated in place, so a focused card keeps the focus
        cardButtons = cardsOf(all).map((card) => el("button", { type: "button", "data-card": card, onclick: () => this.play.act(card) }, String(card)));
        cards.replaceChildren(...cardButtons);
      }
      return { table: t, seed, cards: t.rules.cards, sides: t.rules.sides, draw: mulberry32(seed), up: all, rolls: 0, dice: null,
        start: t.arrays.rolls[all], over: false };
    },
    opening: (g) => ["Roll the dice (R). Optimal play expects ", rolls(g.start), " rolls."],
    link: () => ({}),
    codes: (g) => g.cards + 1,
    legal(g, code) {
      if (g.over) return over;
      if (code === ROLL) return g.dice ? `First turn a card: ${can(g).join(", ")}.` : null;
      if (!g.dice) return "Roll the dice first (R).";
      if (code > g.cards) return `There is no card ${code}.`;
      const allowed = can(g);
      return allowed.includes(code) ? null : `Dice ${g.dice[0]} and ${g.dice[1]} let you turn card ${allowed.join(" or ")}, not card ${code}.`;
    },
    judge(g, code) {
      if (code === ROLL) return null;
      const ranked = cardValues(g.table, { up: g.up, x: g.dice[0], y: g.dice[1] });
      const mine = ranked.cards.find((c) => c.card === code);
      return { choice: `Card ${code}`, value: mine.value, best: String(ranked.best), bestWords: `card ${ranked.best}`,
        same: code === ranked.best, bestValue: ranked.value, cost: Math.max(0, mine.cost), position: { up: g.up, x: g.dice[0], y: g.dice[1] } };
    },
    apply(g, code) {
      const row = (words) => ({ text: `Roll ${g.rolls}: dice ${g.dice[0]} ${g.dice[1]} with ${stateText(g.up, g.cards)} up, ${words}`,
        position: { up: g.up, x: g.dice[0], y: g.dice[1] }, attrs: { "data-roll": g.rolls } });
      if (code === ROLL) {
        g.dice = [rollDie(g.draw, g.sides), rollDie(g.draw, g.sides)];
        g.rolls++;
        const allowed = can(g);
        if (allowed.length) return { say: `Dice ${g.dice[0]} and ${g.dice[1]}: turn card ${allowed.join(", card ")}.`, row: null };
        const passed = row("passes");
        const say = `Dice ${g.dice[0]} and ${g.dice[1]}: no card to turn, the roll passes. Roll again.`;
        g.dice = null;
        return { say, row: passed };
      }
      const done = row(`card ${code}`);
      g.up ^= bit(code);
      g.dice = null;
      g.over = !g.up;
      return { say: [rolls(g.table.arrays.rolls[g.up]), " expected rolls to go with best play. Roll again."], row: done };
    },
    hint(g) {
      if (!g.dice) return { say: ["Hint: before rolling, ", rolls(g.table.arrays.rolls[g.up]), " expected rolls to go with best play."] };
      const ranked = cardValues(g.table, { up: g.up, x: g.dice[0], y: g.dice[1] });
      return { say: [`Hint: turn card ${ranked.best} (then `, rolls(ranked.value), " expected rolls to go)."],
        marks: [{ node: cardButtons[ranked.best - 1], word: "best" }], markWords: `The hint's choice: turn card ${ranked.best}.`,
        choices: [...ranked.cards].sort((a, b) => a.value - b.value || (b.card === ranked.best) - (a.card === ranked.best))
          .map((c) => ({ text: `card ${c.card}`, value: sixDecimals(c.value), shown: rolls(c.value), cost: Math.max(0, c.cost), attrs: { "data-card": c.card } })) };
    },
    pick: (g, n) => n,
    confirm: () => ROLL,
    keys: { r: () => ROLL },
    // with dice showing, the first card they let you turn (Enter or Space turns it: a control's own key)
    focus: (g) => (g.dice ? cardButtons[can(g)[0] - 1] : rollButton),
    over: (g) => g.over,
    started: (g) => g.rolls > 0,
    amount: (value) => [rolls(value), " expected rolls to go"],
    costText: (cost, short) => (short ? scoreCost(cost) : [scoreCost(cost), " expected rolls"]),
    summary: (g, cost) => [`Every card is face down after ${plural(g.rolls, "roll")}. Optimal play expects `,
      rolls(g.start), " rolls from the start; your choices cost ", scoreCost(cost), " expected rolls."],
    render(g) {
      const allowed = can(g);
      cardButtons.forEach((b, i) => {
        const card = i + 1, up = (g.up & bit(card)) !== 0, ok = allowed.includes(card);
        // face up is the light wood of an open tile, face down the felt of a shut one (as on the Shut the Box page)
        b.className = `card${up ? " up" : " down"}${ok ? " can" : ""}`;
        b.dataset.up = up ? "1" : "0";
        b.setAttribute("aria-label", `card ${card}, face ${up ? "up" : "down"}${ok ? ", can be turned" : ""}`);
      });
      dice.replaceChildren(...(g.dice || []).map(dieNode));
      board.textContent = `Seed ${g.seed}. Rolls: ${g.rolls}. Face up: ${stateText(g.up, g.cards)}.`;
      rollButton.setAttribute("aria-disabled", g.over || g.dice ? "true" : "false");
      document.body.dataset.toggle = g.over ? "over" : g.dice ? "flip" : "roll";
    },
    snapshot: (g, decisions) => ({ up: g.up, rolls: g.rolls, dice: g.dice, start: g.start, over: g.over,
      moves: decisions.map((d) => ({ ...d, card: Number(d.choice.slice(5)) })) }),
  };
}

/** Toggle's Play shell: table() the rules' table, ctx the page's context, openInCoach(up mask, x, y). */
export const togglePlay = (table, ctx, openInCoach) => createPlay(togglePart(table), { params: ctx.params,
  setParams: ctx.setParams, historyRow: coachRow, openInCoach: ({ up, x, y }) => openInCoach(up, x, y) });
