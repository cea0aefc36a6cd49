/* Two-player yazy's Play (`?game=yazy&players=2&mode=play`) on the five-dice Play part (dice-play.js) and the
 * Play shell (lib/play.js): you (first) against the computer, which plays the duel table's move (`ShutTheBox
 * yazy --players 2 --move`) at every decision. Values are chances to win, as `--options` prints them; a
 * decision's cost is its loss there, said in percentage points of winning chance (as Pig's and Goat's Play say
 * it). Both score sheets, each with the live chance to win. The first roll of each turn is nobody's choice: it
 * follows from the seed, so the link's `moves` hold only your keeps and scores (dice-play.js's codes). */

import { el, plural } from "../lib/ui.js";
import { chance as chanceNum, chanceCost, percent } from "../lib/numbers.js";
import { CATEGORIES, openCategories, score } from "./yazy-rules.js";
import { fixed } from "../lib/printing.js";
import { ID, chance, duelChoices, moveText, rankedChoices, setWords } from "./yazy-duel.js";
import { TIE, best } from "./yazy-turn.js";
import { dicePlay } from "./dice-play.js";
import { keptIndexes, scoredBox, sorted } from "./dice-coach.js";

const ROLL = 31, SCORE = 32; // dice-play.js's codes


const count = (mask) => openCategories(mask).length;

/** A chance as every page shows one: 45.5%, its six decimals (0.454979) a press away. */
const chanceWords = (v) => chanceNum(v, fixed(v));

