/* The set-aside dice family on the games page (FORMAT.md section 13; Threes: docs/THREES.md), for every game
 * declared on it: the game (its id, title and rules) is games.json's entry, `ctx.game`; nothing here names one.
 * Rules: --dice and --sides, as the command line's (a table not shipped is solved by the server on first use,
 * after the solve question: games.js, solve.js).
 * Coach: the dice showing -> what `ShutTheBox GAME --expect [DICE]`, `--move DICE` and `--options DICE` print,
 * refused in the command's words (setaside-table.js), and any question in the command line's words
 * (setaside-command.js, which web/answer.mjs runs too).
 * Play (setaside-play.js, loaded after Coach's first answer: games/modes.js): a seeded game with the table's hint and the cost of every choice. */

import { TableError } from "../lib/format.js";
import { InvalidQuestion, unlessInvalid } from "../lib/notation.js";
import { score, scoreCost } from "../lib/numbers.js";
import { badParam, el, facesAt, field, seedParam } from "../lib/ui.js";
import { answerBox, linkParam, loadOrShipped, rulesPanel } from "../games/ui.js";
import { tapDice } from "../games/tap-dice.js";
import { answer, checkTable, describeRules, diceText, exampleDice, optionValue, optionWords, parseDice, row, tableSpec } from "./setaside-table.js";
import { answerLine } from "./setaside-command.js";
import { coachAndPlay } from "../games/modes.js";

export { answer, tableSpec } from "./setaside-table.js";
export const family = "setaside";

/** The game of games.json's entry: { id, title, dice, sides, points (faces 1 to 12), best }; a TableError when the
 * entry holds no rules of this family. */
export function gameOf(entry) {
  const f = entry?.family;
  const whole = (n) => Number.isInteger(n);
  if (!f || f.name !== family || !whole(f.dice) || !whole(f.sides) || !Array.isArray(f.points) || !f.points.every(whole) ||
      f.points.length < f.sides || !["lowest", "highest"].includes(f.best)) {
    throw new TableError(`The list of games (games.json) gives no set-aside rules for ${entry?.id}: serve this page with ` +
      "`ShutTheBox serve`, which writes it from the game registry.");
  }
  return { id: entry.id, title: entry.title, dice: f.dice, sides: f.sides, points: f.points, best: f.best };
}

/** The rules of the link (`dice`, `sides`), each refused one named with the command line's words and replaced by the game's. */
function linkRules(params, game) {
  const dice = linkParam(params, "dice", (t) => optionValue("dice", t), game.dice, `${game.dice} dice instead`);
  const sides = linkParam(params, "sides", (t) => optionValue("sides", t), game.sides, `dice of ${game.sides} sides instead`);
  return { dice, sides };
}

