/* Solo: one player, one turn, for the objective "shut" (the highest chance of closing every tile)
 * or "score" (the lowest expected final score), from the single-player tables (FORMAT.md 6.2),
 * played through the same turn controller as Play. */

import { TableError } from "../lib/format.js";
import { askDiscard, choiceParam, el, seedParam } from "../lib/ui.js";
import { newSeed } from "../lib/random.js";
import { formatMove, rollChances, tilesOf, tileSum, SoloTable } from "./table.js";
import { Turns, answerRoll } from "./turns.js";
import { SOLO_VARIANTS, OBJECTIVES, describeRules } from "./rules.js";
import { $, params, pct, say, focusIn, roving, showTiles, buildTiles, showDice, animateDice } from "./view.js";

const GOALS = { shut: "shut the box", score: "lowest score" };
const moveText = (mask) => formatMove(tilesOf(mask));

/** Tiles in words: "tile 4", "tiles 1 and 5", "tiles 2, 8 and 9". */
function tileList(mask) {
  const tiles = tilesOf(mask);
  return tiles.length === 1 ? `tile ${tiles[0]}` : `tiles ${tiles.slice(0, -1).join(", ")} and ${tiles[tiles.length - 1]}`;
}

/** A value in words: a chance to shut, or an expected final score. */
const valueText = (value, objective) => (objective === "score" ? value.toFixed(3) : pct(value));

/** A small amount without rounding it away: 0.0012 stays visible. */
const amount = (x, digits) => (x === 0 || x >= 10 ** -digits ? x.toFixed(digits) : x.toPrecision(2));

/** What a move cost: chance of shutting lost, or expected final score added. */
const costText = (cost, objective) => (objective === "score" ? `${amount(cost, 3)} to the expected final score` :
  `${amount(cost * 100, 2)} percentage points of shutting chance`);

/** The judge of a solo table for an objective. */
export function soloJudge(table, objective) {
  return {
    best: (mask, roll) => table.bestMove(mask, roll, objective),
    value: (mask, move) => table.valueAfter(mask, move, objective),
    before: (mask) => table.value(mask, objective),
    cost: (bestValue, value) => table.cost(bestValue, value, objective),
    better: (a, b) => table.better(a, b, objective),
    dice: (mask) => table.diceFor(mask),
  };
}

/**
 * The solo coach: every legal move for a roll, the table's move first, then by the objective's
 * exact value after it, each with its cost against the best. Without a roll, only the value before rolling.
 */
export function soloAnswer(table, objective, position, roll) {
  objective = SoloTable.objective(objective);
  const mask = table.position(position);
  const judge = soloJudge(table, objective);
  return answerRoll({ variant: table.variant, objective, position: table.positionText(mask), expect: judge.before(mask),
    roll: null, moves: [], best: null, turnEnds: false, endValue: null }, table, judge, mask, roll);
}

export class Solo {
  constructor(app) {
    this.app = app;
    this.variant = "standard";
    this.objective = "shut";
    this.hints = false;
    this.table = null;
    this.game = null;
    this.started = false;
    this.awaiting = "loading";
    this.serial = 0;
    this.engaged = false;
    this.focusState = null;
    this.seed = 0;
  }

  init() {
    this.variant = choiceParam(params, "variant", Object.keys(SOLO_VARIANTS), "standard", "the standard rules instead");
    this.objective = choiceParam(params, "objective", OBJECTIVES, "shut", "the goal is to shut the box instead");
    this.hints = choiceParam(params, "hints", ["0", "1"], "0", "no hints instead") === "1";
    this.seed = seedParam(params) ?? newSeed();
    roving($("solo-tiles"));
    $("solo-tiles").addEventListener("click", (event) => {
      const tile = event.target.closest("[data-tile]");
      if (tile) this.pick(Number(tile.dataset.tile));
    });
    $("solo").addEventListener("click", () => { this.engaged = true; }, true);
    $("solo-variants").addEventListener("click", (event) => {
      const button = event.target.closest("[data-variant]");
      if (!button) return;
      const variant = button.dataset.variant;
      this.restart(`Switch to the ${SOLO_VARIANTS[variant].title.toLowerCase()} rules and start again with the same dice?`,
        "Switch rules", () => { this.variant = variant; this.newGame(this.seed); });
    });
    $("solo-objectives").addEventListener("click", (event) => {
      const button = event.target.closest("[data-objective]");
      if (!button) return;
      const objective = button.dataset.objective;
      this.restart(`Play for ${GOALS[objective]} and start again with the same dice?`, "Change the goal",
        () => { this.objective = objective; this.newGame(this.seed); });
    });
    $("solo-roll").addEventListener("click", () => this.throwDice());
    $("solo-confirm").addEventListener("click", () => this.confirm());
    $("solo-clear").addEventListener("click", () => this.clear());
    $("solo-new").addEventListener("click", () => this.askNewGame());
    $("solo-replay").addEventListener("click", () => {
      this.restart(`Replay seed ${this.seed} from the start?`, "Replay seed", () => this.newGame(this.seed));
    });
    $("solo-hints").addEventListener("click", () => this.toggleHints());
  }

