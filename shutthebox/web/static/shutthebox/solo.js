/* Solo: one player, one turn, for the objective "shut" (the highest chance of closing every tile)
 * or "score" (the lowest expected final score), from the single-player table of any rule set
 * (FORMAT.md 6.2: the three named ones shipped, others solved on first use). What Solo adds to the
 * shared controller (game.js): the rules and the goal, costs in the objective's words, the summary. */

import { TableError } from "../lib/format.js";
import { askDiscard, badParam, choiceParam, el, seedParam } from "../lib/ui.js";
import { newSeed } from "../lib/random.js";
import { formatMove, rollChances, tilesOf, tileSum, SoloTable } from "./table.js";
import { Turns, answerRoll } from "./turns.js";
import { GameMode } from "./game.js";
import { linkedMoves, summaryNewGame, undoneOf } from "../lib/play.js";
import { SOLO_VARIANTS, OBJECTIVES, STANDARD, describeRules, sameRules, soloName, variantOf } from "./rules.js";
import { RULE_PARAMS, rulesFromLink, ruleEntries } from "./rulesform.js";
import { $, params, showTiles, buildTiles, showDice } from "./view.js";
import { chance, chanceCost, score as scoreNum, scoreCost } from "../lib/numbers.js";

const GOALS = { shut: "shut the box", score: "lowest score" };
const moveText = (mask) => formatMove(tilesOf(mask));

/** Tiles in words: "tile 4", "tiles 1 and 5", "tiles 2, 8 and 9". */
function tileList(mask) {
  const tiles = tilesOf(mask);
  return tiles.length === 1 ? `tile ${tiles[0]}` : `tiles ${tiles.slice(0, -1).join(", ")} and ${tiles[tiles.length - 1]}`;
}

/** A value (a node, its exact value a press away): a chance to shut, or an expected final score. */
const valueText = (value, objective) => (objective === "score" ? scoreNum(value) : chance(value));

/** A cost's number alone: expected final score added, or percentage points of shutting chance lost. */
const costNumber = (cost, objective, terse = false) => (objective === "score" ? scoreCost(cost) : chanceCost(cost, { terse }));

/** What a move cost, in words and a number: chance of shutting lost, or expected final score added. */
const costText = (cost, objective) => [costNumber(cost, objective),
  objective === "score" ? " to the expected final score" : " of shutting chance"];