export function mount(section, ctx) {
  const game = gameOf(ctx.game), id = game.id, params = ctx.params;
  let table = null;
  let linkSeed = seedParam(params); // for the first game only
  let linkRoll = params.get("showing"); // checked against the first table

  // -- rules: the command line's --dice and --sides
  const linked = linkRules(params, game);
  const diceField = field("Dice", String(linked.dice), { id: `${id}-dice`, size: 2 });
  const sidesField = field("Sides of each die", String(linked.sides), { id: `${id}-sides`, size: 2 });
  const rulesNote = el("p", { class: "hint", id: `${id}-rules` });
  const tableError = el("div", { class: "error", role: "alert", id: `${id}-error`, hidden: true });

  // -- coach: the dice showing, answered as the command line answers them
  const rollField = field("Dice showing", linkRoll ?? exampleDice(linked), { id: `${id}-showing`, size: 12, numeric: false,
    hint: "as the command line takes them: digits in any order (13356), or numbers with commas (1,12,3); empty: the start of the game" });
  const faces = el("div", { class: "chips", id: `${id}-faces`, role: "group", "aria-labelledby": `${id}-faces-label` });
  const clear = el("button", { type: "button", class: "link", id: `${id}-clear`, onclick: () => { rollField.input.value = ""; update(); } }, "Clear");
  const tapped = tapDice(id, { sides: linked.sides, read: (text) => inOrder(text),
    changed: (text) => { rollField.input.value = text; update(); }, write: (faces) => diceText(table.rules, faces) });
  const box = answerBox();
  box.root.id = `${id}-answer`;
  const choicesTable = el("table", { class: "yahtzee-options", id: `${id}-options`, "data-line": "" });
  box.root.append(choicesTable);
  const commandLine = el("p", { class: "hint", id: `${id}-command` });
  const askField = field("A question in the command line's words", "", { id: `${id}-ask`, size: 24, numeric: false,
    hint: "for example --options 36 (the words after ShutTheBox " + id + ")" });
  const said = el("p", { class: "answer-value", id: `${id}-said`, "data-answer": "", "aria-live": "polite" });
  const coach = el("div", { id: `${id}-coach` },
    el("p", { class: "hint" }, `After each roll set aside at least one die for good and roll the rest, until every die is set aside; ` +
      `the ${game.best} total wins. The expected totals are the points still to come, the dice set aside now included.`),
    tapped.root, el("div", { class: "row" }, rollField.root, clear), rollField.error,
    el("div", { class: "row" }, el("span", { class: "label", id: `${id}-faces-label` }, "Add a die showing"), faces), box.root, commandLine,
    el("div", { class: "row" }, askField.root), said);

  // -- play
  const modes = coachAndPlay(ctx, { id, title: game.title, coach, ready: () => table !== null,
    load: () => import("./setaside-play.js").then((m) => m.setAsidePlay(game, () => table, ctx, openInCoach)),
    start: () => { const seed = linkSeed; linkSeed = null; return [seed]; } });
  const play = modes.play;
  rulesPanel(section, rulesNote, el("div", { class: "row" }, diceField.root, sidesField.root), diceField.error,
    sidesField.error, rulesNote);
  section.append(modes.root, tableError, coach, play.root);

  /** The buttons that add a die (faces 1 to `sides`) to the dice showing. */
  function faceButtons(sides) {
    faces.replaceChildren(...Array.from({ length: sides }, (_, i) => el("button", { type: "button", class: "choice chip",
      "data-face": i + 1, title: `Add a die showing ${i + 1}`, onclick: () => addDie(i + 1) }, String(i + 1))));
  }

  function addDie(face) {
    const text = rollField.input.value.trim();
    rollField.input.value = text + (text && table.rules.sides > 9 ? "," : "") + face;
    update();
  }

  /** The dice of `text` in the order typed (the taps step them in place), or null when the table's rules refuse them. */
  function inOrder(text) {
    return unlessInvalid(() => {
      parseDice(table.rules, text);
      return (/[ ,]/.test(text) ? text.replace(/,/g, " ").split(" ").filter(Boolean) : [...text]).map(Number);
    }, () => null);
  }

  /** Coach's answer: the command line's lines for the dice showing (none: the start of the game). */
  function update() {
    if (!table) return;
    const text = rollField.input.value.trim();
    ctx.setParams({ showing: text === "" ? null : text });
    const a = answer(table, { dice: text === "" ? null : text });
    if (a.error) rollField.input.setAttribute("aria-invalid", "true");
    else rollField.input.removeAttribute("aria-invalid");
    const alike = a.choices.filter((c, n) => n && c.value === a.choices[0].value).map((c) => c.words);
    const shown = (a.error ? null : inOrder(text)) ?? [];
    tapped.show(shown.length ? text : "");
    tapped.mark(a.choices.length ? facesAt(shown, a.choices[0].faces) : [], `The best choice: ${a.move}.`, "aside");
    box.show(a, { value: text === "" ? "Expected total of the game, from the start" : `Expected total still to come with ${text} showing`,
      move: "Best choice" }, { score: true, alike });
    choicesTable.dataset.line = a.line;
    choicesTable.replaceChildren(...(a.choices.length ? [
      el("caption", {}, "Each choice: the expected total still to come (the dice set aside now included), and what it gives away against the best"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"), el("th", { scope: "col" }, "Expected total"),
        el("th", { scope: "col" }, "Gives away"))),
      el("tbody", {}, ...a.choices.map((c, n) => el("tr", { class: n ? null : "best", "data-move": c.words, "data-value": c.valueText,
        "data-gives": c.givesText }, el("th", { scope: "row" }, c.words + (n ? "" : " (best)")), el("td", {}, score(Number(c.valueText), c.valueText)),
      el("td", {}, scoreCost(c.givesAmount, c.givesText)))))] : []));
    const options = optionWords(game, table.rules);
    commandLine.replaceChildren("The command line asks it as ",
      el("code", {}, text === "" ? `ShutTheBox ${id}${options} --expect` : `ShutTheBox ${id}${options} --options ${text}`),
      text === "" ? "." : " (and --expect, --move).");
  }
  rollField.input.addEventListener("input", update);

  function ask() {
    if (!table) return;
    const line = askField.input.value;
    const text = answerLine(table, line);
    said.dataset.answer = text;
    said.textContent = text;
  }
  askField.input.addEventListener("input", ask);

  /** A roll of the game, asked in Coach (Play keeps the game). */
  function openInCoach({ dice }) {
    rollField.input.value = dice;
    modes.show("coach");
    update();
    modes.buttons.play.focus();
  }

  /** The link's roll, checked once against the first table: a refused one is named and Coach shows the example roll. */
  function checkLinkRoll(rules) {
    if (linkRoll === null || linkRoll.trim() === "") { linkRoll = null; return; }
    unlessInvalid(() => parseDice(rules, linkRoll.trim()), (why) => {
      badParam(params, "showing", why, `${exampleDice(rules)} instead`);
      rollField.input.value = exampleDice(rules);
    });
    linkRoll = null;
  }

  /** The rules' fields back to the table's (a change refused to keep the game). */
  function restoreRules(focus) {
    diceField.input.value = String(table.rules.dice);
    sidesField.input.value = String(table.rules.sides);
    diceField.show("");
    sidesField.show("");
    focus.focus();
  }

  /** Read the rules' fields and show their table (solved first when not shipped); a game in progress is
   * discarded only when the player says so. */
  async function loadRules(event) {
    let rules;
    try {
      rules = { dice: diceField.read((t) => optionValue("dice", t.trim())), sides: sidesField.read((t) => optionValue("sides", t.trim())) };
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      return;
    }
    const same = table && table.rules.dice === rules.dice && table.rules.sides === rules.sides;
    const may = same || await modes.mayChange("Change the rules");
    if (may === null) return;
    if (!may) { restoreRules(event && event.target instanceof HTMLElement ? event.target : diceField.input); return; }
    if (!same && table) play.clear();
    if (same) tableError.hidden = true; // back to the table shown, after other rules failed to load
    const defaults = { dice: game.dice, sides: game.sides }; // the table shipped with the game
    const got = same ? { table } : await loadOrShipped(ctx, spec(rules), spec(defaults), tableError, [coach, play.root],
      describeRules(game, defaults));
    if (!got) return;
    if (got.shipped) rules = defaults;
    try {
      checkTable(got.table); // exact values that are not the table's floats: the file is refused, never read
    } catch (error) {
      if (!(error instanceof TableError)) throw error;
      tableError.textContent = error.message;
      tableError.className = "error";
      tableError.hidden = false;
      coach.hidden = play.root.hidden = true;
      ctx.failed(error);
      return;
    }
    if (got.table !== table) {
      const before = table && exampleDice(table.rules);
      table = got.table;
      diceField.input.value = String(rules.dice);
      sidesField.input.value = String(rules.sides);
      faceButtons(rules.sides);
      tapped.setSides(rules.sides);
      if (before !== null && rollField.input.value.trim() === before) rollField.input.value = exampleDice(rules);
      checkLinkRoll(rules);
    }
    ctx.setParams({ dice: String(rules.dice), sides: String(rules.sides) });
    rulesNote.textContent = `${describeRules(game, rules)}: ${table.name}. Among choices of exactly equal value the move sets ` +
      `aside ${table.header.tie.replace(/^more dice set aside/, "more dice")}.`;
    modes.show();
    update();
    ask();
    await modes.ready();
  }
  diceField.input.addEventListener("change", loadRules);
  sidesField.input.addEventListener("change", loadRules);

  /** What games.js reads: the file, and Coach's first question (its blocks fetched at once). */
  function spec(rules) {
    const wanted = tableSpec(game, rules);
    const first = parseDice(rules, exampleDice(rules));
    return { ...wanted, first: (t) => [t.arrays.expect[rules.dice], t.arrays.move[row(rules.sides, first)]] };
  }

  /** A history entry (Back, Forward): its mode and Coach's question; the rules stay the table's. */
  function restore() {
    modes.restore();
    const same = table && (params.get("dice") ?? String(game.dice)) === String(table.rules.dice) &&
      (params.get("sides") ?? String(game.sides)) === String(table.rules.sides);
    if (same) rollField.input.value = params.get("showing") ?? "";
  }

  const askLine = (line) => answerLine(table, line);
  return {
    activate: () => loadRules(null),
    restore,
    key: modes.key,
    api: {
      answer: (q) => answer(table, q),
      /** A question in the command line's words (`--options 36`): the line the command prints, or "error: ...". */
      ask: askLine,
      asks: (lines) => lines.map(askLine),
      table: () => table,
      rules: () => table && { ...table.rules },
      ...modes.api,
    },
  };
}
