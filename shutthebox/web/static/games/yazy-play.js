/* yazy Play: a seeded game of 11 turns. Roll five dice, lock dice and reroll the rest at most twice,
 * score one open category. Hint shows the table's move and the value of every choice; each choice made
 * gets its cost (yazy-choices.js); each decision in the history opens in Coach. */

import { sixDecimals } from "../lib/notation.js";
import { askDiscard, el, plural } from "../lib/ui.js";
import { mulberry32, newSeed, rollDie } from "../lib/random.js";
import { coachRow } from "./ui.js";
import { ALL, CATEGORIES, DICE, REROLLS, SCORE, SIDES, keepCode, openCategories, score } from "./yazy-rules.js";
import { choices } from "./yazy-choices.js";

const sorted = (dice) => [...dice].sort((a, b) => a - b);

export class YazyPlay {
  /** table(): the read table; ctx: the page's context (setParams); openInCoach(mask, dice, rerolls). */
  constructor(table, ctx, openInCoach) {
    Object.assign(this, { table, ctx, openInCoach, state: null, selected: 0 });
    const button = (id, text, key, title, onclick) =>
      el("button", { type: "button", id, title, onclick }, text + " ", el("kbd", {}, key));
    this.rollButton = button("yazy-roll", "Roll", "R", "Roll the dice that are not kept (R)", () => this.roll());
    this.rollButton.classList.add("primary");
    this.hintButton = button("yazy-hint", "Hint", "H", "The table's best choice and every choice's value (H)", () => this.hint());
    this.newButton = button("yazy-new", "New game", "N", "New game, new dice (N)", () => this.askNew());
    this.board = el("p", { class: "scoreboard", id: "yazy-board", "aria-live": "polite" });
    this.dieButtons = Array.from({ length: DICE }, (_, i) => el("button", { type: "button", class: "yazy-die", "data-die": i + 1,
      "aria-pressed": "false", onclick: () => this.toggleDie(i) }, el("span", { class: "face" }, "-"), el("span", { class: "kept" }, String(i + 1))));
    this.dice = el("div", { class: "yazy-dice", id: "yazy-play-dice", role: "group", "aria-label": "Dice: press one to keep it or roll it again" },
      ...this.dieButtons);
    this.catButtons = CATEGORIES.map((name, c) => el("button", { type: "button", class: "yazy-cat", "data-cat": name,
      onfocus: () => { if ((this.state?.open >> c) & 1) this.select(c); }, onclick: () => this.scoreCategory(c) },
    el("span", { class: "name" }, name), el("span", { class: "points" }, "open")));
    this.cats = el("div", { class: "yazy-cats", id: "yazy-play-cats", role: "group", "aria-label": "Categories: press one to score it" },
      ...this.catButtons);
    this.message = el("p", { class: "message", id: "yazy-message", "aria-live": "assertive" });
    this.feedback = el("p", { class: "feedback", id: "yazy-feedback", "aria-live": "polite" });
    this.ranked = el("ol", { class: "yazy-choices", id: "yazy-choices", "aria-label": "Every choice by value" });
    this.log = el("ol", { class: "log", id: "yazy-log", "aria-label": "Your decisions: press one to open it in Coach" });
    this.root = el("div", { id: "yazy-play", class: "yazy-play" },
      el("p", { class: "hint", id: "yazy-keys" }, "Keys: ", el("kbd", {}, "1"), "-", el("kbd", {}, "5"), " keep or free a die, ",
        el("kbd", {}, "R"), " roll, ", el("kbd", {}, "Tab"), " or arrows to a category then ", el("kbd", {}, "Enter"), " or ",
        el("kbd", {}, "S"), " to score it, ", el("kbd", {}, "H"), " hint, ", el("kbd", {}, "N"), " new game."),
      this.board, this.dice, el("div", { class: "row" }, this.rollButton, this.hintButton, this.newButton),
      this.message, this.feedback, this.cats, this.ranked,
      el("h3", {}, "Decisions"), el("p", { class: "hint" }, "Press a decision to open it in Coach."), this.log);
  }

