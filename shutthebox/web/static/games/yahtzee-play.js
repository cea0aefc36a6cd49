/* Yahtzee Play: a seeded game of 13 turns under the table's rules (the upper bonus, the Yahtzee bonus
 * and the joker rule) on the five-dice Play part (dice-play.js). Each choice's value and loss are exact
 * (yahtzee-turn.js), as `ShutTheBox yahtzee --options` prints them and `review` computes them; the end
 * reviews the game: the total loss, the three costliest decisions and the game in the words `review` reads. */

import { sixDecimals } from "../lib/notation.js";
import { el, plural } from "../lib/ui.js";
import { coachRow } from "./ui.js";
import { scoreCost } from "../lib/numbers.js";
import { dicePlay } from "./dice-play.js";
import { points, sorted, spoken } from "./dice-coach.js";
import { ALL, CATEGORIES, FIFTY, OPEN, SIXES, UPPER_BONUS, UPPER_GOAL, YAHTZEE, YAHTZEE_BONUS, boxChoices, openBoxes, scored, stateIndex,
  stateWords } from "./yahtzee-rules.js";
import { Turn, optionsOf, turnOf } from "./yahtzee-turn.js";
import { prefetch } from "../lib/remote.js";

const sameMove = (a, b) => a[0] === b[0] && String(a[1]) === String(b[1]);
// The most blocks fetched ahead for a turn: its decisions read at most 44 states (every open box with the
// points it may take), about as many blocks.
const TURN_BLOCKS = 48;
const fetchedFor = new WeakMap(); // game -> the position whose next decisions were fetched ahead

/** The decision's line as `review` reads it: CARD [--upper N] [--yahtzee-box V] DICE REROLLS CHOICE. */
/** A decision's card in a player's words: the boxes still open, the upper points, the yahtzee box. */
const cardWords = (d) => `${plural(CATEGORIES.filter((_, c) => (d.card >> c) & 1).length, "box", "boxes")} open, ` +
  `upper ${d.upper} of ${UPPER_GOAL}, Yahtzee box ${d.box === OPEN ? "open" : d.box === FIFTY ? "50" : "0"}`;
const line = (d) => `${stateWords(d.card, d.upper, d.box)} ${d.dice.join("")} ${d.rerolls} ${d.choice}`;

