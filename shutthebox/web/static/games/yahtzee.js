/* Full Yahtzee, thirteen turns of five dice with the upper bonus, the Yahtzee bonus and the official
 * jokers (docs/YAHTZEE.md, FORMAT.md section 9). The table stores one value per turn-start state; every
 * mid-turn answer is worked out here from those values, exactly as the command line does
 * (yahtzee-turn.js, a port of turn.py).
 * Coach: a card (open boxes, upper total, what a closed yahtzee box holds), five dice and the rerolls
 * left -> the start-of-turn value, the mid-turn value and every choice with its value and loss, as
 * `ShutTheBox yahtzee --expect CARD`, `--expect CARD DICE REROLLS` and `--options ...` print them.
 * Play (yahtzee-play.js): a seeded game of 13 turns with hints, each decision's loss and a review. */

import { answerOf, InvalidQuestion, sixDecimals, unlessInvalid } from "../lib/notation.js";
import { badParam, choiceParam, el, field, plural, seedParam } from "../lib/ui.js";
import { answerBox, loadTable, modeSwitch, radios, toggles } from "./ui.js";
import { rollIndex } from "./yazy.js";
import { ALL, CATEGORIES, FIFTY, OPEN, REROLLS, ROLLS, STATES, YAHTZEE, cardOf, formatCard, openBoxes, rulesOf, stateIndex,
  upperTotal, yahtzeeBox } from "./yahtzee-rules.js";
import { optionsOf, turnOf } from "./yahtzee-turn.js";
import { YahtzeePlay } from "./yahtzee-play.js";

export { CATEGORIES };
export const id = "yahtzee";
export const title = "Yahtzee";
export const JOKER = "official"; // the shipped table's rule
const MODES = ["coach", "play"];
const TIE_TEXT = "1e-09"; // the header's `tie`: yahtzee-turn.js's TIE

export function tableSpec() {
  const name = `yahtzee-${JOKER}.msgpack`;
  return {
    url: name,
    options: { name, game: "yahtzee", rules: rulesOf(JOKER), arrays: { turn: ["<f8", [STATES]] },
      fields: (h) => (typeof h.error_bound !== "string" ? "has no error_bound"
        : h.tie !== TIE_TEXT ? `has the tie ${JSON.stringify(h.tie)}, not the page's ${TIE_TEXT}` : null) },
    hint: " Build it with `python build_tables.py --game yahtzee`.",
  };
}

/** The turn-start state of a question, checked as the command line checks it: { card, upper, box }. */
export function stateOf(q) {
  const card = cardOf(q.cats ?? "all");
  const upper = upperTotal(q.upper, card);
  return { card, upper, box: yahtzeeBox(q.box === "" ? null : q.box, card) };
}

/**
 * q = { cats: bitmask, list of open box names or the command line's text (ones,full-house; all; none),
 *       upper: the upper total as written on the card (default 0), box: what a closed yahtzee box
 *       holds, "50" or "0" (null when yahtzee is open), dice: five digits in any order (null: the start
 *       of a turn), rerolls: 0-2 }
 * -> { start: "%.6f" of the table's value at the start of the turn, value: the expected points still to
 *      come (mid-turn: before choosing), move: the best choice in the command line's words (null at the
 *      start of a turn), options: [{ choice, value, loss }] every legal choice best first, line: the
 *      `--options` line, error: null } or { start: null, value: null, move: null, options: null, line: null, error }.
 */