  get inProgress() { return Boolean(this.state && !this.state.over && (this.state.dice || this.state.decisions.length)); }

  /** A new game with dice from `seed` (null: a random seed). */
  start(seed) {
    if (!this.table()) return;
    seed ??= newSeed();
    this.state = { seed, draw: mulberry32(seed), open: ALL, dice: null, kept: Array(DICE).fill(false), rerolls: REROLLS,
      total: 0, scores: {}, decisions: [], cost: 0, over: false, start: this.table().arrays.turn[ALL] };
    this.log.replaceChildren();
    this.ranked.replaceChildren();
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

  turnNumber() { return CATEGORIES.length - openCategories(this.state.open).length + 1; }

  say(text) { this.message.textContent = text; }

  /** Roll all five dice at the start of a turn, else reroll those not kept (a choice, costed). */
  roll() {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) {
      s.dice = Array.from({ length: DICE }, () => this.draw());
      s.kept.fill(false);
      s.rerolls = REROLLS;
      this.ranked.replaceChildren();
      this.say(`Turn ${this.turnNumber()}: press the dice to keep, then roll the others (R), or score a category.`);
      this.render();
      return;
    }
    if (!s.rerolls) { this.say("No rerolls left: score a category."); this.focusCategory(); return; }
    const kept = s.dice.filter((_, i) => s.kept[i]);
    if (kept.length === DICE) {
      this.say("All five dice are kept: that is scoring now. Choose a category.");
      this.focusCategory();
      return;
    }
    const roll = sorted(s.dice);
    this.decide(keepCode(kept, roll), `keep ${kept.length ? sorted(kept).join(" ") : "none"}`);
    s.dice = s.dice.map((d, i) => (s.kept[i] ? d : this.draw()));
    s.rerolls--;
    this.say(s.rerolls ? `${plural(s.rerolls, "reroll")} left: keep dice and roll (R), or score.` : "No rerolls left: score a category.");
    this.render();
    if (!s.rerolls) this.focusCategory();
  }

  draw() { return rollDie(this.state.draw, SIDES); }

  /** Keep die i (0-4) or roll it again. */
  toggleDie(i) {
    const s = this.state;
    if (!s || s.over || !s.dice) { this.say(s && s.over ? "The game is over: press New game (N)." : "Roll the dice first (R)."); return; }
    if (!s.rerolls) { this.say("No rerolls left: these dice are final; score a category."); return; }
    s.kept[i] = !s.kept[i];
    this.render();
  }