/** The judge of a solo table for an objective. */
export function soloJudge(table, objective) {
  return {
    best: (mask, roll) => table.bestMove(mask, roll, objective),
    value: (mask, move) => table.valueAfter(mask, move, objective),
    before: (mask) => table.value(mask, objective),
    cost: (bestValue, value) => table.cost(bestValue, value, objective),
    better: (a, b) => table.better(a, b, objective),
    dice: (mask) => table.dice(mask, objective),
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

export class Solo extends GameMode {
  constructor(app) {
    super(app, "solo", { section: "solo", tiles: "solo-tiles", dice: "solo-dice", roll: "solo-roll", rollOne: "solo-roll-one",
      confirm: "solo-confirm", clear: "solo-clear", newGame: "solo-new", message: "solo-message", feedback: "solo-feedback",
      seedLink: "solo-seed-link", undo: "solo-undo", undoAfter: "solo-hints",
      share: "solo-share", replay: "solo-replay" });
    this.rules = STANDARD;
    this.objective = "shut";
    this.table = null;
    this.started = false;
    this.awaiting = "loading";
    this.seed = 0;
  }

  get variant() { return variantOf(this.rules); }
  get board() { return this.table; }

  init() {
    this.rules = this.rulesParam();
    this.objective = choiceParam(params, "objective", OBJECTIVES, "shut", "the goal is to shut the box instead");
    this.hints = choiceParam(params, "hints", ["0", "1"], "0", "no hints instead") === "1";
    this.linkSeed = seedParam(params); // null: absent or bad (the link's moves then are not replayed)
    this.seed = this.linkSeed ?? newSeed();
    this.linkUndone = params.get("mode") === "solo" ? undoneOf(params) : null;
    this.bind();
    $("solo-variants").addEventListener("click", (event) => {
      const button = event.target.closest("[data-variant]");
      if (button) this.useRules(SOLO_VARIANTS[button.dataset.variant].rules);
    });
    $("solo-objectives").addEventListener("click", (event) => {
      const button = event.target.closest("[data-objective]");
      if (!button) return;
      const objective = button.dataset.objective;
      this.restart(`Play for ${GOALS[objective]} and start again with the same dice?`, "Change the goal",
        () => { this.objective = objective; this.start(this.seed); });
    });
    $("solo-replay").addEventListener("click", () => {
      this.restart(`Replay seed ${this.seed} from the start?`, "Replay seed", () => this.start(this.seed));
    });
    $("solo-hints").addEventListener("click", () => this.toggleHints());
  }

  /** The link's rules of Solo: `variant=NAME` (one of the three named rule sets), or the game options
   * (tiles, dice, sides, one_die, max_move_tiles, rules=PRESET) as Coach and Play take them. */
  rulesParam() {
    this.linkParam = null;
    if (params.get("variant") !== null) {
      const variant = choiceParam(params, "variant", Object.keys(SOLO_VARIANTS), "standard", "the standard rules instead");
      const rules = SOLO_VARIANTS[variant].rules;
      // Rule options beside it must be the same rules (the command line refuses others): else dropped, and named.
      // (In Coach and Play the options are those modes' own.)
      const given = params.get("mode") === "solo" ? RULE_PARAMS.filter((name) => params.get(name) !== null) : [];
      const linked = given.length ? rulesFromLink() : null;
      if (linked && !sameRules(linked.rules, rules)) {
        const why = `variant=${variant} is ${describeRules(rules)}, but the game options say ${describeRules(linked.rules)}: give one or the other`;
        for (const name of given) badParam(params, name, why, `the ${variant} rules instead`);
      }
      return rules;
    }
    const linked = params.get("mode") === "solo" ? rulesFromLink() : null;
    if (!linked || sameRules(linked.rules, STANDARD)) return STANDARD;
    this.linkParam = linked.param; // named, with the standard rules instead, if their table cannot be had
    return linked.rules;
  }

  /** Play Solo under `rules` (the Rules control's, or a named set's button): the same dice, once you confirm
   * and their table is read. Cancel at the Solve question keeps the game and its rules, as in Coach and Play. */
  async useRules(rules) {
    if (sameRules(rules, this.rules) && this.awaiting !== "error") return;
    if (this.inProgress() && !(await askDiscard("Switch rules",
      `Play Solo under ${describeRules(rules)} and start again with the same dice? The game in progress will be lost.`))) return;
    const asked = this.rulesAsked = {};
    this.linkParam = null; // rules chosen now: the link's no longer fall back
    try {
      if (this.game) await this.app.loadSoloRules(rules); // no game to keep (no table read): at once
    } catch (error) {
      if (asked !== this.rulesAsked) return; // other rules asked for meanwhile
      if (error.name === "AbortError") {
        $("rules-message").textContent = "Not changed: the table of these rules was not solved.";
        return;
      }
      // Any other failure is the game's: newGame says why in Solo.
    }
    if (asked !== this.rulesAsked) return;
    history.pushState(null, "", location.href); // Back returns to the game left
    this.rules = rules;
    this.start(this.seed);
  }

  /** Entering Solo mode: the first time, read the table and start the seeded game (the link's moves too). */
  show() {
    if (!this.started) {
      this.started = true;
      this.start(this.seed, params.get("mode") === "solo" ? linkedMoves(params, this.linkSeed) ?? "" : "");
    } else this.showUrl();
  }

  /** Back or Forward to a Solo entry: its rules, goal, hints, seed and moves. */
  fromLink() {
    this.wanted = { rules: this.rulesParam(), objective: choiceParam(params, "objective", OBJECTIVES, "shut", "the goal is to shut the box instead") };
    this.hints = params.get("hints") === "1";
    this.started = true;
    this.restore(seedParam(params) ?? this.seed);
  }

  sameSettings() {
    const w = this.wanted;
    this.wanted = null;
    if (!w) return true;
    const same = sameRules(w.rules, this.rules) && w.objective === this.objective;
    this.rules = w.rules;
    this.objective = w.objective;
    return same;
  }

  urlEntries() {
    const variant = this.variant;
    return [["seed", String(this.seed)], ...(variant ? [["variant", variant]] : ruleEntries(this.rules)),
      ["objective", this.objective], ["hints", this.hints ? "1" : null]];
  }

  /** A new game: read (or have solved) the table of the rules, then the seeded turn. A promise of true once it can be played. */
  newGame(seed) {
    const serial = this.serial;
    this.table = this.app.soloTables.get(soloName(this.rules)) || null;
    this.game = null;
    this.cost = 0; this.costs = []; this.mistakes = []; this.values = []; this.moves = 0; this.optimal = 0;
    this.start0 = null; this.bestAfterRoll = null;
    this.awaiting = "loading";
    $("solo-log").textContent = "";
    $("solo-summary").hidden = true;
    $("solo-feedback").textContent = "";
    $("solo-feedback").className = "feedback";
    $("solo-error").hidden = true;
    this.say("");
    if (this.app.mode === "solo") this.showUrl();
    this.render();
    return this.app.loadSoloRules(this.rules).then((table) => {
      if (serial !== this.serial) return false;
      this.table = table;
      this.linkParam = null;
      const objective = this.objective;
      this.game = new Turns({ board: table, seats: ["you"], seed, judge: () => soloJudge(table, objective) });
      buildTiles($("solo-tiles"), table.rules.tiles);
      this.start0 = table.value(table.allOpen, objective);
      this.values.push(this.start0);
      this.awaiting = "roll";
      this.say("Your turn: press Roll (R).");
      this.app.rulesControl.show();
      this.render();
      return true;
    }, (error) => {
      if (serial !== this.serial) return false;
      if (this.linkParam) { // the link's rules: as Coach and Play, the standard rules instead, said at the top
        badParam(params, this.linkParam, `the table of these rules could not be had (${error.message})`,
          `Solo plays the standard rules instead (${describeRules(STANDARD)})`);
        this.linkParam = null;
        this.rules = STANDARD;
        this.start(seed); // the link's moves were of the other rules
        return false;
      }
      this.awaiting = "error";
      this.table = null;
      const box = $("solo-error");
      const why = error.name === "AbortError" ? `The table ${soloName(this.rules)} was not solved.` :
        `${error instanceof TableError ? "" : "The single-player table could not be read: "}${error.message}`;
      box.textContent = `${why}\nThe other modes still work, and so do other rules.`;
      box.hidden = false;
      this.render();
      return false;
    });
  }

  log(text) { $("solo-log").append(el("li", {}, ...[text].flat())); }

  refuseMode() {
    if (this.awaiting === "error") { this.say("The table for these rules could not be read: see the message above.", true); return true; }
    return false;
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
      return false;
    }
    this.bestAfterRoll = g.judge.value(g.mask, best); // the luck of the roll
    this.values.push(this.bestAfterRoll);
    this.pendingLog = text;
    this.say(`Rolled ${g.roll}: choose open tiles that add up to it, then Close tiles (Enter).`);
    return true;
  }

  pickWords(problem) {
    return /^At most/.test(problem) && this.variant ? problem.replace(".", ` under the ${this.variant} rules.`) : problem;
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
      fb.replaceChildren(`Optimal: ${moveText(move)}${move === best ? "" : ` is exactly as good as the table's ${moveText(best)}`}. ` +
        `Your ${what}: `, valueText(value, objective), ".");
      fb.className = "feedback optimal";
      text += ", optimal.";
    } else {
      this.cost += cost;
      this.mistakes.push({ position: this.game.board.positionText(entry.position), roll: entry.roll, move, best, cost });
      fb.replaceChildren(`Not optimal: ${moveText(move)} cost `, ...costText(cost, objective), "; " +
        `the table's ${moveText(best)} gives `, valueText(bestValue, objective), ", against ", valueText(value, objective), ".");
      fb.className = "feedback mistake";
      text = [text, ", cost ", ...costText(cost, objective), ` (best ${moveText(best)}).`];
    }
    fb.dataset.cost = String(cost);
    this.costs.push(cost);
    this.values.push(value);
    this.log(text);
    this.pendingLog = null;
    if (g.over) { this.finish(); return; }
    this.say("Press Roll (R) for the next throw.");
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
      ? ["With optimal play the expected final score from the start is ", valueText(this.start0, objective), " (lower is better)."]
      : ["With optimal play the chance of shutting the box from the start is ", valueText(this.start0, objective), "."];
    const moves = this.moves ? `Your moves: ${this.moves}, optimal ${this.optimal}.` : "You made no move: the dice decided.";
    const lost = this.mistakes.length
      ? [" Your moves cost ", ...costText(this.cost, objective), " in all; the largest: ", ...this.worstText(), "."]
      : [this.moves ? " They cost nothing: perfect play." : ""];
    const undone = ` Closes taken back (Undo): ${this.undone}.`;
    // outcome = optimal expectation at the start + what the moves cost + what the dice did, shown in
    // tenths (of a point of score, or of a percentage point: the one decimal every number shows) that add
    // up exactly: the dice's part is what is left once the shown start and cost are taken from the outcome.
    // A sum of shown figures, not numbers of the table: no exact form.
    const sign = objective === "score" ? 1 : -1, unit = objective === "score" ? 1 : 100;
    const tenths = (x) => Math.round(Number((x * unit).toFixed(1)) * 10); // as shown
    const startT = tenths(this.start0), costT = tenths(this.cost);
    const luckT = tenths(result) - startT - sign * costT;
    const fmt = (h) => `${(Math.abs(h) / 10).toFixed(1)}${objective === "score" ? "" : " points"}`;
    const split = objective === "score"
      ? `Final score ${score} = ${(startT / 10).toFixed(1)} expected at the start + ${fmt(costT)} from your moves ` +
        `${luckT < 0 ? "− " : "+ "}${fmt(luckT)} from the dice.`
      : `Outcome ${shut ? "100%" : "0%"} = ${(startT / 10).toFixed(1)}% at the start − ${fmt(costT)} from your moves ` +
        `${luckT < 0 ? "− " : "+ "}${fmt(luckT)} from the dice.`;
    const summary = $("solo-summary");
    summary.textContent = "";
    summary.append(el("h2", { text: head }), el("p", {}, ...start), el("p", { id: "solo-summary-moves" }, moves, ...lost, undone), el("p", { text: split }),
      el("p", { class: "hint", text: `Seed ${this.seed}, ${this.variant ? `${SOLO_VARIANTS[this.variant].title} rules` : describeRules(this.rules)}, goal: ${GOALS[objective]}. ` +
        "Replay seed plays the same dice again." }),
      summaryNewGame("solo-summary-new", () => this.askNewGame()));
    summary.hidden = false;
    this.say(head);
    this.render();
  }

  worstText() {
    const m = this.mistakes.reduce((a, b) => (b.cost > a.cost ? b : a));
    return [...costText(m.cost, this.objective), ` at ${m.position} with roll ${m.roll}: you closed ${moveText(m.move)}, best ${moveText(m.best)}`];
  }

  render() {
    const t = this.table, g = this.game, objective = this.objective;
    const mask = g ? g.mask : 0, chosen = g ? g.chosen : 0, over = !!(g && g.over);
    for (const button of $("solo-variants").children) button.setAttribute("aria-pressed", String(button.dataset.variant === this.variant));
    for (const button of $("solo-objectives").children) button.setAttribute("aria-pressed", String(button.dataset.objective === objective));
    $("solo-hints").setAttribute("aria-pressed", String(this.hints));
    const named = this.variant ? `${SOLO_VARIANTS[this.variant].title} rules` : "Rules";
    $("solo-rules").textContent = `${named}${t ? " (from the table)" : ""}: ${describeRules(t ? t.rules : this.rules)}. Goal: ` +
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
    this.renderUndo();
    $("solo-roll-one").hidden = !(this.oneDieChoice() && this.awaiting === "roll");
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
    const vs = objective === "score" ? "Cost (score)" : "Cost";
    if (this.awaiting === "move") {
      const answer = g.hint(); // the turn controller's hint, as in Play
      moves.append(el("caption", { class: "hint", text: `${answer.moves.length} legal move${answer.moves.length > 1 ? "s" : ""} for roll ${g.roll}, best first` }),
        el("tr", {}, el("th", { text: "Close" }), el("th", { text: "Leaves", class: "hide-narrow" }),
          el("th", { class: "num", text: head }), el("th", { class: "num", text: vs })));
      for (const m of answer.moves) {
        moves.append(el("tr", { class: m.best ? "best" : "", "data-move": m.tiles.join("") },
          el("td", { text: formatMove(m.tiles) }),
          el("td", { text: m.after || "shut!", class: "hide-narrow" }),
          el("td", { class: "num", "data-value": String(m.value) }, valueText(m.value, objective)),
          el("td", { class: `num${m.cost > 0 ? " loss" : ""}` }, m.best ? "best" : m.cost > 0 ? costNumber(m.cost, objective, true) : "equal")));
      }
      return;
    }
    const chances = rollChances(t.dice(g.mask, objective), t.rules.sides);
    moves.append(el("caption", { class: "hint", text: "Best move for every roll, before rolling" }),
      el("tr", {}, el("th", { text: "Roll" }), el("th", { class: "num", text: "Chance" }),
        el("th", { text: "Best move" }), el("th", { class: "num", text: head })));
    for (const roll of t.possibleRolls(g.mask)) {
      const best = t.bestMove(g.mask, roll, objective);
      moves.append(el("tr", { "data-roll": String(roll) }, el("td", { text: String(roll) }),
        el("td", { class: "num" }, chances[roll] ? chance(chances[roll]) : "—"),
        el("td", { text: best ? moveText(best) : "none: turn ends" }),
        el("td", { class: "num" }, valueText(t.valueAfter(g.mask, best, objective), objective))));
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
      over: !!(g && g.over), awaiting: this.awaiting, moves: this.moves, optimal: this.optimal, cost: this.cost, undone: this.undone,
      costs: this.costs.slice(), values: this.values.slice(), start: this.start0,
      score: g && g.over ? tileSum(g.mask) : null, shut: g && g.over ? g.mask === 0 : null, rules: t ? t.rules : null,
    };
  }
}
