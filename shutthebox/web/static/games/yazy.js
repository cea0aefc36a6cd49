/* yazy, eleven turns of five dice (docs/YAZY.md, FORMAT.md section 6.6).
 * Coach: the open categories, five dice and the rerolls left -> the expected score to come and the
 * best move, as `ShutTheBox yazy --expect CATS DICE REROLLS` and `--move ...` print them.
 * Play (yazy-play.js): a seeded game with hints and the cost of every choice (yazy-choices.js). */

import { answerOf, InvalidQuestion, sixDecimals, unlessInvalid } from "../lib/notation.js";
import { isOptimal, tieOf } from "../lib/numbers.js";
import { el, plural } from "../lib/ui.js";
import { radios, rulesPanel } from "./ui.js";
import { mountDuel } from "./yazy-duel-page.js";
import { ALL, CATEGORIES, NO_MOVE, REROLLS, ROLLS, categorySet, describeMove, rollIndex } from "./yazy-rules.js";
import { choiceValue, choices } from "./yazy-choices.js";
import { mountDiceGame } from "./dice-coach.js";

export { CATEGORIES, ROLLS, describeMove, rollIndex };
export const id = "yazy";
export const title = "Yazy";
const RULES = { categories: CATEGORIES, dice: 5, sides: 6, rerolls: REROLLS };

/** Coach's first question, when the link asks none: its blocks are fetched at once. */
const FIRST = { cats: "all", dice: "13366", rerolls: 2 };

export function tableSpec() {
  const name = "yazy.msgpack";
  return {
    url: name,
    options: { name, game: "yazy", rules: RULES,
      arrays: { turn: ["<f8", [ALL + 1]], expect: ["<f8", [ALL + 1, 3, 252]], move: ["|u1", [ALL + 1, 3, 252]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    hint: " Build it with `python build_tables.py --game yazy`.",
    first: (table) => { answer(table, FIRST); ranked(table, FIRST); },
  };
}

const categoriesMask = (cats) => categorySet(CATEGORIES, cats);

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

/** The choices at q ranked (yazy-choices.js) with the table's move first, or null when q is invalid. */
function ranked(table, q) {
  const at = position(q);
  if (!at) return null;
  const r = choices(table, at.mask, at.dice, at.rerolls);
  return { best: describeMove(r.best, r.roll), value: r.value, choices: r.choices.map(({ move, value, cost }) => ({ move, value, cost })) };
}

/** The moves as good as the table's at q: within the table's tie width of its value (the tie
 * rule of every page, lib/play.js's isOptimal). */
function alike(table, q) {
  const r = ranked(table, q);
  return r ? r.choices.slice(1).filter((c) => isOptimal(c.cost, tieOf(table))).map((c) => c.move) : [];
}

/** The section: one player (the dice game below) or two (`players=2`, yazy-duel-page.js), as the choice says. */
export function mount(section, ctx) {
  const one = el("div", { id: "yazy-one" }), two = el("div", { id: "yazy-two" });
  const players = radios("Players", "yazy-players", [["1", "1"], ["2", "2"]], ctx.params.get("players") === "2" ? "2" : "1",
    () => pick(players.value()));
  rulesPanel(section, null, el("div", { class: "row" }, players.root));
  section.append(one, two);
  const solo = mountOne(one, ctx), duel = mountDuel(two, ctx);
  const shown = () => (players.value() === "2" ? duel : solo);
  function pick(count) {
    ctx.setParams({ players: count === "2" ? "2" : null });
    one.hidden = count === "2";
    two.hidden = count !== "2";
    return shown().activate();
  }
  return {
    activate: () => pick(players.value()),
    restore() {
      players.set(ctx.params.get("players") === "2" ? "2" : "1");
      solo.restore();
    },
    key: (event) => shown().key(event),
    api: { ...solo.api, duel: duel.api, players: (count) => { players.set(String(count)); return pick(String(count)); } },
  };
}

function mountOne(section, ctx) {
  return mountDiceGame(section, ctx, {
    id, title, noun: "categories", names: CATEGORIES, tableSpec, answer,
    own: () => ({ rows: [], params: () => ({}), read: () => ({ q: {}, problem: null }), restore() {} }),
    show(table, q, box) {
      if (!q) return;
      const a = answer(table, q);
      box.show(a, { value: q.dice === null ? "Expected score to come, at the start of a turn" : `Expected score to come (${plural(q.rerolls, "reroll")} left)`,
        move: "Best move" }, { score: true, alike: a.move === null ? [] : alike(table, q) });
    },
    play: (table, ctx, coach) => import("./yazy-play.js").then((m) => m.yazyPlay(table, ctx, (mask, dice, left) => coach.open(mask, dice, left))),
    api: (table) => ({
      choices: (q) => ranked(table(), q),
      choicesMany: (qs) => qs.map((q) => ranked(table(), q)),
      /** The value of one move (FORMAT.md 6.6 code) at q. */
      choiceValue: (q, code) => { const at = position(q); return at && choiceValue(table(), at.mask, at.dice, at.rerolls, code); },
    }),
  });
}
