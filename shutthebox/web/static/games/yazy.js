/* yazy, eleven turns of five dice (docs/YAZY.md, FORMAT.md section 6.6).
 * Coach: the open categories, five dice and the rerolls left -> the expected score to come and the
 * best move, as `ShutTheBox yazy --expect CATS DICE REROLLS` and `--move ...` print them.
 * Play (yazy-play.js): a seeded game with hints and the cost of every choice (yazy-choices.js). */

import { answerOf, InvalidQuestion, shorten, sixDecimals, unlessInvalid } from "../lib/notation.js";
import { choiceParam, el, field, plural, seedParam } from "../lib/ui.js";
import { answerBox, loadTable, modeSwitch, radios, toggles } from "./ui.js";
import { ALL, CATEGORIES, NO_MOVE, REROLLS, ROLLS, describeMove, openCategories, rankOf } from "./yazy-rules.js";
import { choiceValue, choices } from "./yazy-choices.js";
import { YazyPlay } from "./yazy-play.js";

export { CATEGORIES, ROLLS, describeMove };
export const id = "yazy";
export const title = "Yazy";
const RULES = { categories: CATEGORIES, dice: 5, sides: 6, rerolls: REROLLS };
const MODES = ["coach", "play"];

export function tableSpec() {
  const name = "yazy.msgpack";
  return {
    url: name,
    options: { name, game: "yazy", rules: RULES,
      arrays: { turn: ["<f8", [ALL + 1]], expect: ["<f8", [ALL + 1, 3, 252]], move: ["|u1", [ALL + 1, 3, 252]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    hint: " Build it with `python build_tables.py --game yazy`.",
  };
}

/** The rank of five dice written as digits in any order; InvalidQuestion in the command line's words. */
export function rollIndex(dice) {
  const index = rankOf(dice);
  if (index !== undefined) return index;
  const text = `'${shorten(dice)}'`;
  if (!/^[0-9]+$/.test(dice)) throw new InvalidQuestion(`dice ${text}: write the five dice as digits 1 to 6, such as 13366`);
  if (dice.length !== 5) throw new InvalidQuestion(`dice ${text}: there are five dice, not ${dice.length}`);
  throw new InvalidQuestion(`dice ${text}: a die shows 1 to 6, not ${[...dice].find((d) => !"123456".includes(d))}`);
}

function categoriesMask(cats) {
  if (Number.isInteger(cats) && cats >= 0 && cats <= ALL) return cats;
  if (!Array.isArray(cats)) throw new InvalidQuestion("categories must be a list of names such as ones, yazy");
  let mask = 0;
  for (const name of cats) {
    const bit = CATEGORIES.indexOf(name);
    if (bit < 0) throw new InvalidQuestion(`unknown category '${shorten(String(name))}' (the categories are ${CATEGORIES.join(", ")}; or all, none)`);
    if (mask & (1 << bit)) throw new InvalidQuestion(`category ${name} is listed twice`);
    mask |= 1 << bit;
  }
  return mask;
}

/**
 * q = { cats: bitmask or list of open category names, dice: five digits in any order (null: the start
 *       of a turn), rerolls: 0-2 }
 * -> { value: "%.6f" of the maximum expected sum of the scores still to come, move: the best move in
 *      the command line's words (null at the start of a turn), error: null } or { value: null, move: null, error }.
 */
export function answer(table, q) {
  return answerOf(() => {
    const mask = categoriesMask(q.cats);
    if (q.dice === null || q.dice === undefined) return { value: sixDecimals(table.arrays.turn[mask]), move: null, error: null };
    const roll = rollIndex(String(q.dice));
    if (!Number.isInteger(q.rerolls) || q.rerolls < 0 || q.rerolls > REROLLS) {
      throw new InvalidQuestion(`rerolls left must be 0, 1 or 2, not ${q.rerolls}`);
    }
    if (!mask) throw new InvalidQuestion("no category is open: the game is over, there is no turn to play");
    const index = (mask * 3 + q.rerolls) * 252 + roll;
    const code = table.arrays.move[index];
    if (code === NO_MOVE) throw new InvalidQuestion(`the table ${table.name} has no move for a turn with categories open; rebuild it`);
    return { value: sixDecimals(table.arrays.expect[index]), move: describeMove(code, ROLLS[roll]), error: null };
  });
}

/** The question q of `answer` as a mask, sorted dice and rerolls, for the choices (null when invalid). */
function position(q) {
  return unlessInvalid(() => {
    const mask = categoriesMask(q.cats), rank = rollIndex(String(q.dice));
    if (!mask || !Number.isInteger(q.rerolls) || q.rerolls < 0 || q.rerolls > REROLLS) return null;
    return { mask, dice: ROLLS[rank], rerolls: q.rerolls };
  }, () => null);
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  let mode = choiceParam(params, "mode", MODES, "coach", "showing Coach");
  const seed = seedParam(params);

  // -- coach
  const cats = toggles("Open categories", CATEGORIES.map((c) => [c, c]), { name: "categories", onchange: () => update() });
  cats.root.id = "yazy-cats";
  cats.root.setAttribute("aria-labelledby", "yazy-cats-label");
  const given = params.get("cats");
  cats.set(given === null || given === "all" ? CATEGORIES : given === "none" ? [] : given.split(","));
  const diceField = field("Five dice", params.get("dice") ?? "13366", { id: "yazy-dice", size: 6, hint: "digits 1-6, any order; empty: the start of a turn" });
  const rerolls = radios("Rerolls left", "yazy-rerolls", [["2", "2"], ["1", "1"], ["0", "0"]], params.get("rerolls") || "2", () => update());
  const tableError = el("div", { class: "error", role: "alert", id: "yazy-error", hidden: true });
  const box = answerBox();
  box.root.id = "yazy-answer";
  const coach = el("div", { id: "yazy-coach" },
    el("div", { class: "row" }, el("span", { class: "label", id: "yazy-cats-label" }, "Open categories"), cats.root,
      el("button", { type: "button", class: "link", id: "yazy-all", onclick: () => { cats.set(CATEGORIES); update(); } }, "all"),
      el("button", { type: "button", class: "link", id: "yazy-none", onclick: () => { cats.set([]); update(); } }, "none")),
    el("div", { class: "row" }, diceField.root, rerolls.root), diceField.error, box.root);

  // -- play
  const play = new YazyPlay(() => table, ctx, openInCoach);
  const modes = modeSwitch("yazy", "Yazy", (m) => setMode(m), ctx);
  section.append(modes.root, tableError, coach, play.root);

  function update() {
    if (!table) return;
    const open = cats.pressed();
    const text = diceField.input.value.trim();
    let dice = null;
    if (text === "") diceField.show("");
    else {
      dice = unlessInvalid(() => diceField.read((t) => { rollIndex(t.trim()); return t.trim(); }), () => null);
      if (dice === null) {
        box.show({ value: null, move: null, error: "No answer until the dice are corrected." }, {});
        return;
      }
    }
    const q = { cats: open, dice, rerolls: Number(rerolls.value()) };
    ctx.setParams({ cats: open.length === 11 ? "all" : open.length ? open.join(",") : "none", dice: text, rerolls: rerolls.value() });
    const a = answer(table, q);
    box.show(a, { value: dice === null ? "Expected score to come, at the start of a turn" : `Expected score to come (${plural(q.rerolls, "reroll")} left)`,
      move: "Best move" });
  }
  diceField.input.addEventListener("input", update);

  /** A decision of the game, asked in Coach (the game is kept: Play shows it again). */
  function openInCoach(mask, dice, left) {
    cats.set(openCategories(mask).map((c) => CATEGORIES[c]));
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

  /** q = { cats, dice, rerolls } as for `answer` -> the choices ranked (yazy-choices.js), or null when invalid. */
  const ranked = (q) => {
    const at = position(q);
    if (!at) return null;
    const r = choices(table, at.mask, at.dice, at.rerolls);
    return { best: describeMove(r.best, r.roll), value: r.value, choices: r.choices.map(({ move, value, cost }) => ({ move, value, cost })) };
  };

  return {
    activate,
    key,
    api: {
      answer: (q) => answer(table, q), answers: (qs) => qs.map((q) => answer(table, q)), table: () => table,
      choices: ranked,
      choicesMany: (qs) => qs.map(ranked),
      /** The value of one move (FORMAT.md 6.6 code) at q. */
      choiceValue: (q, code) => { const at = position(q); return at && choiceValue(table, at.mask, at.dice, at.rerolls, code); },
      play: { state: () => play.snapshot(), start: (s) => play.start(s ?? null) },
      mode: (m) => setMode(m),
    },
  };
}
