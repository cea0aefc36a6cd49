/* A set-aside dice game's Play on the Play shell (lib/play.js), generic over the family: a seeded game. Roll
 * every die; after each roll press the dice to set aside (at least one), then roll the rest, until every die
 * is set aside; the total is the points of the dice set aside. Hint: the table's move and every choice's
 * expected total still to come with what it gives away; each choice made gets its cost (exact: the table's
 * fractions). Move codes in the link: 0 roll (the first roll, then: set aside the pressed dice and roll the
 * rest), N (1 to 8) press or free the N-th die showing. */

import { score, scoreCost } from "../lib/numbers.js";

/** An expected total, its exact text already computed (the command line's): one decimal, the six a press away. */
const expected = (text) => score(Number(text), text);
import { createPlay } from "../lib/play.js";
import { dieNode, el, facesAt, plural, setFace } from "../lib/ui.js";
import { mulberry32, rollDie } from "../lib/random.js";
import { coachRow } from "../games/ui.js";
import { choiceList, diceText, exactOf, leftText } from "./setaside-table.js";

const ROLL = 0;
const sorted = (dice) => [...dice].sort((a, b) => a - b);

/** The rules of a turn for the shell. game: { id, title }, table(): the rules' table. */
function setAsidePart(game, table) {
  const id = game.id, dataKey = id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase()); // data-ID on the body
  let play, rollButton, dieButtons = [], diceBox, asideBox, board, total;
  const over = "The game is over: press New game (N).";
  const chosen = (g) => g.showing.filter((_, i) => g.pressed[i]);
  const points = (g, faces) => faces.reduce((sum, face) => sum + g.table.rules.points[face - 1], 0);
  const bestWord = (g) => g.table.rules.best; // "lowest" or "highest"
  return {
    id,
    tie: () => 0, // exact values: only equal ones tie (the table's tie rule is the move's, FORMAT.md section 13)
    ids: { hintList: `${id}-hint-list` },
    hintClass: "yazy-choices",
    help: ["Keys: ", el("kbd", {}, "R"), " roll, then set aside the pressed dice and roll the rest;"],
    itemWords: "press or free that die",
    confirmWords: "rolls (setting aside the pressed dice)",
    build(shell) {
      play = shell;
      rollButton = el("button", { type: "button", id: `${id}-roll`, class: "primary", title: "Roll (R): set aside the pressed dice and roll the rest",
        onclick: () => play.act(ROLL) }, "Roll ", el("kbd", {}, "R"));
      board = el("p", { class: "scoreboard", id: `${id}-board`, "aria-live": "polite" });
      total = el("p", { class: "scoreboard", id: `${id}-total` });
      diceBox = el("div", { class: "yazy-dice", id: `${id}-play-dice`, role: "group", "aria-label": "Dice showing: press the ones to set aside" });
      asideBox = el("div", { class: "dice", id: `${id}-aside`, role: "group", "aria-label": "Dice set aside" });
      return { board: el("div", {}, board, diceBox, el("p", { class: "hint" }, "Set aside:"), asideBox, total),
        items: () => dieButtons.filter((b) => !b.hidden), groups: () => [dieButtons.filter((b) => !b.hidden)], controls: [rollButton] };
    },
    newGame(seed) {
      const t = table(), dice = t.rules.dice;
      if (dieButtons.length !== dice) {
        // made once per rules and updated in place, so a focused die keeps the focus
        dieButtons = Array.from({ length: dice }, (_, i) => el("button", { type: "button", class: "yazy-die", "data-die": i + 1,
          "aria-pressed": "false", onclick: () => play.act(i + 1) }, dieNode(null), el("span", { class: "kept" }, String(i + 1))));
        diceBox.replaceChildren(...dieButtons);
      }
      return { table: t, seed, draw: mulberry32(seed), left: dice, showing: null, pressed: [], aside: [], total: 0, rolls: 0,
        start: leftText(t, dice), over: false };
    },
    opening: (g) => ["Roll the dice (R). Optimal play expects a total of ", expected(g.start), `; the ${bestWord(g)} total wins.`],
    link: () => ({}),
    codes: (g) => g.table.rules.dice + 1,
    legal(g, code) {
      if (g.over) return over;
      if (code === ROLL) {
        if (g.showing && !chosen(g).length) return `Press the dice to set aside first (at least one: 1-${g.showing.length}), then roll (R).`;
        return null;
      }
      if (!g.showing) return "Roll the dice first (R).";
      if (code > g.showing.length) return `There is no die ${code}: ${plural(g.showing.length, "die", "dice")} showing.`;
      return null;
    },
    judge(g, code) {
      if (code !== ROLL || !g.showing) return null;
      const roll = sorted(g.showing), mine = sorted(chosen(g));
      const list = choiceList(g.table, roll), best = list[0];
      const picked = list.find((c) => c.faces.length === mine.length && c.faces.every((face, i) => face === mine[i]));
      const { denominator } = exactOf(g.table);
      return { choice: `Set aside ${mine.join(" ")}`, value: picked.valueText, best: best.words, bestWords: best.words,
        same: picked === best, bestValue: best.valueText, cost: Number(picked.gives) / Number(denominator),
        position: { dice: diceText(g.table.rules, roll) } };
    },
    apply(g, code) {
      const sides = g.table.rules.sides;
      if (code !== ROLL) {
        g.pressed[code - 1] = !g.pressed[code - 1];
        const faces = sorted(chosen(g));
        return { say: faces.length ? `Set aside ${faces.join(" ")} (${plural(points(g, faces), "point")}), then roll the rest (R).`
          : "Press the dice to set aside (at least one), then roll the rest (R).", row: null };
      }
      let row = null;
      if (g.showing) {
        const roll = sorted(g.showing), faces = sorted(chosen(g));
        row = { text: `Roll ${g.rolls}: ${roll.join(" ")}, set aside ${faces.join(" ")}`, position: { dice: diceText(g.table.rules, roll) },
          attrs: { "data-roll": g.rolls } };
        g.aside.push(...faces);
        g.total += points(g, faces);
        g.left -= faces.length;
        g.showing = null;
      }
      g.pressed = [];
      if (!g.left) {
        g.over = true;
        return { say: "", row };
      }
      g.showing = Array.from({ length: g.left }, () => rollDie(g.draw, sides));
      g.pressed = g.showing.map(() => false);
      g.rolls++;
      return { say: `Roll ${g.rolls}: ${g.showing.join(" ")}. Press the dice to set aside, then roll the rest (R).`, row };
    },
    hint(g) {
      if (!g.showing) return { say: ["Hint: before rolling, ", expected(leftText(g.table, g.left)), " expected points still to come with best play."] };
      const list = choiceList(g.table, sorted(g.showing)), { denominator } = exactOf(g.table);
      return { say: [`Hint: ${list[0].words} (`, expected(list[0].valueText), " expected points still to come, these included)."],
        marks: facesAt(g.showing, list[0].faces).map((i) => ({ node: dieButtons[i], word: "aside" })),
        markWords: `The hint's choice: ${list[0].words}.`,
        choices: list.map((c) => ({ text: c.words, value: c.valueText, shown: expected(c.valueText), cost: Number(c.gives) / Number(denominator),
          costWords: ["gives away ", scoreCost(Number(c.gives) / Number(denominator), c.givesText)], attrs: { "data-move": c.words, "data-gives": c.givesText } })) };
    },
    pick: (g, n) => (g.showing && n <= g.showing.length ? n : null),
    confirm: () => ROLL,
    keys: { r: () => ROLL },
    // after a die pressed by a click, that die; else the Roll button (Enter rolls)
    focus: (g, code) => (g.showing && code ? dieButtons[code - 1] : rollButton),
    over: (g) => g.over,
    started: (g) => g.rolls > 0,
    amount: (value) => [expected(value), " expected points still to come"],
    costText: (cost, short) => (short ? scoreCost(cost) : [scoreCost(cost), " expected points"]),
    summary: (g, cost) => [`Every die is set aside after ${plural(g.rolls, "roll")}: your total is ${g.total}. Optimal play expects `,
      expected(g.start), ` from the start (the ${bestWord(g)} total wins); your choices cost `, scoreCost(cost), " expected points."],
    render(g) {
      dieButtons.forEach((b, i) => {
        const face = g.showing && i < g.showing.length ? g.showing[i] : null, pressed = Boolean(face !== null && g.pressed[i]);
        b.hidden = face === null && Boolean(g.rolls);
        b.dataset.face = face ?? "";
        b.setAttribute("aria-pressed", pressed ? "true" : "false");
        b.setAttribute("aria-disabled", face === null ? "true" : "false");
        // the name holds the visible text ("aside", or the die's key) after the die's number and face
        b.setAttribute("aria-label", face === null ? `die ${i + 1}: not rolled` : `die ${i + 1}: ${face}${pressed ? ", set aside" : ""}`);
        setFace(b.querySelector(".die"), face);
        b.querySelector(".kept").textContent = pressed ? "aside" : String(i + 1);
      });
      asideBox.replaceChildren(...(g.aside.length ? sorted(g.aside).map(dieNode) : [el("span", { class: "hint" }, "none yet")]));
      board.textContent = `Seed ${g.seed}. Dice left to set aside: ${g.left}.`;
      total.textContent = `Total: ${g.total}`;
      total.dataset.total = String(g.total);
      rollButton.firstChild.textContent = g.showing ? `Set aside and roll ${plural(g.showing.length - chosen(g).length, "die", "dice")} ` : "Roll ";
      rollButton.setAttribute("aria-disabled", g.over || (g.showing && !chosen(g).length) ? "true" : "false");
      document.body.dataset[dataKey] = g.over ? "over" : g.showing ? "choose" : "roll";
    },
    snapshot: (g) => ({ left: g.left, showing: g.showing && [...g.showing], pressed: [...g.pressed], aside: [...g.aside],
      total: g.total, rolls: g.rolls, start: g.start, over: g.over }),
  };
}

/** A set-aside game's Play: game { id, title }, table() the rules' table, ctx the page's context,
 * openInCoach({ dice }) asks a roll in Coach. */
export const setAsidePlay = (game, table, ctx, openInCoach) => createPlay(setAsidePart(game, table),
  { params: ctx.params, setParams: ctx.setParams, historyRow: coachRow, openInCoach });
