/* Yahtzee's "reach a score" on the games page: the chance that the points still to come reach X, from the card's
 * target table (yahtzee-target.js; mid-turn, yahtzee-target-turn.js), as `ShutTheBox yahtzee --target X --expect`
 * and `--move` print it. The table is the whole game's when the server has it, else the card's reduced one, solved
 * by `ShutTheBox serve` on first use (about a second; the page asks first, with Solve and Cancel: games.js's
 * ctx.load). A static copy cannot solve: the mode then says it needs `ShutTheBox serve`.
 * Coach: targetCoach (a field, `target=`, and the chance, the best move for it and each choice's cost in chance).
 * Play: targetPlay (a field, `aim=`, and a live line beside the score sheet). */

import { TableError } from "../lib/format.js";
import { InvalidQuestion, sixDecimals, unlessInvalid } from "../lib/notation.js";
import { chance, chanceCost } from "../lib/numbers.js";
import { settle } from "../lib/remote.js";
import { el, field } from "../lib/ui.js";
import { gamesJson } from "../gamelist.js";
import { solveStatus } from "../solve.js";
import { linkParam } from "./ui.js";
import { targetX } from "./yahtzee-rules.js";

// The reading and the turn's solver (6 KB gzipped) load when a target is first asked, not before the page's first
// answer: most visits never ask one.
let reader = null;
const readers = () => (reader ??= Promise.all([import("./yahtzee-target.js"), import("./yahtzee-target-turn.js")])
  .then(([target, turn]) => ({ ...target, ...turn })));

const wholeHere = new Map(); // joker -> a promise: whether the server has the whole game's target table

/** Play's early game: the card needs the whole game's target table, which is not solved (nor asked for). */
class WholeNeeded extends InvalidQuestion {}
// One Solve for a card's reduced table lets the next cards' (a second each) be solved without asking (games.js).
const CARDS = { given: false };

/** The target table answering the state (card, upper, box), loaded through ctx.load (solved on first use). */
async function tableFor(ctx, joker, card, upper, box, { whole: askWhole = true } = {}) {
  const { reducedName, solveCommand, solvesReduced, targetSpec, targetTable, wholeName } = await readers();
  const site = await gamesJson().catch(() => null);
  if (site?.solving === false) {
    throw new InvalidQuestion("Reach a score needs `ShutTheBox serve`: it solves the card's target table on first use, " +
      `and this static copy of the pages cannot (the command line: \`${solveCommand(joker, card, upper, box)}\`).`);
  }
  if (!wholeHere.has(joker)) wholeHere.set(joker, solveStatus(wholeName(joker)).then((s) => s.state === "ready", () => false));
  const here = await wholeHere.get(joker), whole = here || !solvesReduced(joker, card, upper, box);
  if (whole && !here && !askWhole) { // Play: not a 30-minute solve at every move of the early game, unless asked
    throw new WholeNeeded("shown once few boxes are left (the whole game's target table is not solved: " +
      `\`${solveCommand(joker, card, upper, box)}\`, 1.7 GB and about 30 minutes)`);
  }
  const name = whole ? wholeName(joker) : reducedName(joker, card, upper, box);
  const read = await ctx.load({ url: name, options: targetSpec(joker, name), command: solveCommand(joker, card, upper, box),
    consent: whole ? null : CARDS });
  if (whole) wholeHere.set(joker, Promise.resolve(true));
  return settle(() => targetTable(read));
}

/**
 * The chance to reach x more points from the state, and (with dice) every choice: { chance, text (the command
 * line's "%.6f"), move, choices: [{ choice, chance, cost }] best first }, or { error }.
 */
export async function reach(ctx, joker, { card, upper, box, dice, rerolls }, x, options = {}) {
  try {
    const table = await tableFor(ctx, joker, card, upper, box, options);
    const { best, checkedChance, heldState, startChance, targetTurn } = await readers();
    return await settle(() => {
      if (dice === null) {
        const chance = startChance(table, card, upper, box, x);
        return { chance, text: chance.toFixed(6), move: null, choices: [] };
      }
      const held = heldState(table, card, upper, box);
      const listed = targetTurn(table, ...held, x).choices(dice, rerolls);
      const [top, move] = best(listed);
      const chance = checkedChance(top);
      const choices = listed.map(([c, text], i) => ({ choice: text, chance: c, cost: top - c, i }))
        .sort((a, b) => b.chance - a.chance || a.i - b.i);
      return { chance, text: chance.toFixed(6), move, choices };
    });
  } catch (error) {
    if (error instanceof TableError || error instanceof InvalidQuestion) return { error: error.message, whole: error instanceof WholeNeeded };
    throw error;
  }
}

/** A target field (`param` in the link; empty: off) with the command line's refusals. -> { root, error, x() } */
function targetField(params, param, label, hint, update) {
  const f = field(label, linkParam(params, param, (t) => String(targetX(t)), "", "no target instead"),
    { id: `yahtzee-${param}`, size: 5, hint });
  f.input.addEventListener("input", update);
  return { ...f, x: () => {
    const text = f.input.value.trim();
    if (text === "") { f.show(""); return null; }
    return unlessInvalid(() => f.read(targetX), () => undefined);
  } };
}