export function answer(table, q) {
  const none = { start: null, value: null, move: null, options: null, line: null };
  return { ...none, ...answerOf(() => {
    const { card, upper, box } = stateOf(q);
    const start = sixDecimals(table.arrays.turn[stateIndex(card, upper, box)]);
    if (q.dice === null || q.dice === undefined) return { ...none, start, value: start, error: null };
    const roll = ROLLS[rollIndex(String(q.dice))];
    if (!Number.isInteger(q.rerolls) || q.rerolls < 0 || q.rerolls > REROLLS) {
      throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${q.rerolls}`);
    }
    if (!card) throw new InvalidQuestion("no box is open: the game is over, there is no turn to play");
    const found = optionsOf(turnOf(table, table.rules.joker, card, upper, box), roll, q.rerolls);
    return { start, value: found.value, move: found.best, line: found.line, error: null,
      options: found.choices.map(({ text, value, loss }) => ({ choice: text, value, loss })) };
  }) };
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  let mode = choiceParam(params, "mode", MODES, "coach", "showing Coach");
  const seed = seedParam(params);

  // -- coach
  const cats = toggles("Open boxes", CATEGORIES.map((c) => [c, c]), { name: "boxes", onchange: () => update() });
  cats.root.id = "yahtzee-cats";
  cats.root.setAttribute("aria-labelledby", "yahtzee-cats-label");
  const given = unlessInvalid(() => cardOf(params.get("cats") ?? "all"),
    (why) => { badParam(params, "cats", why, "showing every box open"); return ALL; });
  cats.set(openBoxes(given).map((c) => CATEGORIES[c]));
  const upperField = field("Upper total", params.get("upper") ?? "0", { id: "yahtzee-upper", size: 4,
    hint: "points scored in ones to sixes so far, as written on the card" });
  const yBox = radios("Yahtzee box holds", "yahtzee-box", [["50", "50"], ["0", "0"]],
    choiceParam(params, "ybox", ["50", "0"], "50", "assuming 50"), () => update());
  yBox.root.id = "yahtzee-box";
  const boxNote = el("span", { class: "hint", id: "yahtzee-box-note" });
  yBox.root.append(boxNote);
  const diceField = field("Five dice", params.get("dice") ?? "13366", { id: "yahtzee-dice", size: 6, hint: "digits 1-6, any order; empty: the start of a turn" });
  const rerolls = radios("Rerolls left", "yahtzee-rerolls", [["2", "2"], ["1", "1"], ["0", "0"]],
    choiceParam(params, "rerolls", ["2", "1", "0"], "2", "assuming 2"), () => update());
  const tableError = el("div", { class: "error", role: "alert", id: "yahtzee-error", hidden: true });
  const box = answerBox();
  box.root.id = "yahtzee-answer";
  const startLine = el("p", { class: "answer-start", id: "yahtzee-start", "data-answer": "" });
  box.root.prepend(startLine);
  const optionRows = el("tbody");
  const options = el("table", { class: "moves yahtzee-options", id: "yahtzee-options", hidden: true },
    el("caption", {}, "Every choice, best first: the expected points to come after it and its loss against the best"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"), el("th", { scope: "col", class: "num" }, "Expected"),
      el("th", { scope: "col", class: "num" }, "Loss"))), optionRows);
  box.root.append(options);
  const coach = el("div", { id: "yahtzee-coach" },
    el("div", { class: "row" }, el("span", { class: "label", id: "yahtzee-cats-label" }, "Open boxes"), cats.root,
      el("button", { type: "button", class: "link", id: "yahtzee-all", onclick: () => { cats.set(CATEGORIES); update(); } }, "all"),
      el("button", { type: "button", class: "link", id: "yahtzee-none", onclick: () => { cats.set([]); update(); } }, "none")),
    el("div", { class: "row" }, upperField.root, yBox.root), upperField.error,
    el("div", { class: "row" }, diceField.root, rerolls.root), diceField.error, box.root);

  // -- play
  const play = new YahtzeePlay(() => table, ctx, openInCoach);
  const modes = modeSwitch("yahtzee", "Yahtzee", (m) => setMode(m), ctx);
  section.append(modes.root, tableError, coach, play.root);

  const problem = (text) => {
    box.show({ value: null, move: null, error: text }, {});
    startLine.textContent = "";
    startLine.dataset.answer = "";
    options.hidden = true;
  };

  function update() {
    if (!table) return;
    const open = cats.pressed();
    const card = cardOf(open);
    const yahtzeeOpen = Boolean((card >> YAHTZEE) & 1);
    yBox.root.disabled = yahtzeeOpen;
    boxNote.textContent = yahtzeeOpen ? "open (yahtzee is on the card)" : "";
    const upperText = upperField.input.value.trim();
    const upper = unlessInvalid(() => upperField.read(() => upperTotal(upperText, card)), () => null);
    const text = diceField.input.value.trim();
    let dice = null;
    if (text === "") diceField.show("");
    else dice = unlessInvalid(() => diceField.read((t) => { rollIndex(t.trim()); return t.trim(); }), () => null);
    ctx.setParams({ cats: formatCard(card), upper: upperText || "0", ybox: yahtzeeOpen ? null : yBox.value(), dice: text,
      rerolls: rerolls.value() });
    if (upper === null) { problem("No answer until the upper total is corrected."); return; }
    if (text !== "" && dice === null) { problem("No answer until the dice are corrected."); return; }
    const q = { cats: card, upper, box: yahtzeeOpen ? null : yBox.value(), dice, rerolls: Number(rerolls.value()) };
    const a = answer(table, q);
    box.show(a, { value: dice === null ? "Expected points to come, at the start of the turn" : `Expected points to come now (${plural(q.rerolls, "reroll")} left)`,
      move: "Best choice" });
    startLine.dataset.answer = a.start ?? "";
    startLine.textContent = a.start === null || dice === null ? "" : `At the start of this turn: ${a.start} expected points to come`;
    options.hidden = !a.options;
    optionRows.replaceChildren(...(a.options || []).map((o, i) => el("tr", { class: i ? null : "best", "data-choice": o.choice },
      el("td", {}, o.choice), el("td", { class: "num" }, o.value), el("td", { class: "num" }, o.loss))));
  }
  diceField.input.addEventListener("input", update);
  upperField.input.addEventListener("input", update);

  /** A decision of the game, asked in Coach (the game is kept: Play shows it again). */
  function openInCoach(card, upper, holds, dice, left) {
    cats.set(openBoxes(card).map((c) => CATEGORIES[c]));
    upperField.input.value = String(upper);
    if (holds !== OPEN) yBox.set(holds === FIFTY ? "50" : "0");
    diceField.input.value = dice;
    rerolls.set(left);
    setMode("coach");
    update();
    diceField.input.focus();
  }

  function setMode(m) {
    mode = m;
    modes.set(m, { coach, play: play.root });
    if (m === "play" && table && !play.state) play.start(seed);
  }

  function key(event) {
    if (mode === "play" && table && play.state) play.key(event);
  }

  async function activate() {
    table = await loadTable(ctx, tableSpec(), tableError, [coach, play.root]);
    if (!table) return;
    setMode(mode);
    update();
    ctx.ready();
  }

  return {
    activate,
    key,
    api: {
      answer: (q) => answer(table, q), answers: (qs) => qs.map((q) => answer(table, q)), table: () => table,
      play: { state: () => play.snapshot(), start: (s) => play.start(s ?? null) },
      mode: (m) => setMode(m),
    },
  };
}