/** Yahtzee's rules for the five-dice part. table(): the read table; coach(record): a row pressed. */
const yahtzeeRules = (table, coach, onSheet) => {
  const turn = (g) => turnOf(g.table, g.joker, g.card, g.upper, g.box);
  const startValue = (g) => g.table.arrays.turn[stateIndex(g.card, g.upper, g.box)];
  return {
    id: "yahtzee", boxes: CATEGORIES, word: "box",
    newCard() {
      const t = table();
      return { table: t, joker: t.rules.joker, card: ALL, upper: 0, box: OPEN, upperBonus: 0, yahtzeeBonuses: 0,
        start: t.arrays.turn[stateIndex(ALL, 0, OPEN)] };
    },
    open: (g) => g.card,
    points: (g) => new Map(boxChoices(g.joker, g.card, g.box, g.dice)),
    refusal(g, c) {
      const name = CATEGORIES[c];
      if (!((g.card >> c) & 1)) return `${name} is scored already.`;
      const allowed = boxChoices(g.joker, g.card, g.box, g.dice).map(([b]) => b);
      if (allowed.includes(c)) return null;
      const where = allowed.map((b) => CATEGORIES[b]);
      return `The joker rule: this Yahtzee goes in ${where.length > 1 ? `one of ${where.join(", ")}` : where[0]}, not in ${name}.`;
    },
    score(g, c) {
      const earned = scored(g.joker, g.card, g.upper, g.box, c, sorted(g.dice));
      const extras = [earned.upperBonus ? `upper bonus ${earned.upperBonus}` : "", earned.yahtzeeBonus ? `Yahtzee bonus ${earned.yahtzeeBonus}` : ""]
        .filter(Boolean);
      g.scores[c] = earned.points;
      g.upperBonus += earned.upperBonus;
      g.yahtzeeBonuses += earned.yahtzeeBonus ? 1 : 0;
      Object.assign(g, { card: earned.card, upper: earned.upper, box: earned.box });
      return { total: earned.total, words: `score ${CATEGORIES[c]} (${earned.points}${extras.length ? ` + ${extras.join(" + ")}` : ""})`,
        say: `Scored ${earned.total} in ${CATEGORIES[c]}${extras.length ? ` (${extras.join(", ")})` : ""}.` };
    },
    value: startValue,
    /** The turn's decisions read the value after every box and points the dice may score: those states,
     * fetched once a turn begins (before its first roll), while the player looks at the card. */
    ahead(g) {
      const key = `${g.card}/${g.upper}/${g.box}`;
      if (fetchedFor.get(g) === key) return;
      fetchedFor.set(g, key);
      prefetch(g.table, (t) => {
        const turn = new Turn(g.joker, g.card, g.upper, g.box, (c, u, b) => t.arrays.turn[stateIndex(c, u, b)]);
        for (const c of openBoxes(g.card)) {
          // what box c can score: n of its face in the upper section, 0 or 50 in the Yahtzee box; the others'
          // points add to the value after them
          const points = c <= SIXES ? [0, 1, 2, 3, 4, 5].map((n) => n * (c + 1)) : c === YAHTZEE ? [0, 50] : [0];
          for (const p of points) turn.after(c, p);
        }
      }, TURN_BLOCKS);
    },
    judge(g, move, at) {
      const found = optionsOf(turn(g), at.dice, at.rerolls);
      const mine = found.choices.find((choice) => sameMove(choice.move, move)), best = found.choices[0];
      const loss = mine.lossFloat;
      return { choice: mine.text, best: best.text, same: mine === best, value: mine.value, bestValue: found.value, cost: loss,
        record: { ...at, card: g.card, upper: g.upper, box: g.box, choice: mine.text, best: best.text, value: mine.value, loss,
          lossText: sixDecimals(loss), exact: mine.loss } };
    },
    hint(g) {
      const found = optionsOf(turn(g), sorted(g.dice), g.rerolls);
      return { say: [`Hint: ${found.best} (`, points(found.value), " expected points to come)."],
        choices: found.choices.map((c) => ({ text: c.text, value: c.value, shown: points(c.value), cost: c.lossFloat, costWords: ["cost ", scoreCost(c.lossFloat, c.loss)] })) };
    },
    sheet(g, upper) {
      onSheet?.(g); // after each move: the chance to reach the aimed score (yahtzee-target-view.js)
      // the most the open upper boxes can still add: five of their face each
      const reach = upper + CATEGORIES.slice(0, SIXES + 1).reduce((most, _, c) => most + ((g.card >> c) & 1 ? 5 * (c + 1) : 0), 0);
      const bonus = g.upperBonus ? `+${g.upperBonus}` : reach >= UPPER_GOAL ? `${UPPER_GOAL - upper} to go` : "out of reach";
      return { goal: UPPER_GOAL, upper: [[`Bonus ${UPPER_BONUS} at ${UPPER_GOAL}`, bonus, "yahtzee-upper-bonus"]],
        lower: g.joker === "none" ? [] : [["Yahtzee bonus", g.yahtzeeBonuses ? `${g.yahtzeeBonuses} × ${YAHTZEE_BONUS}` : "0", "yahtzee-bonus"]] };
    },
    summary(g) {
      const diff = g.total - g.start, lost = g.decisions.reduce((sum, d) => sum + d.loss, 0);
      return [`Game over: your total is ${g.total}. Optimal play expects `, points(g.start), " points from the start (you scored ",
        points(Math.abs(diff)), ` ${diff >= 0 ? "more" : "less"}); your choices cost `, scoreCost(lost), " expected points."];
    },
    /** The review as `ShutTheBox yahtzee review` gives it: the losses it computes (none rounded away). */
    review(g) {
      const decisions = g.decisions, lost = decisions.reduce((sum, d) => sum + d.loss, 0);
      // the three costliest, as review lists them: decisions that lost nothing are left out
      const costliest = decisions.map((d, i) => [d, i]).filter(([d]) => d.loss > 0)
        .sort(([a, i], [b, j]) => b.loss - a.loss || i - j).slice(0, 3);
      const text = [`# ShutTheBox yahtzee --joker ${g.joker} review: a game played on the games page with seed ${g.seed}`,
        ...decisions.map(line)].join("\n") + "\n";
      return [
        el("p", { id: "yahtzee-review-total" }, `${plural(g.total, "point")} scored; your choices cost `, scoreCost(lost),
          ` expected points in ${plural(decisions.length, "decision")}.`),
        el("p", {}, costliest.length ? "The costliest decisions:" : "No decision cost anything."),
        el("ol", { class: "log", id: "yahtzee-costliest" }, ...costliest.map(([d, i]) => coachRow([
          `Turn ${d.turn}, ${cardWords(d)}, dice ${d.dice.join(" ")}, ${plural(d.rerolls, "reroll")} left: ` +
          `${spoken(d.choice)}, cost `, scoreCost(d.loss, d.lossText), ` (best: ${spoken(d.best)})`], () => coach(d), { "data-decision": i }))),
        el("details", {}, el("summary", {}, "The game as the command line reads it (ShutTheBox yahtzee review)"),
          el("pre", { id: "yahtzee-game-text", tabindex: "0" }, text))];
    },
  };
};

/** Yahtzee's Play shell: table() the read table, ctx the page's context, openInCoach(card, upper, box, dice,
 * rerolls), onSheet(g) after each move. */
export function yahtzeePlay(table, ctx, openInCoach, onSheet) {
  const coach = (d) => openInCoach(d.card, d.upper, d.box, d.dice.join(""), d.rerolls);
  return dicePlay(yahtzeeRules(table, coach, onSheet), ctx, coach);
}