  /** A turn you have rolled in and not finished. */
  inProgress() { return !!this.game && !this.game.over && this.game.rolled > 0 && this.awaiting !== "error"; }

  /** Run `start` (a new game), once you confirm if that throws away a turn in progress. */
  async restart(question, yesText, start) {
    if (!this.inProgress() || await askDiscard(yesText, `${question} The game in progress will be lost.`)) start();
  }

  askNewGame() { this.restart("Start a new game with new dice?", "New game", () => this.newGame(newSeed())); }

  focusNext() {
    const now = this.game && this.game.over ? "over" : this.awaiting;
    if (now === this.focusState) return;
    this.focusState = now;
    if (!this.engaged) return;
    focusIn($("solo"), { over: $("solo-new"), roll: $("solo-roll"), move: $("solo-confirm") }[now]);
  }

  /** Entering Solo mode: the first time, read the table and start the seeded game. */
  show() {
    if (!this.started) { this.started = true; this.newGame(this.seed); } else this.showUrl();
  }

  showUrl() {
    this.app.setUrl([["mode", "solo"], ["seed", String(this.seed)], ["variant", this.variant], ["objective", this.objective],
      ["hints", this.hints ? "1" : null]]);
    $("solo-seed-link").textContent = String(this.seed);
    $("solo-seed-link").href = location.href;
  }

  key(key) {
    if (/^[0-9]$/.test(key) || /^[rRnN]$/.test(key) || key === "Enter" || key === "Escape") this.engaged = true;
    if (/^[0-9]$/.test(key)) { this.pick(key === "0" ? 10 : Number(key)); return true; }
    if (key === "r" || key === "R") { this.throwDice(); return true; }
    if (key === "Enter" && this.awaiting === "move") { this.confirm(); return true; }
    if (key === "Escape") { this.clear(); return true; }
    if (key === "n" || key === "N") { this.askNewGame(); return true; }
    if (key === "h" || key === "H") { this.toggleHints(); return true; }
    return false;
  }

  toggleHints() {
    this.hints = !this.hints;
    if (this.app.mode === "solo") this.showUrl();
    this.render();
  }

  clear() {
    if (this.game) this.game.chosen = 0;
    this.say("");
    this.render();
  }

  newGame(seed) {
    const serial = ++this.serial;
    this.seed = seed >>> 0;
    this.table = this.app.soloTables[this.variant] || null;
    this.game = null;
    this.cost = 0; this.costs = []; this.mistakes = []; this.values = []; this.moves = 0; this.optimal = 0;
    this.start = null; this.bestAfterRoll = null; this.focusState = null;
    this.awaiting = "loading";
    $("solo-log").textContent = "";
    $("solo-summary").hidden = true;
    $("solo-feedback").textContent = "";
    $("solo-feedback").className = "feedback";
    $("solo-error").hidden = true;
    this.say("");
    if (this.app.mode === "solo") this.showUrl();
    this.render();
    this.app.loadSolo(this.variant).then((table) => {
      if (serial !== this.serial) return;
      this.table = table;
      const objective = this.objective;
      this.game = new Turns({ board: table, seats: ["you"], seed: this.seed, judge: () => soloJudge(table, objective) });
      buildTiles($("solo-tiles"), table.rules.tiles);
      this.start = table.value(table.allOpen, objective);
      this.values.push(this.start);
      this.awaiting = "roll";
      this.say("Your turn: press Roll (R).");
      this.render();
    }, (error) => {
      if (serial !== this.serial) return;
      this.awaiting = "error";
      this.table = null;
      const box = $("solo-error");
      box.textContent = `${error instanceof TableError ? "" : "The single-player table could not be read: "}${error.message}\nThe other modes still work.`;
      box.hidden = false;
      this.render();
    });
  }

