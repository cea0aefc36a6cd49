/* Yahtzee Play: a seeded game of 13 turns under the official rules. Roll five dice, keep dice and reroll
 * the rest at most twice, score one open box (the upper bonus, the Yahtzee bonus and the joker rule as
 * the table's). Hint lists every choice with its exact value and loss (yahtzee-turn.js); each decision
 * gets its loss, as `ShutTheBox yahtzee review` computes it, and opens in Coach from the history; the end
 * reviews the game: the total loss and the three costliest decisions, and the game in the words
 * `review` reads. The dice, their buttons and the boxes' grid are yazy's (yazy-play.js, games.css). */

import { sixDecimals } from "../lib/notation.js";
import { askDiscard, el, plural } from "../lib/ui.js";
import { mulberry32, newSeed, rollDie } from "../lib/random.js";
import { coachRow } from "./ui.js";
import { ALL, CATEGORIES, DICE, FIFTY, OPEN, REROLLS, SIDES, UPPER_GOAL, boxChoices, openBoxes, scored, stateIndex,
  stateWords } from "./yahtzee-rules.js";
import { optionsOf, turnOf } from "./yahtzee-turn.js";

const sorted = (dice) => [...dice].sort((a, b) => a - b);
const sameMove = (a, b) => a[0] === b[0] && String(a[1]) === String(b[1]);

export class YahtzeePlay {
  /** table(): the read table; ctx: the page's context (setParams); openInCoach(card, upper, box, dice, rerolls). */
  constructor(table, ctx, openInCoach) {
    Object.assign(this, { table, ctx, openInCoach, state: null, selected: 0 });
    const button = (id, text, key, title, onclick) =>
      el("button", { type: "button", id, title, onclick }, text + " ", el("kbd", {}, key));
    this.rollButton = button("yahtzee-roll", "Roll", "R", "Roll the dice that are not kept (R)", () => this.roll());
    this.rollButton.classList.add("primary");
    this.hintButton = button("yahtzee-hint", "Hint", "H", "Every choice with its expected points and its loss (H)", () => this.hint());
    this.newButton = button("yahtzee-new", "New game", "N", "New game, new dice (N)", () => this.askNew());
    this.board = el("p", { class: "scoreboard", id: "yahtzee-board", "aria-live": "polite" });
    this.dieButtons = Array.from({ length: DICE }, (_, i) => el("button", { type: "button", class: "yazy-die", "data-die": i + 1,
      "aria-pressed": "false", onclick: () => this.toggleDie(i) }, el("span", { class: "face" }, "-"), el("span", { class: "kept" }, String(i + 1))));
    this.dice = el("div", { class: "yazy-dice", id: "yahtzee-play-dice", role: "group", "aria-label": "Dice: press one to keep it or roll it again" },
      ...this.dieButtons);
    this.catButtons = CATEGORIES.map((name, c) => el("button", { type: "button", class: "yazy-cat", "data-cat": name,
      onfocus: () => { if ((this.state?.card >> c) & 1) this.select(c); }, onclick: () => this.scoreBox(c) },
    el("span", { class: "name" }, name), el("span", { class: "points" }, "open")));
    this.cats = el("div", { class: "yazy-cats", id: "yahtzee-play-cats", role: "group", "aria-label": "Boxes: press one to score it" },
      ...this.catButtons);
    this.message = el("p", { class: "message", id: "yahtzee-message", "aria-live": "assertive" });
    this.feedback = el("p", { class: "feedback", id: "yahtzee-feedback", "aria-live": "polite" });
    this.ranked = el("ol", { class: "yazy-choices", id: "yahtzee-choices", "aria-label": "Every choice by value" });
    this.review = el("div", { class: "yahtzee-review", id: "yahtzee-review", hidden: true });
    this.log = el("ol", { class: "log", id: "yahtzee-log", "aria-label": "Your decisions: press one to open it in Coach" });
    this.root = el("div", { id: "yahtzee-play", class: "yazy-play" },
      el("p", { class: "hint", id: "yahtzee-keys" }, "Keys: ", el("kbd", {}, "1"), "-", el("kbd", {}, "5"), " keep or free a die, ",
        el("kbd", {}, "R"), " roll, ", el("kbd", {}, "Tab"), " or arrows to a box then ", el("kbd", {}, "Enter"), " or ",
        el("kbd", {}, "S"), " to score it, ", el("kbd", {}, "H"), " hint, ", el("kbd", {}, "N"), " new game."),
      this.board, this.dice, el("div", { class: "row" }, this.rollButton, this.hintButton, this.newButton),
      this.message, this.feedback, this.cats, this.ranked, this.review,
      el("h3", {}, "Decisions"), el("p", { class: "hint" }, "Press a decision to open it in Coach."), this.log);
  }

