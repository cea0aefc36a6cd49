/* The section of a five-dice game, yazy (yazy.js) and Yahtzee (yahtzee.js): Coach's open categories
 * (Yahtzee's boxes), five dice and rerolls left, each read from the link with the command line's
 * refusals; the answer block; the Coach / Play switch, the table, the keys and Back. A game gives its
 * words, its own fields (Yahtzee's upper total and yahtzee box), how it shows an answer, and its Play.
 * The dice can be typed or tapped (tap-dice.js), and the best move is drawn on them: the dice its keep keeps
 * ("keep"), or the box it scores ("best") on the card. */

import { sixDecimals, unlessInvalid } from "../lib/notation.js";
import { score } from "../lib/numbers.js";
import { el, facesAt, field, seedParam } from "../lib/ui.js";
import { answerBox, linkParam, loadTable, radios, toggles } from "./ui.js";
import { categorySet, formatSet, rerollsLeft, rollIndex } from "./yazy-rules.js";
import { tapDice } from "./tap-dice.js";
import { coachAndPlay } from "./modes.js";

/** A box as a player says it, in a text of the command line's words: "three-kind" is "three of a kind",
 * "full-house" "full house" (the command line's own spelling stays in its review text and the tests' hooks). */
export const spoken = (text) => (Array.isArray(text) ? text.map((x) => (typeof x === "string" ? spoken(x) : x)) // words and numbers
  : text.replace(/\b([a-z]+)-kind\b/g, "$1 of a kind").replace(/([a-z])-(?=[a-z])/g, "$1 "));
export const sorted = (dice) => [...dice].sort((a, b) => a - b);
/** Expected points as players read them (lib/numbers.js): a number, or the exact text already computed. */
export const points = (value) => (typeof value === "number" ? score(value, sixDecimals(value)) : score(Number(value), value));

/** The dice (indexes) a move of the command line's words keeps ("keep 3 3 6", "keep none"): the first die
 * showing each face kept; [] for any other move. */
export function keptIndexes(move, dice) {
  const m = /^keep (.*)$/.exec(move ?? "");
  return m && dice ? facesAt(dice, m[1] === "none" ? [] : m[1].split(" ").map(Number)) : [];
}

/** The box a move of the command line's words scores ("score full-house" -> full-house), else null. */
export const scoredBox = (move) => /^score (.+)$/.exec(move ?? "")?.[1] ?? null;

const DICE = "13366"; // Coach's dice when the link gives none

/** Five dice as typed (digits in any order, trimmed; "" the start of a turn); InvalidQuestion otherwise. */
const diceText = (text) => {
  const t = text.trim();
  if (t !== "") rollIndex(t);
  return t;
};

/**
 * Mount the game into `section`. game = { id, title, noun ("categories" or "boxes"), names (the
 * categories, bit c of a set), tableSpec(),
 *   own(params, card, update) -> { rows: elements after the categories, params(card) -> its link
 *     parameters, read(card) -> { q: its part of the question, problem: why there is no answer or null },
 *     restore(params) },
 *   show(table, q, box) shows the answer of q, or (q null) only `box.problem`'s text,
 *   play(table getter, ctx, coach) -> a promise of its Play shell (lib/play.js; its modules imported then:
 *     games/modes.js), coach.open(mask, dice, rerolls) asking a decision in Coach,
 *   api(table getter) -> the game's own test hooks }.
 * -> the controller games.js keeps: { activate, restore, key, api }.
 */