  say(text, refused = false) { say($("solo-message"), text, refused); }

  log(text) { $("solo-log").append(el("li", { text })); }

  /** Refuse an action the game's state does not allow; true if refused. */
  refuse(action) {
    if (this.awaiting === "loading" || this.awaiting === "rolling") return true;
    if (this.awaiting === "error") { this.say("The table for these rules could not be read: see the message above.", true); return true; }
    if (this.game.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return true; }
    if (action !== "roll" && this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return true; }
    if (action === "roll" && this.awaiting === "move") {
      this.say(`You have rolled ${this.game.roll} already: close tiles that add up to it.`, true);
      return true;
    }
    return false;
  }

  throwDice() {
    if (this.refuse("roll")) return;
    const serial = this.serial, g = this.game;
    const dice = g.throwDice();
    this.awaiting = "rolling";
    this.say("");
    $("solo-feedback").textContent = "";
    this.render();
    animateDice($("solo-dice"), dice.length, this.table.rules.sides).then(() => {
      if (serial !== this.serial) return;
      this.afterRoll();
    });
  }

  /** After a roll: wait for a move, or end the turn when no open tiles make the roll. */
  afterRoll() {
    const g = this.game;
    const best = g.settle();
    const text = `Rolled ${g.roll}${g.dice.length > 1 ? ` (${g.dice.join(" + ")})` : ""}`;
    if (!best) {
      const limit = this.table.rules.maxMoveTiles;
      this.log(`${text}: no ${limit ? `${limit} or fewer ` : ""}open tiles add up to it.`);
      g.endTurn();
      this.finish();
      return;
    }
    this.bestAfterRoll = g.judge.value(g.mask, best); // the luck of the roll
    this.values.push(this.bestAfterRoll);
    this.pendingLog = text;
    this.awaiting = "move";
    this.say(`Rolled ${g.roll}: choose open tiles that add up to it, then Close tiles (Enter).`);
    this.render();
  }

  pick(tile) {
    if (!this.table || tile > this.table.rules.tiles || this.refuse("pick")) return;
    const g = this.game;
    let problem = g.pick(tile);
    if (problem) {
      if (/^At most/.test(problem)) problem = problem.replace(".", ` under the ${this.variant} rules.`);
      this.say(problem, true);
      return;
    }
    this.say(g.chosenText());
    this.render();
  }

  confirm() {
    if (this.refuse("confirm")) return;
    const problem = this.game.confirmProblem();
    if (problem) { this.say(problem, true); return; }
    this.applyMove(this.game.chosen);
  }

  applyMove(move) {
    const g = this.game, objective = this.objective;
    const entry = g.close(move);
    const { best, value, bestValue, cost } = entry;
    const what = objective === "score" ? "expected final score" : "chance of shutting the box";
    const fb = $("solo-feedback");
    let text = `${this.pendingLog}: closed ${moveText(move)}`;
    this.moves += 1;
    if (cost === 0) {
      this.optimal += 1;
      fb.textContent = `Optimal: ${moveText(move)}${move === best ? "" : ` is exactly as good as the table's ${moveText(best)}`}. ` +
        `Your ${what}: ${valueText(value, objective)}.`;
      fb.className = "feedback optimal";
      text += ", optimal.";
    } else {
      this.cost += cost;
      this.mistakes.push({ position: this.game.board.positionText(entry.position), roll: entry.roll, move, best, cost });
      fb.textContent = `Not optimal: ${moveText(best)} was best (${what} ${valueText(bestValue, objective)}); ` +
        `${moveText(move)} leaves ${valueText(value, objective)}, costing ${costText(cost, objective)}.`;
      fb.className = "feedback mistake";
      text += `, cost ${costText(cost, objective)} (best ${moveText(best)}).`;
    }
    fb.dataset.cost = String(cost);
    this.costs.push(cost);
    this.values.push(value);
    this.log(text);
    this.pendingLog = null;
    if (g.over) { this.finish(); return; }
    this.awaiting = "roll";
    this.say("Press Roll (R) for the next throw.");
    this.render();
  }