  get inProgress() { return Boolean(this.state && !this.state.over && (this.state.dice || this.state.decisions.length)); }

  get joker() { return this.table().rules.joker; }

  /** The table's value at the start of a turn in the state. */
  startValue(card, upper, box) { return this.table().arrays.turn[stateIndex(card, upper, box)]; }

  /** A new game with dice from `seed` (null: a random seed). */
  start(seed) {
    if (!this.table()) return;
    seed ??= newSeed();
    this.state = { seed, draw: mulberry32(seed), card: ALL, upper: 0, box: OPEN, dice: null, kept: Array(DICE).fill(false),
      rerolls: REROLLS, total: 0, scores: {}, upperBonus: 0, yahtzeeBonuses: 0, decisions: [], cost: 0, over: false,
      start: this.startValue(ALL, 0, OPEN) };
    this.log.replaceChildren();
    this.ranked.replaceChildren();
    this.review.replaceChildren();
    this.review.hidden = true;
    this.feedback.textContent = "";
    this.message.textContent = `Roll the dice (R). Optimal play expects ${sixDecimals(this.state.start)} points.`;
    this.ctx.setParams({ seed: String(seed) });
    this.render();
  }

  /** New game, after asking when a game is in progress. */
  async askNew() {
    if (this.inProgress && !(await askDiscard("New game"))) { this.newButton.focus(); return; }
    this.start(null);
    this.rollButton.focus();
  }

  turnNumber() { return CATEGORIES.length - openBoxes(this.state.card).length + 1; }

  say(text) { this.message.textContent = text; }

  draw() { return rollDie(this.state.draw, SIDES); }

  /** The solved turn of the game's state. */
  turn() {
    const s = this.state;
    return turnOf(this.table(), this.joker, s.card, s.upper, s.box);
  }

