/* Full Yahtzee, thirteen turns of five dice with the upper bonus, the Yahtzee bonus and the official
 * jokers (docs/YAHTZEE.md, FORMAT.md section 9). The table stores one value per turn-start state; every
 * mid-turn answer is worked out here from those values, exactly as the command line does
 * (yahtzee-turn.js, a port of turn.py).
 * Coach: a card (open boxes, upper total, what a closed yahtzee box holds), five dice and the rerolls
 * left -> the start-of-turn value, the mid-turn value and every choice with its value and loss, as
 * `ShutTheBox yahtzee --expect CARD`, `--expect CARD DICE REROLLS` and `--options ...` print them.
 * Play (yahtzee-play.js, loaded after Coach's first answer: games/modes.js): a seeded game of 13 turns with hints,
 * each decision's loss and a review. */

import { answerOf, InvalidQuestion, sixDecimals, unlessInvalid } from "../lib/notation.js";
import { el, field, plural } from "../lib/ui.js";
import { score, scoreCost, isOptimal, tieOf } from "../lib/numbers.js";
import { linkParam, radios } from "./ui.js";
import { rollIndex } from "./yazy-rules.js";
import { CATEGORIES, FIFTY, OPEN, REROLLS, ROLLS, STATES, YAHTZEE, cardOf, rulesOf, stateIndex, upperTotal, yahtzeeBox }
  from "./yahtzee-rules.js";
import { optionsOf, turnOf } from "./yahtzee-turn.js";
import { mountDiceGame } from "./dice-coach.js";
import { targetCoach, targetPlay } from "./yahtzee-target-view.js";

export { CATEGORIES };
export const id = "yahtzee";
export const title = "Yahtzee";
export const JOKER = "official"; // the shipped table's rule
const TIE_TEXT = "1e-09"; // the header's `tie`: yahtzee-turn.js's TIE

export function tableSpec() {
  const name = `yahtzee-${JOKER}.msgpack`;
  return {
    url: name,
    options: { name, game: "yahtzee", rules: rulesOf(JOKER), arrays: { turn: ["<f8", [STATES]] },
      fields: (h) => (typeof h.error_bound !== "string" ? "has no error_bound"
        : h.tie !== TIE_TEXT ? `has the tie ${JSON.stringify(h.tie)}, not the page's ${TIE_TEXT}` : null) },
    hint: " Build it with `python build_tables.py --game yahtzee`.",
    // Coach's first question, when the link asks none: its blocks fetched at once
    first: (table) => answer(table, { cats: "all", upper: 0, box: null, dice: "13366", rerolls: 2 }),
  };
}

/** The turn-start state of a question, checked as the command line checks it under the joker rule `joker`:
 * { card, upper, box }. */
export function stateOf(q, joker = JOKER) {
  const card = cardOf(q.cats ?? "all");
  const upper = upperTotal(q.upper, card);
  return { card, upper, box: yahtzeeBox(q.box === "" ? null : q.box, card, joker) };
}

/**
 * q = { cats: bitmask, list of open box names or the command line's text (ones,full-house; all; none; aces,FH,;
 *       1TFC; all -twos,chance: yahtzee-rules.js cardOf),
 *       upper: the upper total as written on the card (default 0), box: what a closed yahtzee box
 *       holds, "50" or "0" (null when yahtzee is open), dice: five digits in any order (null: the start
 *       of a turn), rerolls: 0-2 }
 * -> { start: "%.6f" of the table's value at the start of the turn, value: the expected points still to
 *      come (mid-turn: before choosing), move: the best choice in the command line's words (null at the
 *      start of a turn), options: [{ choice, value, loss, lossFloat }] every legal choice best first, line: the
 *      `--options` line, error: null } or { start: null, value: null, move: null, options: null, line: null, error }.
 */