  finish() {
    const g = this.game, objective = this.objective, shut = !g.mask, score = tileSum(g.mask);
    this.awaiting = "over";
    const result = objective === "score" ? score : shut ? 1 : 0;
    this.values.push(result);
    const head = shut ? `You shut the box!${objective === "score" ? " Final score 0." : ""}` :
      `Final score ${score}: ${tileList(g.mask)} left open.`;
    this.log(shut ? "Box shut!" : `The turn ends with score ${score}.`);
    const start = objective === "score"
      ? `With optimal play the expected final score from the start is ${valueText(this.start, objective)} (lower is better).`
      : `With optimal play the chance of shutting the box from the start is ${valueText(this.start, objective)}.`;
    const moves = this.moves ? `Your moves: ${this.moves}, optimal ${this.optimal}.` : "You made no move: the dice decided.";
    const lost = this.mistakes.length
      ? ` Your moves cost ${costText(this.cost, objective)} in all; the largest: ${this.worstText()}.`
      : this.moves ? " They cost nothing: perfect play." : "";
    // outcome = optimal expectation at the start + what the moves cost + what the dice did, shown in
    // hundredths (of a point of score, or of a percentage point) that add up exactly: the dice's part is
    // what is left once the shown start and cost are taken from the outcome.
    const sign = objective === "score" ? 1 : -1, unit = objective === "score" ? 1 : 100;
    const hundredths = (x) => Math.round(Number((x * unit).toFixed(2)) * 100); // as shown
    const startH = hundredths(this.start), costH = hundredths(this.cost);
    const luckH = hundredths(result) - startH - sign * costH;
    const fmt = (h) => `${(Math.abs(h) / 100).toFixed(2)}${objective === "score" ? "" : " points"}`;
    const split = objective === "score"
      ? `Final score ${score} = ${(startH / 100).toFixed(2)} expected at the start + ${fmt(costH)} from your moves ` +
        `${luckH < 0 ? "− " : "+ "}${fmt(luckH)} from the dice.`
      : `Outcome ${shut ? "100%" : "0%"} = ${(startH / 100).toFixed(2)}% at the start − ${fmt(costH)} from your moves ` +
        `${luckH < 0 ? "− " : "+ "}${fmt(luckH)} from the dice.`;
    const summary = $("solo-summary");
    summary.textContent = "";
    summary.append(el("h2", { text: head }), el("p", { text: start }), el("p", { text: moves + lost }), el("p", { text: split }),
      el("p", { class: "hint", text: `Seed ${this.seed}, ${SOLO_VARIANTS[this.variant].title} rules, goal: ${GOALS[objective]}. ` +
        "Replay seed plays the same dice again." }));
    summary.hidden = false;
    this.say(head);
    this.render();
  }

  worstText() {
    const m = this.mistakes.reduce((a, b) => (b.cost > a.cost ? b : a));
    return `${costText(m.cost, this.objective)} at ${m.position} with roll ${m.roll}: you closed ${moveText(m.move)}, best ${moveText(m.best)}`;
  }

  render() {
    const t = this.table, g = this.game, objective = this.objective;
    const mask = g ? g.mask : 0, chosen = g ? g.chosen : 0, over = !!(g && g.over);
    for (const button of $("solo-variants").children) button.setAttribute("aria-pressed", String(button.dataset.variant === this.variant));
    for (const button of $("solo-objectives").children) button.setAttribute("aria-pressed", String(button.dataset.objective === objective));
    $("solo-hints").setAttribute("aria-pressed", String(this.hints));
    $("solo-rules").textContent = `${SOLO_VARIANTS[this.variant].title} rules${t ? ` (from the table): ${describeRules(t.rules)}` : ""}. Goal: ` +
      (objective === "score" ? "the lowest final score, the sum of the tiles left open (0 when shut)." : "shut the box, closing every tile.");
    $("solo-info").textContent = t ? `Solo table: ${t.url} (${t.size} bytes, CRC-32 checked); ${t.header.generator}.` : "";
    const board = $("solo-board");
    board.textContent = "";
    const status = { loading: "Reading the table…", error: "No table", roll: "Roll the dice", rolling: "Rolling…",
      move: `Close tiles making ${g && g.roll}`, over: "Game over" }[this.awaiting];
    board.append(el("span", { class: "turn", text: status }));
    if (t && g && mask && !over) {
      const now = this.awaiting === "move" ? this.bestAfterRoll : t.value(mask, objective);
      board.append(el("span", { "data-value": String(now), text: `${objective === "score" ? "Expected final score: " : "Chance to shut: "}${valueText(now, objective)}` }));
    }
    if (t && g) board.append(el("span", { text: `Open: ${g.board.positionText(mask)} (sum ${tileSum(mask)})` }));
    board.append(el("span", { text: `Moves: ${this.moves}${this.moves ? `, optimal ${this.optimal}` : ""}` }));
    showTiles($("solo-tiles"), mask, chosen);
    if (this.awaiting !== "rolling") showDice($("solo-dice"), g ? g.dice : [], this.shownRoll());
    // aria-disabled, not disabled: a focused button keeps the focus (and pressing it says why it waits).
    $("solo-roll").setAttribute("aria-disabled", String(this.awaiting !== "roll"));
    $("solo-confirm").setAttribute("aria-disabled", String(this.awaiting !== "move"));
    this.renderHints();
    document.body.dataset.solo = this.awaiting;
    this.focusNext();
  }

