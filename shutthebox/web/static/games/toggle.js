/* Toggle, the card-flip game of Project Euler 640 (docs/TOGGLE.md, FORMAT.md section 6.5).
 * Coach: the face-up cards and the dice x, y -> the expected further rolls and the card to turn,
 * as `ShutTheBox toggle --expect STATE` and `--move STATE X Y` print them (toggle-table.js).
 * Play (toggle-play.js): a seeded game with hints, the cost of every card turned and a history that
 * opens in Coach. */

import { InvalidQuestion, unlessInvalid, wholeNumber } from "../lib/notation.js";
import { badParam, el, field, seedParam } from "../lib/ui.js";
import { answerBox, linkParam, loadOrShipped, rulesPanel, toggles } from "./ui.js";
import { DEFAULT_RULES, answer, cardValues, cardsOf, checkRules, dieValue, ruleValue, stateText, tableSpec, upCards }
  from "./toggle-table.js";
import { coachAndPlay } from "./modes.js";

export { answer, cardValues, cardsOf, checkRules, choices, tableSpec } from "./toggle-table.js";
export const id = "toggle";
export const title = "Toggle";

/** The rules of the link (`cards`, `sides`), each refused one named with the command line's words and
 * replaced: by the default, or by the most cards the dice can turn when the two do not make a game. */