export function mountDiceGame(section, ctx, game) {
  const params = ctx.params, id = game.id;
  const every = `every ${game.noun === "boxes" ? "box" : "category"} open instead`;
  let table = null;
  const seed = seedParam(params);

  // -- coach: the link's question, each refused parameter named with the command line's words
  const names = game.names;
  const readCard = game.cardOf ?? ((t) => categorySet(names, t)); // the game's own card notation, if it has one
  const linkCard = linkParam(params, "cats", readCard, categorySet(names, "all"), every);
  const cats = toggles(`Open ${game.noun}`, names.map((c) => [c, c]), { name: game.noun, onchange: () => update() });
  cats.root.id = `${id}-cats`;
  cats.root.classList.add("open-shut"); // open like an open tile (wood), scored like a shut one (felt): games.css
  cats.root.setAttribute("aria-labelledby", `${id}-cats-label`);
  const setCard = (card) => cats.set(names.filter((_, c) => (card >> c) & 1));
  setCard(linkCard);
  const diceField = field("Five dice", linkParam(params, "dice", diceText, DICE, `${DICE} instead`),
    { id: `${id}-dice`, size: 6, hint: "digits 1-6, any order; empty: the start of a turn" });
  const rerolls = radios("Rerolls left", `${id}-rerolls`, [["2", "2"], ["1", "1"], ["0", "0"]],
    linkParam(params, "rerolls", (t) => String(rerollsLeft(t)), "2", "2 rerolls left instead"), () => update());
  const own = game.own(params, linkCard, () => update());
  let lastDice = DICE; // the dice a tap starts from when the field shows none
  const tapped = tapDice(id, { count: 5, changed: (text) => { diceField.input.value = text; update(); }, fallback: () => lastDice });
  const boxNote = el("span", { id: `${id}-best-box`, class: "visually-hidden" });
  const tableError = el("div", { class: "error", role: "alert", id: `${id}-error`, hidden: true });
  const box = answerBox();
  box.root.id = `${id}-answer`;
  const pick = (card) => () => { setCard(card); update(); };
  const coach = el("div", { id: `${id}-coach` },
    el("div", { class: "row" }, el("span", { class: "label", id: `${id}-cats-label` }, `Open ${game.noun}`), cats.root,
      el("button", { type: "button", class: "link", id: `${id}-all`, onclick: pick(categorySet(names, "all")) }, "all"),
      el("button", { type: "button", class: "link", id: `${id}-none`, onclick: pick(0) }, "none")),
    el("p", { class: "hint", id: `${id}-colours` }, `Press a ${game.noun === "boxes" ? "box" : "category"} to open or close it: `,
      "open is wood, still to score, and closed is green felt, scored (the open and shut tiles of Shut the Box)."),
    ...own.rows,
    tapped.root, el("div", { class: "row" }, diceField.root, rerolls.root), diceField.error, boxNote, box.root);

  // -- play
  const coachApi = {
    /** A decision of the game, asked in Coach (the game is kept: Play shows it again). */
    open(card, dice, left) {
      setCard(card);
      diceField.input.value = dice;
      rerolls.set(left);
      modes.show("coach");
      update();
      diceField.input.focus();
    },
  };
  const modes = coachAndPlay(ctx, { id, title: game.title, coach, load: () => game.play(() => table, ctx, coachApi),
    ready: () => table !== null, start: () => [seed] });
  section.append(modes.root, tableError, coach, modes.play.root);

  function update() {
    if (!table) return;
    const card = categorySet(names, cats.pressed());
    const text = diceField.input.value.trim();
    let dice = null;
    if (text === "") diceField.show("");
    else dice = unlessInvalid(() => diceField.read(diceText), () => null);
    const mine = own.read(card);
    ctx.setParams({ cats: formatSet(names, card), dice: text, rerolls: rerolls.value(), ...own.params(card) });
    const problem = mine.problem || (text !== "" && dice === null ? "No answer until the dice are corrected." : null);
    tapped.show(dice === null ? "" : dice);
    if (dice !== null) lastDice = dice;
    if (problem) {
      box.show({ value: null, move: null, error: problem }, {});
      game.show(table, null, box);
      markBest(null, null);
      return;
    }
    game.show(table, { cats: card, dice, rerolls: Number(rerolls.value()), ...mine.q }, box);
    markBest(box.move.dataset.answer || null, dice);
  }

  /** The best move drawn: the dice its keep keeps, or the box it scores on the card. */
  function markBest(move, dice) {
    tapped.mark(dice ? keptIndexes(move, [...dice].map(Number)) : [], `The best move: ${spoken(move ?? "")}.`);
    const name = scoredBox(move);
    for (const b of cats.buttons) {
      if (b.dataset.value === name) { b.dataset.hint = "best"; b.setAttribute("aria-describedby", boxNote.id); }
      else { delete b.dataset.hint; b.removeAttribute("aria-describedby"); }
    }
    boxNote.textContent = name ? `The best move: ${spoken(move)}.` : "";
  }
  diceField.input.addEventListener("input", update);

  /** A history entry (Back, Forward): its mode and Coach's question. */
  function restore() {
    modes.restore();
    setCard(unlessInvalid(() => readCard(params.get("cats") ?? "all"), () => categorySet(names, "all")));
    diceField.input.value = params.get("dice") ?? DICE;
    rerolls.set(unlessInvalid(() => String(rerollsLeft(params.get("rerolls") ?? "2")), () => "2"));
    own.restore(params);
  }

  async function activate() {
    table = await loadTable(ctx, game.tableSpec(), tableError, [coach, modes.play.root]);
    if (!table) return;
    modes.show();
    update();
    await modes.ready();
  }

  return {
    activate,
    restore,
    key: modes.key,
    api: {
      answer: (q) => game.answer(table, q), answers: (qs) => qs.map((q) => game.answer(table, q)), table: () => table,
      ...modes.api,
      ...game.api?.(() => table),
    },
  };
}