  /** The solo coach: the legal moves ranked by the objective's exact value, or the best move for every roll. */
  renderHints() {
    const moves = $("solo-moves"), t = this.table, g = this.game, objective = this.objective;
    moves.textContent = "";
    moves.hidden = !this.hints || !t || !g || !g.mask || g.over || this.awaiting === "rolling";
    if (moves.hidden) return;
    const head = objective === "score" ? "Expected score" : "Chance to shut";
    const vs = objective === "score" ? "vs best (score)" : "vs best (points)";
    if (this.awaiting === "move") {
      const answer = g.hint(); // the turn controller's hint, as in Play
      moves.append(el("caption", { class: "hint", text: `${answer.moves.length} legal move${answer.moves.length > 1 ? "s" : ""} for roll ${g.roll}, best first` }),
        el("tr", {}, el("th", { text: "Close" }), el("th", { text: "Leaves", class: "hide-narrow" }),
          el("th", { class: "num", text: head }), el("th", { class: "num", text: vs })));
      for (const m of answer.moves) {
        moves.append(el("tr", { class: m.best ? "best" : "", "data-move": m.tiles.join("") },
          el("td", { text: formatMove(m.tiles) }),
          el("td", { text: m.after || "shut!", class: "hide-narrow" }),
          el("td", { class: "num", "data-value": String(m.value), text: valueText(m.value, objective) }),
          el("td", { class: `num${m.cost > 0 ? " loss" : ""}`, text: m.best ? "best" : m.cost > 0 ?
            (objective === "score" ? `+${amount(m.cost, 3)}` : `−${amount(m.cost * 100, 2)}`) : "equal" })));
      }
      return;
    }
    const chances = rollChances(t.diceFor(g.mask), t.rules.sides);
    moves.append(el("caption", { class: "hint", text: "Best move for every roll, before rolling" }),
      el("tr", {}, el("th", { text: "Roll" }), el("th", { class: "num", text: "Chance" }),
        el("th", { text: "Best move" }), el("th", { class: "num", text: head })));
    for (const roll of t.possibleRolls(g.mask)) {
      const best = t.bestMove(g.mask, roll, objective);
      moves.append(el("tr", { "data-roll": String(roll) }, el("td", { text: String(roll) }),
        el("td", { class: "num", text: pct(chances[roll]) }),
        el("td", { text: best ? moveText(best) : "none: turn ends" }),
        el("td", { class: "num", text: valueText(t.valueAfter(g.mask, best, objective), objective) })));
    }
  }

  /** The roll on the dice: the current one, or the one that ended the turn. */
  shownRoll() {
    const g = this.game;
    if (!g) return null;
    return g.over && g.mask ? g.history[g.history.length - 1].roll : g.roll;
  }

  state() {
    const t = this.table, g = this.game;
    return {
      variant: this.variant, objective: this.objective, seed: this.seed, position: g ? g.board.positionText(g.mask) : "",
      roll: this.awaiting === "rolling" ? null : this.shownRoll(), dice: g ? g.dice.slice() : [], chosen: g ? tilesOf(g.chosen) : [],
      over: !!(g && g.over), awaiting: this.awaiting, moves: this.moves, optimal: this.optimal, cost: this.cost,
      costs: this.costs.slice(), values: this.values.slice(), start: this.start,
      score: g && g.over ? tileSum(g.mask) : null, shut: g && g.over ? g.mask === 0 : null, rules: t ? t.rules : null,
    };
  }
}
