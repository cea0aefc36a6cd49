/* yazy Play: a seeded game of 11 turns on the five-dice Play part (dice-play.js). The value of every
 * choice and its cost come from the table one step ahead (yazy-choices.js). */

import { sixDecimals } from "../lib/notation.js";
import { scoreCost } from "../lib/numbers.js";
import { dicePlay } from "./dice-play.js";
import { points, sorted } from "./dice-coach.js";
import { ALL, CATEGORIES, SCORE, keepCode, openCategories, score } from "./yazy-rules.js";
import { choices } from "./yazy-choices.js";

/** yazy's rules for the five-dice part. table(): the read table. */
const yazyRules = (table) => ({
  id: "yazy", boxes: CATEGORIES, word: "category",
  owns: (params) => (params.get("game") ?? "yazy") === "yazy" && params.get("players") !== "2", // not the duel's entries
  newCard: () => ({ table: table(), open: ALL, start: table().arrays.turn[ALL] }),
  open: (g) => g.open,
  points: (g) => new Map(openCategories(g.open).map((c) => [c, score(c, g.dice)])),
  refusal: (g, c) => ((g.open >> c) & 1 ? null : `${CATEGORIES[c]} is scored already.`),
  score(g, c) {
    const points = score(c, g.dice);
    g.scores[c] = points;
    g.open &= ~(1 << c);
    return { total: points, words: `score ${CATEGORIES[c]} (${points})`, say: `Scored ${points} in ${CATEGORIES[c]}.` };
  },
  value: (g) => g.table.arrays.turn[g.open],
  judge(g, move, at) {
    const ranked = choices(g.table, g.open, at.dice, at.rerolls);
    const code = move[0] === "score" ? SCORE + move[1] : keepCode(move[1], at.dice);
    const mine = ranked.choices.find((c) => c.code === code), best = ranked.choices[0];
    return { choice: mine.move, best: best.move, same: code === best.code, value: mine.value, bestValue: ranked.value, cost: mine.cost,
      record: { ...at, open: g.open, move: mine.move, best: best.move, value: mine.value, cost: mine.cost } };
  },
  hint(g) {
    const ranked = choices(g.table, g.open, sorted(g.dice), g.rerolls);
    return { say: [`Hint: ${ranked.choices[0].move} (`, points(ranked.value), " expected points to come)."],
      choices: ranked.choices.map((c) => ({ text: c.move, value: sixDecimals(c.value), shown: points(c.value), cost: c.cost })) };
  },
  summary(g, cost) {
    const diff = g.total - g.start;
    return [`Game over: your total is ${g.total}. Optimal play expects `, points(g.start), " points from the start (you scored ",
      points(Math.abs(diff)), ` ${diff >= 0 ? "more" : "less"}); your choices cost `, scoreCost(cost), " expected points."];
  },
});

/** yazy's Play shell: table() the read table, ctx the page's context, openInCoach(mask, dice, rerolls). */
export const yazyPlay = (table, ctx, openInCoach) => dicePlay(yazyRules(table), ctx,
  (d) => openInCoach(d.open, d.dice.join(""), d.rerolls));