/** The duel's rules for dice-play.js. table(): the read duel table (its `game` the categories played). */
function duelRules(table) {
  let cpuSheet, chanceLine;
  const game = () => table().game;
  /** The mover's question in the command line's words (and masks, for Coach). */
  const question = (g) => {
    const [me, them] = g.mover === "cpu" ? [g.cpu, g] : [g, g.cpu];
    return { mine: setWords(game(), me.open), theirs: setWords(game(), them.open), mineMask: me.open, theirsMask: them.open,
      scores: `${me.total},${them.total}`, dice: g.dice ? sorted(g.dice).join("") : "", rerolls: g.rerolls };
  };
  const choicesOf = (q) => rankedChoices(duelChoices(table(), q.mine, q.theirs, q.scores, q.dice, String(q.rerolls)));
  /** Your chance to win now: the mover's best choice (or its chance at a turn's start), from your side. */
  function yourChance(g) {
    if (g.over) return chance(table(), 0, 0, g.total - g.cpu.total);
    const q = question(g);
    const mover = g.dice ? best(duelChoices(table(), q.mine, q.theirs, q.scores, q.dice, String(q.rerolls)))[0]
      : chance(table(), q.mineMask, q.theirsMask, g.mover === "cpu" ? g.cpu.total - g.total : g.total - g.cpu.total);
    return g.mover === "cpu" ? 1 - mover : mover;
  }
  const result = (g) => {
    const d = g.total - g.cpu.total;
    return `you ${d > 0 ? "win" : d < 0 ? "lose" : "tie"}, ${g.total} to ${g.cpu.total}`;
  };
  return {
    id: ID, boxes: CATEGORIES, word: "category",
    ids: { roll: `${ID}-reroll`, dice: `${ID}-dice-row`, sheet: `${ID}-sheet-you`, message: `${ID}-status`, hintList: `${ID}-hint-list` },
    dieBase: 0,
    inGame: (c) => ((game().mask >> c) & 1) === 1,
    newCard: () => ({ table: table(), open: game().mask, mover: "you", cpu: { open: game().mask, total: 0, scores: {} },
      moves: [], result: null, pending: null }),
    owns: (params) => params.get("game") === "yazy" && params.get("players") === "2",
    opening: () => "You play first against the computer: keep dice and reroll, or score a category.",
    started: (g) => g.decisions.length > 0,
    open: (g) => g.open,
    computer: (g) => g.mover === "cpu",
    turn: (g) => count(game().mask) - count(g.mover === "cpu" ? g.cpu.open : g.open) + 1,
    finished(g) {
      if (g.open || g.cpu.open) return false;
      const d = g.total - g.cpu.total;
      g.result = d > 0 ? "win" : d < 0 ? "loss" : "tie";
      return true;
    },
    points: (g) => new Map(openCategories(g.open).map((c) => [c, score(c, g.dice)])),
    refusal: (g, c) => (((g.mover === "cpu" ? g.cpu : g).open >> c) & 1 ? null : `${CATEGORIES[c]} is scored already.`),
    score(g, c) {
      const points = score(c, g.dice), name = CATEGORIES[c], words = `score ${name} (${points})`;
      if (g.mover === "cpu") {
        g.cpu.scores[c] = points;
        g.cpu.total += points;
        g.cpu.open &= ~(1 << c);
        g.mover = "you";
        return { total: 0, words, say: `The computer scored ${points} in ${name}.` };
      }
      g.scores[c] = points;
      g.open &= ~(1 << c);
      g.mover = g.cpu.open ? "cpu" : "you";
      return { total: points, words, say: `Scored ${points} in ${name}.` };
    },
    /** The moves nobody chooses: each turn's first roll, and every move of the computer (the table's). */
    auto(g) {
      if (!g.dice) return ROLL;
      if (g.mover !== "cpu") return null;
      const q = question(g), move = moveText(table(), q.mine, q.theirs, q.scores, q.dice, String(q.rerolls));
      g.pending = { ...q, move };
      const box = scoredBox(move);
      if (box !== null) return SCORE + CATEGORIES.indexOf(box);
      return keptIndexes(move, g.dice).reduce((mask, i) => mask | (1 << i), 0);
    },
    /** The computer's decision, kept for the tests and its history row (which opens it in Coach). */
    record(g, code) {
      if (code === ROLL || !g.pending) return null;
      const { mineMask, theirsMask, ...words } = g.pending;
      g.moves.push(words);
      g.pending = null;
      return { ...words, mineMask, theirsMask };
    },
    judge(g, move) {
      const q = question(g), { top, listed } = choicesOf(q);
      const text = move[0] === "score" ? `score ${CATEGORIES[move[1]]}` : `keep ${move[1].length ? move[1].join(" ") : "none"}`;
      const [value] = listed.find(([, m]) => m === text), cost = Math.max(top - value, 0), bestMove = listed[0][1];
      return { choice: text, best: bestMove, same: text === bestMove, value, bestValue: top, cost,
        record: { ...q, move: text, best: bestMove, value, cost } };
    },
    tie: () => TIE,
    hint(g) {
      const { top, listed } = choicesOf(question(g));
      return { say: [`Hint: ${listed[0][1]} (your chance to win `, chanceWords(top), ")."],
        choices: listed.map(([v, move]) => ({ text: move, value: fixed(v), shown: chanceWords(v), cost: Math.max(top - v, 0),
          attrs: { "data-value": fixed(v), "data-loss": fixed(Math.max(top - v, 0)) } })) };
    },
    before: () => "Hint: the dice are rolled at the start of your turn.",
    amount: (v) => ["chance to win ", chanceWords(v)],
    costText: (cost, short) => [chanceCost(cost), short ? "" : " of winning chance"],
    summary: (g, cost) => [`Game over: ${result(g)}. Your choices cost `, chanceCost(cost), " of winning chance."],
    extra() {
      chanceLine = el("p", { id: `${ID}-chance`, "aria-live": "polite" });
      cpuSheet = el("table", { class: "sheet cpu-sheet", id: `${ID}-sheet-cpu` });
      return [chanceLine, cpuSheet];
    },
    /** The computer's sheet and both chances to win, after every move. */
    show(g) {
      const yours = yourChance(g);
      chanceLine.replaceChildren("Your chance to win: ", chanceWords(yours), "; the computer's: ", chanceWords(1 - yours), "." +
        (g.over ? "" : g.mover === "cpu" ? " The computer is playing." : ""));
      cpuSheet.replaceChildren(el("caption", {}, `The computer: ${plural(g.cpu.total, "point")} (chance to win `, chanceWords(1 - yours), ")"),
        ...openCategories(game().mask).map((c) => el("tr", {}, el("td", {}, CATEGORIES[c]),
          el("td", {}, Object.hasOwn(g.cpu.scores, c) ? String(g.cpu.scores[c]) : ""))));
      document.getElementById(`${ID}-sheet-you`)?.setAttribute("aria-label",
        `Your categories, ${plural(g.total, "point")} (chance to win ${percent(yours)}): press one to score it`);
    },
    snapshot: (g) => ({ you: { open: g.open, total: g.total }, cpu: { ...g.cpu } }),
  };
}

/** The duel's Play shell: table() the read duel table, ctx the page's context, openInCoach(record) with the
 * decision's words and masks ({ mineMask, theirsMask, scores, dice, rerolls }). */
export const duelPlay = (table, ctx, openInCoach) => dicePlay(duelRules(table), ctx, openInCoach, { anim: false });