  /** Roll all five dice at the start of a turn, else reroll those not kept (a choice, costed). */
  roll() {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) {
      s.dice = Array.from({ length: DICE }, () => this.draw());
      s.kept.fill(false);
      s.rerolls = REROLLS;
      this.ranked.replaceChildren();
      this.say(`Turn ${this.turnNumber()}: press the dice to keep, then roll the others (R), or score a box.`);
      this.render();
      return;
    }
    if (!s.rerolls) { this.say("No rerolls left: score a box."); this.focusBox(); return; }
    const kept = sorted(s.dice.filter((_, i) => s.kept[i]));
    if (kept.length === DICE) {
      this.say("All five dice are kept: that is scoring now. Choose a box.");
      this.focusBox();
      return;
    }
    this.decide(["keep", kept], `keep ${kept.length ? kept.join(" ") : "none"}`);
    s.dice = s.dice.map((d, i) => (s.kept[i] ? d : this.draw()));
    s.rerolls--;
    this.say(s.rerolls ? `${plural(s.rerolls, "reroll")} left: keep dice and roll (R), or score.` : "No rerolls left: score a box.");
    this.render();
    if (!s.rerolls) this.focusBox();
  }

  /** Keep die i (0-4) or roll it again. */
  toggleDie(i) {
    const s = this.state;
    if (!s || s.over || !s.dice) { this.say(s && s.over ? "The game is over: press New game (N)." : "Roll the dice first (R)."); return; }
    if (!s.rerolls) { this.say("No rerolls left: these dice are final; score a box."); return; }
    s.kept[i] = !s.kept[i];
    this.render();
  }

  /** Why box c may not take the dice now (a closed box, or the joker rule), or null. */
  refusal(c) {
    const s = this.state, name = CATEGORIES[c];
    if (!((s.card >> c) & 1)) return `${name} is scored already.`;
    const allowed = boxChoices(this.joker, s.card, s.box, s.dice).map(([b]) => b);
    if (allowed.includes(c)) return null;
    const where = allowed.map((b) => CATEGORIES[b]);
    return `The joker rule: this Yahtzee goes in ${where.length > 1 ? `one of ${where.join(", ")}` : where[0]}, not in ${name}.`;
  }

  /** Score box c with the dice showing (a choice, costed); the turn ends. */
  scoreBox(c) {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) { this.say("Roll the dice first (R)."); this.rollButton.focus(); return; }
    const refused = this.refusal(c);
    if (refused) { this.say(refused); return; }
    const roll = sorted(s.dice);
    const earned = scored(this.joker, s.card, s.upper, s.box, c, roll);
    const extras = [earned.upperBonus ? `upper bonus ${earned.upperBonus}` : "", earned.yahtzeeBonus ? `Yahtzee bonus ${earned.yahtzeeBonus}` : ""]
      .filter(Boolean);
    this.decide(["score", c], `score ${CATEGORIES[c]} (${earned.points}${extras.length ? ` + ${extras.join(" + ")}` : ""})`);
    s.total += earned.total;
    s.scores[c] = earned.points;
    s.upperBonus += earned.upperBonus;
    s.yahtzeeBonuses += earned.yahtzeeBonus ? 1 : 0;
    Object.assign(s, { card: earned.card, upper: earned.upper, box: earned.box, dice: null, rerolls: REROLLS });
    s.kept.fill(false);
    if (!s.card) {
      s.over = true;
      const diff = s.total - s.start;
      this.say(`Game over: your total is ${s.total}. Optimal play expects ${sixDecimals(s.start)} points from the start ` +
        `(you scored ${sixDecimals(Math.abs(diff))} ${diff >= 0 ? "more" : "less"}); your decisions lost ${sixDecimals(s.cost)} expected points.`);
      this.showReview();
      this.render();
      this.newButton.focus();
      return;
    }
    this.say(`Scored ${earned.total} in ${CATEGORIES[c]}${extras.length ? ` (${extras.join(", ")})` : ""}. Turn ${this.turnNumber()}: roll the dice (R).`);
    this.render();
    this.rollButton.focus();
  }

  /** Record a choice (["score", box] or ["keep", kept dice]) at the current position with its loss against
   * the best, as `review` computes it. */
  decide(move, words) {
    const s = this.state;
    const at = { turn: this.turnNumber(), card: s.card, upper: s.upper, box: s.box, dice: sorted(s.dice), rerolls: s.rerolls };
    const found = optionsOf(this.turn(), at.dice, s.rerolls);
    const mine = found.choices.find((choice) => sameMove(choice.move, move));
    const best = found.choices[0];
    const loss = mine.lossFloat, shown = sixDecimals(loss);
    const optimal = shown === "0.000000";
    s.cost += loss;
    s.decisions.push({ ...at, choice: mine.text, best: best.text, value: mine.value, loss, lossText: shown, exact: mine.loss, optimal });
    this.feedback.textContent = optimal
      ? `${words}: optimal, loss 0.000000${mine === best ? "" : ` (the best, ${best.text}, is as good)`}.`
      : `${words}: loss ${shown} expected points; the best is ${best.text} (${found.value} expected to come, against ${mine.value}).`;
    this.ranked.replaceChildren();
    this.log.append(coachRow(`Turn ${at.turn}, dice ${at.dice.join(" ")}, ${plural(at.rerolls, "reroll")} left: ${words}` +
      (optimal ? " (optimal)" : ` (loss ${shown}; best ${best.text})`),
    () => this.openInCoach(at.card, at.upper, at.box, at.dice.join(""), at.rerolls), { "data-decision": s.decisions.length - 1 }));
  }

  /** Every choice at the position, best first, with its value and loss (as `--options` prints them). */
  hint() {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) {
      this.say(`Hint: before rolling, ${sixDecimals(this.startValue(s.card, s.upper, s.box))} expected points to come with best play.`);
      return;
    }
    const found = optionsOf(this.turn(), sorted(s.dice), s.rerolls);
    this.say(`Hint: ${found.best} (${found.value} expected points to come).`);
    this.ranked.replaceChildren(...found.choices.map((choice, i) => el("li", { class: i ? null : "best", "data-move": choice.text },
      `${choice.text}: ${choice.value}`, i ? ` (loss ${choice.loss})` : " (best)")));
  }

  /** The decision's line as `review` reads it: CARD [--upper N] [--yahtzee-box V] DICE REROLLS CHOICE. */
  static line(d) { return `${stateWords(d.card, d.upper, d.box)} ${d.dice.join("")} ${d.rerolls} ${d.choice}`; }

  /** The end of a game: its points, the total loss, the three costliest decisions, the game as `review` reads it. */
  showReview() {
    const s = this.state, decisions = s.decisions;
    const costliest = decisions.map((d, i) => [d, i]).sort(([a, i], [b, j]) => b.loss - a.loss || i - j).slice(0, 3);
    const text = [`# ShutTheBox yahtzee --joker ${this.joker} review: a game played on the games page with seed ${s.seed}`,
      ...decisions.map((d) => YahtzeePlay.line(d))].join("\n") + "\n";
    this.review.replaceChildren(
      el("h3", {}, "Review"),
      el("p", { id: "yahtzee-review-total" }, `${s.total} points scored; total loss ${sixDecimals(s.cost)} expected points in ` +
        `${plural(decisions.length, "decision")}.`),
      el("p", {}, "The costliest decisions:"),
      el("ol", { class: "log", id: "yahtzee-costliest" }, ...costliest.map(([d, i]) => coachRow(
        `Turn ${d.turn}, ${stateWords(d.card, d.upper, d.box)}, dice ${d.dice.join(" ")}, ${plural(d.rerolls, "reroll")} left: ` +
        `${d.choice}, loss ${d.lossText} (best: ${d.best})`,
        () => this.openInCoach(d.card, d.upper, d.box, d.dice.join(""), d.rerolls), { "data-decision": i }))),
      el("details", {}, el("summary", {}, "The game as ShutTheBox yahtzee review reads it"),
        el("pre", { id: "yahtzee-game-text", tabindex: "0" }, text)));
    this.review.hidden = false;
  }

  /** Focus the selected open box. */
  focusBox() {
    this.catButtons[this.selected].focus();
  }

  /** Arrow keys within the boxes: the previous or next open one. */
  step(delta) {
    const buttons = this.catButtons.filter((b) => !b.classList.contains("used"));
    const from = buttons.indexOf(document.activeElement);
    const next = buttons[(from < 0 ? 0 : from + delta + buttons.length) % buttons.length];
    if (next) next.focus();
  }

  key(event) {
    const k = event.key, target = event.target;
    const onButton = target instanceof HTMLButtonElement;
    if (/^[1-5]$/.test(k)) this.toggleDie(Number(k) - 1);
    else if (k === "r" || k === "R") this.roll();
    else if (k === "h" || k === "H") this.hint();
    else if (k === "n" || k === "N") this.askNew();
    else if (k === "s" || k === "S" || (k === "Enter" && !onButton)) this.scoreBox(this.selected);
    else if (["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight"].includes(k) && this.cats.contains(target)) {
      this.step(k === "ArrowUp" || k === "ArrowLeft" ? -1 : 1);
    } else return;
    event.preventDefault();
    if (document.activeElement === document.body || !document.activeElement) this.rollButton.focus();
  }

  /** Update the board in place: the dice and box buttons stay the same elements, so focus stays. */
  render() {
    const s = this.state;
    if (!s) return;
    const open = openBoxes(s.card);
    if (!open.includes(this.selected)) this.selected = open.length ? open[0] : 0;
    const holds = s.box === OPEN ? "open" : s.box === FIFTY ? "50" : "0";
    this.board.replaceChildren(
      el("span", { id: "yahtzee-turn" }, s.over ? "Game over" : `Turn ${this.turnNumber()} of ${CATEGORIES.length}`),
      el("span", { id: "yahtzee-rerolls" }, `Rerolls left: ${s.dice ? s.rerolls : REROLLS}`),
      el("span", { id: "yahtzee-total" }, `Total: ${s.total}`),
      el("span", { id: "yahtzee-upper" }, `Upper: ${s.upper} of ${UPPER_GOAL}${s.upperBonus ? ` (+${s.upperBonus})` : ""}`),
      el("span", { id: "yahtzee-holds" }, `Yahtzee box: ${holds}${s.yahtzeeBonuses ? `, ${s.yahtzeeBonuses} x 100 bonus` : ""}`),
      el("span", { class: "seed" }, `Seed ${s.seed}`));
    this.dieButtons.forEach((b, i) => {
      const d = s.dice ? s.dice[i] : null;
      b.dataset.face = d ?? "";
      b.setAttribute("aria-pressed", s.dice && s.kept[i] ? "true" : "false");
      b.setAttribute("aria-disabled", s.dice && s.rerolls ? "false" : "true");
      b.setAttribute("aria-label", d === null ? `die ${i + 1}: not rolled` : `die ${i + 1}: ${d}${s.kept[i] ? ", kept" : ""}`);
      b.querySelector(".face").textContent = d === null ? "-" : String(d);
      b.querySelector(".kept").textContent = s.dice && s.kept[i] ? "kept" : String(i + 1);
    });
    const rolling = s.dice ? s.kept.filter((k) => !k).length : DICE;
    this.rollButton.firstChild.textContent = s.dice ? `Reroll ${plural(rolling, "die", "dice")} ` : "Roll ";
    this.rollButton.setAttribute("aria-disabled", s.over || (s.dice && !s.rerolls) ? "true" : "false");
    const allowed = new Map(s.dice ? boxChoices(this.joker, s.card, s.box, s.dice) : []);
    this.catButtons.forEach((b, c) => {
      const isOpen = ((s.card >> c) & 1) === 1, name = CATEGORIES[c];
      const points = isOpen ? (s.dice ? allowed.get(c) ?? null : null) : s.scores[c];
      const barred = isOpen && s.dice && points === null;
      b.classList.toggle("used", !isOpen);
      b.classList.toggle("barred", Boolean(barred));
      b.setAttribute("aria-disabled", isOpen && s.dice && !barred ? "false" : "true");
      b.dataset.used = isOpen ? "" : String(points);
      b.querySelector(".points").textContent = barred ? "joker: no" : points === null ? "open" : isOpen ? `+${points}` : String(points);
      b.setAttribute("aria-label", !isOpen ? `${name}: scored ${points}` : barred ? `${name}: not allowed by the joker rule`
        : s.dice ? `score ${name}: ${points} points` : `${name}: open`);
    });
    this.mark();
    document.body.dataset.yahtzee = s.over ? "over" : !s.dice ? "roll" : s.rerolls ? "keep" : "score";
  }

  select(c) {
    this.selected = c;
    this.mark();
  }

  mark() {
    this.catButtons.forEach((b, c) => {
      const on = c === this.selected && !b.classList.contains("used");
      b.classList.toggle("selected", on);
      if (on) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
  }

  /** The game for the tests (no random generator). */
  snapshot() { return this.state && { ...this.state, draw: undefined, kept: [...this.state.kept], dice: this.state.dice && [...this.state.dice] }; }
}