  /** Score category c with the dice showing (a choice, costed); the turn ends. */
  scoreCategory(c) {
    const s = this.state;
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) { this.say("Roll the dice first (R)."); this.rollButton.focus(); return; }
    if (!((s.open >> c) & 1)) { this.say(`${CATEGORIES[c]} is scored already.`); return; }
    const points = score(c, s.dice);
    this.decide(SCORE + c, `score ${CATEGORIES[c]} (${points})`);
    s.total += points;
    s.scores[c] = points;
    s.open &= ~(1 << c);
    s.dice = null;
    s.kept.fill(false);
    s.rerolls = REROLLS;
    if (!s.open) {
      s.over = true;
      const diff = s.total - s.start;
      this.say(`Game over: your total is ${s.total}. Optimal play expects ${sixDecimals(s.start)} points from the start ` +
        `(you scored ${sixDecimals(Math.abs(diff))} ${diff >= 0 ? "more" : "less"}); your choices cost ${sixDecimals(s.cost)} expected points.`);
      this.render();
      this.newButton.focus();
      return;
    }
    this.say(`Scored ${points} in ${CATEGORIES[c]}. Turn ${this.turnNumber()}: roll the dice (R).`);
    this.render();
    this.rollButton.focus();
  }

  /** Record a choice (move code) at the current position with its cost against the table's move. */
  decide(code, words) {
    const s = this.state, t = this.table();
    const at = { turn: this.turnNumber(), open: s.open, dice: sorted(s.dice), rerolls: s.rerolls };
    const ranked = choices(t, s.open, at.dice, s.rerolls);
    const mine = ranked.choices.find((choice) => choice.code === code);
    const best = ranked.choices[0];
    const optimal = mine.cost < 5e-7; // prints as 0.000000: a tied move (the table breaks ties by a fixed order)
    s.cost += mine.cost;
    s.decisions.push({ ...at, move: mine.move, best: best.move, value: mine.value, cost: mine.cost, optimal });
    this.feedback.textContent = optimal
      ? `${words}: optimal, cost 0.000000${code === best.code ? "" : ` (the table's move, ${best.move}, is as good)`}.`
      : `${words}: cost ${sixDecimals(mine.cost)} expected points; the table's move is ${best.move} ` +
        `(${sixDecimals(ranked.value)} expected to come, against ${sixDecimals(mine.value)}).`;
    this.ranked.replaceChildren();
    this.log.append(coachRow(`Turn ${at.turn}, dice ${at.dice.join(" ")}, ${plural(at.rerolls, "reroll")} left: ${words}` +
      (optimal ? " (optimal)" : ` (cost ${sixDecimals(mine.cost)}; best ${best.move})`),
    () => this.openInCoach(at.open, at.dice.join(""), at.rerolls), { "data-decision": s.decisions.length - 1 }));
  }

  /** The table's move for the position and every choice ranked by value with its cost. */
  hint() {
    const s = this.state, t = this.table();
    if (!s || s.over) { this.say("The game is over: press New game (N)."); return; }
    if (!s.dice) {
      this.say(`Hint: before rolling, ${sixDecimals(t.arrays.turn[s.open])} expected points to come with best play.`);
      return;
    }
    const ranked = choices(t, s.open, sorted(s.dice), s.rerolls);
    this.say(`Hint: ${ranked.choices[0].move} (${sixDecimals(ranked.value)} expected points to come).`);
    this.ranked.replaceChildren(...ranked.choices.map((choice, i) => el("li", { class: i ? null : "best", "data-move": choice.move },
      `${choice.move}: ${sixDecimals(choice.value)}`, i ? ` (cost ${sixDecimals(choice.cost)})` : " (best)")));
  }

  /** Focus the selected open category (the first open one if none is). */
  focusCategory() {
    this.catButtons[this.selected].focus();
  }

  /** Arrow keys within the categories: the previous or next open one. */
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
    else if (k === "s" || k === "S" || (k === "Enter" && !onButton)) this.scoreCategory(this.selected);
    else if (["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight"].includes(k) && this.cats.contains(target)) {
      this.step(k === "ArrowUp" || k === "ArrowLeft" ? -1 : 1);
    } else return;
    event.preventDefault();
    if (document.activeElement === document.body || !document.activeElement) this.rollButton.focus();
  }

  /** Update the board in place: the dice and category buttons stay the same elements, so focus stays. */
  render() {
    const s = this.state;
    if (!s) return;
    const open = openCategories(s.open);
    if (!open.includes(this.selected)) this.selected = open.length ? open[0] : 0;
    this.board.replaceChildren(
      el("span", { id: "yazy-turn" }, s.over ? "Game over" : `Turn ${this.turnNumber()} of ${CATEGORIES.length}`),
      el("span", { id: "yazy-rerolls" }, `Rerolls left: ${s.dice ? s.rerolls : REROLLS}`),
      el("span", { id: "yazy-total" }, `Total: ${s.total}`),
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
    this.catButtons.forEach((b, c) => {
      const isOpen = ((s.open >> c) & 1) === 1, name = CATEGORIES[c];
      const points = isOpen ? (s.dice ? score(c, s.dice) : null) : s.scores[c];
      b.classList.toggle("used", !isOpen);
      b.setAttribute("aria-disabled", isOpen && s.dice ? "false" : "true");
      b.dataset.used = isOpen ? "" : String(points);
      b.querySelector(".points").textContent = points === null ? "open" : isOpen ? `+${points}` : String(points);
      b.setAttribute("aria-label", !isOpen ? `${name}: scored ${points}` : s.dice ? `score ${name}: ${points} points` : `${name}: open`);
    });
    this.mark();
    document.body.dataset.yazy = s.over ? "over" : !s.dice ? "roll" : s.rerolls ? "keep" : "score";
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