/** Coach's part: the field, and the answer for the question shown. -> { rows, show(q, state), param() } */
export function targetCoach(ctx, joker, update) {
  const f = targetField(ctx.params, "target", "Points to reach", "optional: the chance to score at least this many more", update);
  const line = el("p", { class: "answer-value", id: "yahtzee-target-chance", "data-answer": "" });
  const move = el("p", { class: "answer-move", id: "yahtzee-target-move", "data-answer": "" });
  const rows = el("tbody");
  const choices = el("table", { class: "moves", id: "yahtzee-target-options", hidden: true },
    el("caption", {}, "Every choice for this target, best first: its chance to reach it and its cost in chance"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"), el("th", { scope: "col", class: "num" }, "Chance"),
      el("th", { scope: "col", class: "num" }, "Cost"))), rows);
  const box = el("div", { class: "answer", id: "yahtzee-target", "aria-live": "polite", hidden: true }, line, move, choices);
  let asked = 0;
  async function show(state) {
    const x = f.x(), mine = ++asked;
    ctx.setParams({ target: f.input.value.trim() || null });
    box.hidden = x === null;
    if (x === null || x === undefined || state === null) {
      line.textContent = x === undefined ? "No chance until the points to reach are corrected." : "";
      line.dataset.answer = move.dataset.answer = "";
      move.textContent = "";
      choices.hidden = true;
      return;
    }
    line.textContent = `Working out the chance to reach ${x} more points…`;
    const a = await reach(ctx, joker(), state, x);
    if (mine !== asked) return; // a later question is shown
    line.dataset.answer = a.text ?? "";
    line.replaceChildren(...(a.error ? [a.error] : [`Chance to reach ${x} more points: `, chance(a.chance, a.text)]));
    move.dataset.answer = a.move ?? "";
    move.textContent = a.move ? `Best choice for it: ${a.move}` : "";
    choices.hidden = !a.choices?.length;
    rows.replaceChildren(...(a.choices || []).map((c) => el("tr", { "data-choice": c.choice, class: c.choice === a.move ? "best" : null },
      el("td", {}, c.choice), el("td", { class: "num", "data-chance": sixDecimals(c.chance) }, chance(c.chance, sixDecimals(c.chance))),
      el("td", { class: "num" }, chanceCost(c.cost, { terse: true, exact: sixDecimals(c.cost) })))));
  }
  return { rows: [f.root, f.error], box, show };
}

/** Play's part: the field (`aim=`, a final score) and the live line; in the early game, where the card needs the
 * whole game's target table and the server has not solved it, a button that asks for it (the solve question says
 * what it costs, with Cancel). -> { root, update(g) } after each move. */
export function targetPlay(ctx, update) {
  const f = targetField(ctx.params, "aim", "Aim for a final score of", "optional: the chance to reach it, after each move", () => {
    ctx.setParams({ aim: f.input.value.trim() || null });
    update();
  });
  const line = el("p", { class: "sheet-sum", id: "yahtzee-aim-chance", "data-answer": "", "aria-live": "polite" });
  let asked = 0, shown = null;
  const solveWhole = el("button", { type: "button", id: "yahtzee-aim-solve", hidden: true, onclick: async () => {
    const { joker, state, x } = shown;
    solveWhole.hidden = true;
    const a = await reach(ctx, joker, state, x);
    if (a.error) { // cancelled or refused: said, and the button stays to ask again
      line.textContent = `Chance to reach ${f.x()}: ${a.error}`;
      solveWhole.hidden = false;
    } else update(); // the line of the game as it is now
  } }, "Solve the whole game's table");
  return {
    root: el("div", { id: "yahtzee-aim-part" }, f.root, f.error, line, solveWhole),
    async update(g) {
      const aim = f.x(), mine = ++asked;
      solveWhole.hidden = true;
      if (!g || aim === null || aim === undefined) { line.textContent = line.dataset.answer = ""; return; }
      const x = Math.max(aim - g.total, 0);
      const state = { card: g.card, upper: g.upper, box: g.box, dice: null, rerolls: 0 };
      const a = !g.card ? { chance: g.total >= aim ? 1 : 0, text: (g.total >= aim ? 1 : 0).toFixed(6) }
        : await reach(ctx, g.joker, state, x, { whole: false });
      if (mine !== asked) return;
      shown = { joker: g.joker, state, x };
      solveWhole.hidden = !a.whole;
      line.dataset.answer = a.text ?? "";
      line.dataset.x = String(x);
      line.replaceChildren(...(a.error ? [`Chance to reach ${aim}: ${a.error}`]
        : [`Chance to reach ${aim}: `, chance(a.chance, a.text), ` (${x} more points)`]));
    },
  };
}