function linkRules(params) {
  const read = (name, instead) => linkParam(params, name, (t) => ruleValue(name, t), DEFAULT_RULES[name], instead);
  let cards = read("cards", `${DEFAULT_RULES.cards} cards instead`);
  let sides = read("sides", `dice of ${DEFAULT_RULES.sides} sides instead`);
  unlessInvalid(() => checkRules(cards, sides), (why) => {
    if (params.get("cards") !== null) {
      badParam(params, "cards", why, `${2 * sides} cards instead (the most ${sides}-sided dice can turn)`);
      cards = 2 * sides;
    } else {
      badParam(params, "sides", why, `dice of ${DEFAULT_RULES.sides} sides instead`);
      sides = DEFAULT_RULES.sides;
    }
  });
  return { cards, sides };
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  let linkSeed = seedParam(params); // for the first game only
  let linkUp = params.get("up"); // for the first table only
  let linkDice = true; // the link's x and y, checked against the first table's dice

  // -- rules
  const rules = linkRules(params);
  const cardsField = field("Cards", String(rules.cards), { id: "toggle-cards", size: 2 });
  const sidesField = field("Sides of each die", String(rules.sides), { id: "toggle-sides", size: 2 });
  const rulesNote = el("p", { class: "hint", id: "toggle-rules" });
  const tableError = el("div", { class: "error", role: "alert", id: "toggle-error", hidden: true });

  // -- coach
  let cardButtons = toggles("Face-up cards", [], { name: "cards" });
  const cardsBox = el("div", { class: "row" });
  const xField = field("Die x", params.get("x") ?? "3", { id: "toggle-x", size: 2 });
  const yField = field("Die y", params.get("y") ?? "4", { id: "toggle-y", size: 2 });
  const box = answerBox();
  box.root.id = "toggle-answer";
  const coach = el("div", { id: "toggle-coach" },
    el("div", { class: "row" }, el("span", { class: "label", id: "toggle-up-label" }, "Face-up cards"), cardsBox,
      el("button", { type: "button", class: "link", id: "toggle-all", onclick: () => { cardButtons.set(cardsOf(2 ** table.rules.cards - 1)); update(); } }, "all"),
      el("button", { type: "button", class: "link", id: "toggle-none", onclick: () => { cardButtons.set([]); update(); } }, "none")),
    el("p", { class: "hint", id: "toggle-colours" }, "Press a card to turn it face up or face down: face up is wood, still to turn ",
      "down, and face down is green felt, done (the open and shut tiles of Shut the Box). Leave both dice empty for the value alone."),
    el("div", { class: "row" }, xField.root, yField.root),
    xField.error, yField.error, box.root);

  // -- play
  const modes = coachAndPlay(ctx, { id, title, coach, ready: () => table !== null,
    load: () => import("./toggle-play.js").then((m) => m.togglePlay(() => table, ctx, openInCoach)),
    start: () => { const seed = linkSeed; linkSeed = null; return [seed]; } });
  const play = modes.play;

  rulesPanel(section, rulesNote,
    el("div", { class: "row" }, cardsField.root, sidesField.root), cardsField.error, sidesField.error, rulesNote);
  section.append(modes.root, tableError, coach, play.root);

  // -- coach logic
  function readDice() {
    const tx = xField.input.value.trim(), ty = yField.input.value.trim();
    if (tx === "" && ty === "") { xField.show(""); yField.show(""); return [null, null]; }
    const sides = table.rules.sides;
    const die = (f, name) => f.read((t) => {
      const v = wholeNumber(t, name);
      if (v < 1 || v > sides) throw new InvalidQuestion(`${name} shows 1 to ${sides}, not ${v}`);
      return v;
    });
    let x = null, y = null, bad = false;
    try { x = die(xField, "die x"); } catch (e) { bad = true; }
    try { y = die(yField, "die y"); } catch (e) { bad = true; }
    if (bad) throw new InvalidQuestion("fix the dice");
    return [x, y];
  }

  function update() {
    if (!table) return;
    const up = cardButtons.pressed().map(Number);
    const state = stateText(up.reduce((mask, card) => mask + 2 ** (card - 1), 0), table.rules.cards);
    ctx.setParams({ up: state, x: xField.input.value.trim(), y: yField.input.value.trim() });
    let x, y;
    try {
      [x, y] = readDice();
    } catch (e) {
      box.show({ value: null, move: null, error: "No answer until the dice are corrected." }, {});
      return;
    }
    const a = answer(table, { up, x, y });
    box.show(a, { value: `Expected further rolls (face up: ${state})`, move: `Turn card (dice ${x} and ${y})` },
      { score: true, alike: a.move === null ? [] : alike(cardValues(table, { up, x, y })) });
  }

  /** The cards as good as the table's: the same expected rolls after them (the tie rule). */
  const alike = (ranked) => ranked.cards.filter((c) => c.card !== ranked.best && c.value === ranked.value).map((c) => String(c.card));

  /** The link's dice, checked once against the first table's sides: a refused one is named and Coach shows
   * the value alone. */
  function checkLinkDice(sides) {
    linkDice = false;
    for (const name of ["x", "y"]) {
      const text = params.get(name);
      if (text === null || text.trim() === "") continue;
      const ok = unlessInvalid(() => dieValue(text, sides) && true, (why) => {
        badParam(params, name, why, "no dice instead: the value alone");
        return false;
      });
      if (!ok) { xField.input.value = ""; yField.input.value = ""; }
    }
    const beyond = (f, name) => params.get(name) === null && Number(f.input.value) > sides;
    if (beyond(xField, "x") || beyond(yField, "y")) { xField.input.value = ""; yField.input.value = ""; } // the page's 3 and 4
  }
  xField.input.addEventListener("input", update);
  yField.input.addEventListener("input", update);

  /** A roll of the game, asked in Coach: the cards face up before it and its dice (Play keeps the game). */
  function openInCoach(up, x, y) {
    cardButtons.set(cardsOf(up));
    xField.input.value = String(x);
    yField.input.value = String(y);
    modes.show("coach");
    update();
    modes.buttons.play.focus();
  }

  /** The coach's cards for new rules: the link's `up` the first time (a bad one is named), else all. */
  function newCards(rules) {
    let initial = cardsOf(2 ** rules.cards - 1);
    if (linkUp !== null) {
      initial = unlessInvalid(() => upCards(linkUp, rules.cards), (why) => {
        badParam(params, "up", why, "all cards are face up");
        return initial;
      });
      linkUp = null;
    }
    cardButtons = toggles("Face-up cards", cardsOf(2 ** rules.cards - 1).map((c) => [c, String(c), `card ${c}`]),
      { name: "cards", onchange: update });
    cardButtons.root.setAttribute("aria-labelledby", "toggle-up-label");
    cardButtons.root.id = "toggle-cards-up";
    cardButtons.root.classList.add("open-shut"); // wood face up, felt face down (games.css)
    cardButtons.set(initial);
    cardsBox.replaceChildren(cardButtons.root);
  }

  /** The rules' fields back to the table's (a change refused to keep the game). */
  function restoreRules(focus) {
    cardsField.input.value = String(table.rules.cards);
    sidesField.input.value = String(table.rules.sides);
    cardsField.show("");
    sidesField.show("");
    focus.focus();
  }

  /** Read the rules' fields and show their table; a game in progress is discarded only when the player says so. */
  async function loadRules(event) {
    let rules;
    const read = (f, name) => f.read((t) => ruleValue(name, t));
    try {
      const cards = read(cardsField, "cards"), sides = read(sidesField, "sides");
      rules = checkRules(cards, sides);
      cardsField.show("");
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      if (!cardsField.error.textContent && !sidesField.error.textContent) cardsField.show(e.message);
      return;
    }
    const same = table && table.rules.cards === rules.cards && table.rules.sides === rules.sides;
    const may = same || await modes.mayChange("Change the rules");
    if (may === null) return;
    if (!may) { restoreRules(event && event.target instanceof HTMLElement ? event.target : cardsField.input); return; }
    if (!same && table) play.clear(); // the rules of the game in progress are gone (or it was not in progress)
    if (same) tableError.hidden = true; // back to the table shown, after other rules failed to load
    const got = same ? { table } : await loadOrShipped(ctx, tableSpec(rules), tableSpec(DEFAULT_RULES), tableError,
      [coach, play.root], `${DEFAULT_RULES.cards} cards and dice of ${DEFAULT_RULES.sides} sides`);
    if (!got) return;
    const loaded = got.table;
    if (got.shipped) {
      rules = { cards: DEFAULT_RULES.cards, sides: DEFAULT_RULES.sides };
      cardsField.input.value = String(rules.cards);
      sidesField.input.value = String(rules.sides);
    }
    if (loaded !== table) {
      table = loaded;
      newCards(rules);
      if (linkDice) checkLinkDice(rules.sides);
    }
    ctx.setParams({ cards: String(rules.cards), sides: String(rules.sides) });
    rulesNote.textContent = `Cards 1-${rules.cards}, two dice of ${rules.sides} sides: ${table.name}, ` +
      `values within ${table.header.error_bound} of the exact ones.`;
    modes.show();
    update();
    await modes.ready();
  }
  cardsField.input.addEventListener("change", loadRules);
  sidesField.input.addEventListener("change", loadRules);

  /** q = { up, x, y } as for `answer` -> every card the dice allow with its value (cardValues), or { error }. */
  const values = (q) => unlessInvalid(() => cardValues(table, q), (error) => ({ error }));

  /** A history entry (Back, Forward): its mode and Coach's question; the rules stay the table's. */
  function restore() {
    modes.restore();
    const same = table && (params.get("cards") ?? "12") === String(table.rules.cards) && (params.get("sides") ?? "6") === String(table.rules.sides);
    if (!same) return;
    unlessInvalid(() => cardButtons.set(upCards(params.get("up") ?? "all", table.rules.cards)), () => null);
    xField.input.value = params.get("x") ?? "";
    yField.input.value = params.get("y") ?? "";
  }

  return {
    activate: () => loadRules(null),
    restore,
    key: modes.key,
    api: {
      answer: (q) => answer(table, q),
      answers: (qs) => qs.map((q) => { try { return answer(table, q); } catch (e) { return { error: e.message }; } }),
      cardValues: values,
      manyCardValues: (qs) => qs.map(values),
      table: () => table,
      ...modes.api,
    },
  };
}