export function answer(table, q) {
  const none = { start: null, value: null, move: null, options: null, line: null };
  return { ...none, ...answerOf(() => {
    const { card, upper, box } = stateOf(q, table.rules.joker);
    const start = sixDecimals(table.arrays.turn[stateIndex(card, upper, box)]);
    if (q.dice === null || q.dice === undefined) return { ...none, start, value: start, error: null };
    const roll = ROLLS[rollIndex(String(q.dice))];
    if (!Number.isInteger(q.rerolls) || q.rerolls < 0 || q.rerolls > REROLLS) {
      throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${q.rerolls}`);
    }
    if (!card) throw new InvalidQuestion("no box is open: the game is over, there is no turn to play");
    const found = optionsOf(turnOf(table, table.rules.joker, card, upper, box), roll, q.rerolls);
    // optimal: within the table's tie width of the best (the tie rule of every page)
    return { start, value: found.value, move: found.best, line: found.line, error: null,
      options: found.choices.map(({ text, value, loss, lossFloat }) => ({ choice: text, value, loss, lossFloat, optimal: isOptimal(lossFloat, tieOf(table)) })) };
  }) };
}

/** Yahtzee's own fields of Coach: the upper total and what a closed yahtzee box holds, from the link
 * (`upper`, `ybox`) with the command line's refusals. */
function ownFields(params, linkCard, update) {
  const upperField = field("Upper total", linkParam(params, "upper", (t) => String(upperTotal(t, linkCard)), "0", "0 instead"),
    { id: "yahtzee-upper", size: 4, hint: "points scored in ones to sixes so far, as written on the card" });
  const holds = (t) => (yahtzeeBox(t, 0) === FIFTY ? "50" : "0"); // read as for a closed yahtzee box
  const yBox = radios("Yahtzee box holds", "yahtzee-box", [["50", "50"], ["0", "0"]],
    linkParam(params, "ybox", holds, "50", "assuming 50"), update);
  yBox.root.id = "yahtzee-box";
  const boxNote = el("span", { class: "hint", id: "yahtzee-box-note" });
  yBox.root.append(boxNote);
  upperField.input.addEventListener("input", update);
  const open = (card) => Boolean((card >> YAHTZEE) & 1);
  return {
    rows: [el("div", { class: "row" }, upperField.root, yBox.root), upperField.error],
    params: (card) => ({ upper: upperField.input.value.trim() || "0", ybox: open(card) ? null : yBox.value() }),
    read(card) {
      yBox.root.disabled = open(card);
      boxNote.textContent = open(card) ? "open (yahtzee is on the card)" : "";
      const upper = unlessInvalid(() => upperField.read(() => upperTotal(upperField.input.value.trim(), card)), () => null);
      if (upper === null) return { q: {}, problem: "No answer until the upper total is corrected." };
      return { q: { upper, box: open(card) ? null : yBox.value() }, problem: null };
    },
    set(upper, box) {
      upperField.input.value = String(upper);
      if (box !== OPEN) yBox.set(box === FIFTY ? "50" : "0");
    },
    restore(entry) {
      upperField.input.value = entry.get("upper") ?? "0";
      yBox.set(entry.get("ybox") === "0" ? "0" : "50");
    },
  };
}

export function mount(section, ctx) {
  let own = null, target = null, joker = JOKER;
  const startLine = el("p", { class: "answer-start", id: "yahtzee-start", "data-answer": "" });
  const optionRows = el("tbody");
  const options = el("table", { class: "moves yahtzee-options", id: "yahtzee-options", hidden: true },
    el("caption", {}, "Every choice, best first: the expected points to come after it and its cost against the best " +
      "(highlighted: optimal, as good as the best)"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"), el("th", { scope: "col", class: "num" }, "Expected"),
      el("th", { scope: "col", class: "num" }, "Cost"))), optionRows);
  return mountDiceGame(section, ctx, {
    id, title, noun: "boxes", names: CATEGORIES, cardOf, tableSpec, answer,
    own(params, card, update) {
      own = ownFields(params, card, update);
      target = targetCoach(ctx, () => joker, update); // reach a score: `target=`
      own.rows.push(...target.rows);
      return own;
    },
    show(table, q, box) {
      if (!box.root.contains(options)) { box.root.prepend(startLine); box.root.append(options, target.box); }
      joker = table.rules.joker;
      const a = q ? answer(table, q) : { start: null, options: null };
      target.show(q && a.error === null ? { ...stateOf(q, joker), dice: q.dice === null ? null : ROLLS[rollIndex(String(q.dice))],
        rerolls: q.rerolls } : null);
      if (q) {
        box.show(a, { value: q.dice === null ? "Expected points to come, at the start of the turn" : `Expected points to come now (${plural(q.rerolls, "reroll")} left)`,
          move: "Best choice" }, { score: true, alike: (a.options || []).slice(1).filter((o) => o.optimal).map((o) => o.choice) });
      }
      startLine.dataset.answer = a.start ?? "";
      startLine.replaceChildren(...(a.start === null || q.dice === null ? []
        : ["At the start of this turn: ", score(Number(a.start), a.start), " expected points to come"]));
      options.hidden = !a.options;
      optionRows.replaceChildren(...(a.options || []).map((o) => el("tr", { class: o.optimal ? "best" : null, "data-choice": o.choice },
        el("td", {}, o.choice), el("td", { class: "num" }, score(Number(o.value), o.value)),
        el("td", { class: "num" }, scoreCost(o.lossFloat, o.loss)))));
    },
    async play(table, ctx, coach) {
      const { yahtzeePlay } = await import("./yahtzee-play.js");
      const aim = targetPlay(ctx, () => aim.update(play.game())); // `aim=`: the chance to reach a final score
      const play = yahtzeePlay(table, ctx, (card, upper, holds, dice, left) => {
        own.set(upper, holds);
        coach.open(card, dice, left);
      }, (g) => aim.update(g));
      play.root.append(aim.root);
      return play;
    },
  });
}
