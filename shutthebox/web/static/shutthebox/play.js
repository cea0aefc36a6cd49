/* Play: you take one seat of N (`seat`), the computer plays the others optimally from the table.
 * What Play adds to the shared controller (game.js): the seats and the computer's turns, feedback
 * in winning chance after each of your moves, a chart of your chance of winning, a Hint (H) for
 * the current roll (the best close's tiles marked on the board), a history whose rows open their position
 * in Coach, and the summary (with how many closes Undo took back). */

import { formatMove, rollChances, tilesOf } from "./table.js";
import { Turns, PLAYER_WORDS } from "./turns.js";
import { playersJudge, playerName } from "./coach.js";
import { sixDecimals } from "../lib/notation.js";
import { choiceParam, el, plural, seedParam } from "../lib/ui.js";
import { newSeed } from "../lib/random.js";
import { GameMode, closeText } from "./game.js";
import { hintMarks, linkedMoves, summaryNewGame, undoneOf } from "../lib/play.js";
import { $, params, say, showTiles, buildTiles, showDice } from "./view.js";
import { chance, chanceCost, percent } from "../lib/numbers.js";

const moveText = (mask) => formatMove(tilesOf(mask));

/** The width of `text` as `svg` draws a label, in its own units; 0 where it is not drawn (hidden). */
function textWidth(svg, text) {
  const probe = document.createElementNS("http://www.w3.org/2000/svg", "text");
  probe.textContent = text;
  svg.append(probe);
  const width = Math.ceil(probe.getBBox().width);
  probe.remove();
  return width;
}

export class Play extends GameMode {
  constructor(app) {
    super(app, "play", { section: "play", tiles: "play-tiles", dice: "dice", roll: "roll", rollOne: "roll-one", confirm: "confirm",
      clear: "clear", newGame: "new-game", message: "play-message", feedback: "feedback", seedLink: "seed-link",
      undo: "play-undo", undoAfter: "play-hint",
      share: "play-share", replay: "replay" });
    this.points = [];
    this.moves = 0;
    this.optimal = 0;
    this.lost = 0;
    this.mistakes = [];
    this.you = 1; // your seat
  }

  get table() { return this.app.table; }
  get seat() { return this.game ? this.game.seats.indexOf("you") + 1 : this.you; }

  init() {
    this.bind();
    $("seats").addEventListener("click", (event) => {
      const button = event.target.closest("[data-seat]");
      if (!button) return;
      const seat = Number(button.dataset.seat), name = playerName(seat, false);
      this.restart(`Start again as ${name}, with the same dice?`, `Start as ${name}`, () => { this.you = seat; this.start(this.seed); });
    });
    $("replay").addEventListener("click", () => {
      this.restart(`Replay seed ${this.seed} from the start?`, "Replay seed", () => this.start(this.seed));
    });
    $("play-hint").addEventListener("click", () => this.toggleHints());
    const note = el("span", { id: "play-hint-mark", class: "visually-hidden" });
    $("play-hints").parentElement.after(note);
    this.marks = hintMarks(note);
    const mine = params.get("mode") === "play" || params.get("mode") === null; // the link's game is Play's
    this.linkUndone = mine ? undoneOf(params) : null;
    // Drawn again when shown or resized: its labels are measured (renderChart), and a hidden chart measures none.
    new ResizeObserver(() => this.renderChart()).observe($("chart"));
    $("log").addEventListener("click", (event) => {
      const button = event.target.closest("[data-entry]");
      if (button) this.openInCoach(this.game.history[Number(button.dataset.entry)]);
    });
    this.you = this.seatParam();
    const seed = seedParam(params);
    this.start(seed ?? newSeed(), mine ? linkedMoves(params, seed) ?? "" : "");
  }

  /** The link's seat, checked against the table's players. */
  seatParam() {
    const seats = Array.from({ length: this.table.players }, (_, i) => String(i + 1));
    return Number(choiceParam(params, "seat", seats, "1", "you are player one instead"));
  }

  /** The table changed (other rules or players): a new game with the same dice. */
  rebuild() {
    this.you = Math.min(this.seat, this.table.players);
    this.start(this.game ? this.seed : newSeed());
  }

  /** Back or Forward to a Play entry: its seat, seed and moves. */
  fromLink() {
    this.restoreSeat = this.seatParam();
    this.restore(seedParam(params) ?? this.seed);
  }

  sameSettings() {
    const same = this.restoreSeat === undefined || this.restoreSeat === this.seat;
    if (!same) this.you = this.restoreSeat;
    this.restoreSeat = undefined;
    return same;
  }

  urlEntries() { return [["seed", String(this.seed)], ["seat", String(this.seat)]]; }

  newGame(seed) {
    const t = this.table, seat = this.you;
    const seats = Array.from({ length: t.players }, (_, i) => (i + 1 === seat ? "you" : "computer"));
    this.game = new Turns({ board: t, seats, seed, judge: (g) => playersJudge(t, g.scores) });
    this.awaiting = "none";
    this.points = [];
    this.moves = 0; this.optimal = 0; this.lost = 0; this.mistakes = [];
    this.result = null;
    buildTiles($("play-tiles"), t.rules.tiles);
    const group = $("seats");
    if (group.children.length !== t.players) { // built again only for another number of players: the focus stays
      group.textContent = "";
      for (let k = 1; k <= t.players; k++) {
        group.append(el("button", { type: "button", id: `seat-${k}`, class: "choice", "data-seat": String(k),
          text: t.players === 2 ? playerName(k) : String(k), "aria-label": t.players === 2 ? null : playerName(k) }));
      }
    }
    for (const button of group.children) button.setAttribute("aria-pressed", String(Number(button.dataset.seat) === seat));
    $("log").textContent = "";
    $("summary").hidden = true;
    $("feedback").textContent = "";
    $("feedback").className = "feedback";
    this.say("");
    this.addPoint("start", false);
    if (this.app.mode === "play") this.showUrl();
    return Promise.resolve(true);
  }

  /** Your chance of winning before the player to move rolls; null where the table does not say (more players). */
  youChance() {
    const g = this.game, t = this.table, seat = this.seat;
    if (g.over) return g.shares()[seat - 1];
    if (t.players === 2) {
      const p1 = g.player === 1 ? t.e(0, g.mask) : 1 - t.e(g.scores[0], g.mask);
      return seat === 1 ? p1 : 1 - p1;
    }
    return g.player === seat ? g.judge.before(g.mask) : null;
  }

  /** Your chance after the mover's value `value` (their expected wins): yours, or the other's complement (2 players). */
  chanceOf(value) {
    const g = this.game;
    if (value === null) return null;
    if (g.player === this.seat) return value;
    return this.table.players === 2 ? 1 - value : null;
  }

  addPoint(kind, mistake, chance = this.youChance()) {
    if (chance === null) return;
    this.points.push({ chance, kind, mistake, player: this.game.player });
    this.renderChart();
  }

  say(text, refused = false) { say($("play-message"), text, refused); }

  /** One line of the history (text, or words and numbers); a roll's line opens its position in Coach. */
  log(text, mine, entry = null) {
    const g = this.game;
    const item = el("li", { class: mine ? "you" : "" }, ...[text].flat());
    if (entry !== null) {
      const index = g.history.indexOf(entry);
      item.append(" ", el("button", { type: "button", class: "link", "data-entry": String(index),
        "aria-label": `Open move ${index + 1} in Coach (${playerName(entry.player, false)}, ${g.board.positionText(entry.position)}, roll ${entry.roll})`,
        text: "coach" }));
    }
    $("log").append(item);
  }

  who(player) {
    return `${player === this.seat ? "You" : "Computer"} (player ${PLAYER_WORDS[player - 1]})`;
  }

  /** The computer's roll and move (one roll of its turn), paced so that each can be read. */
  async computerStep() {
    const g = this.game, serial = this.serial;
    await this.pause(450);
    if (serial !== this.serial) return;
    await this.throwDice();
    if (serial !== this.serial) return;
    if (this.afterRoll()) {
      await this.pause(650);
      if (serial !== this.serial) return;
      const best = g.judge.best(g.mask, g.roll);
      g.chosen = best;
      this.render();
      await this.pause(450);
      if (serial !== this.serial) return;
      this.applyMove(best, false);
    }
  }

  /** Your roll settled: where one die was optional, whether the table would have thrown the same. */
  afterYourRoll() {
    const g = this.game;
    if (this.board.diceChoices(g.mask).length < 2) return;
    const { count: thrown, best } = g.diceChoice;
    $("feedback").textContent = thrown === best ? `Dice: ${thrown === 1 ? "one die" : "all dice"}, as the table throws here.` :
      `Dice: the table throws ${best === 1 ? "one die" : "all dice"} here, not ${thrown === 1 ? "one die" : "all dice"}.`;
    $("feedback").className = `feedback ${thrown === best ? "optimal" : "mistake"}`;
  }

  /** After a roll: true if a move must be chosen, false if the turn ended. */
  afterRoll() {
    const g = this.game;
    const best = g.settle();
    const text = `${this.who(g.player)} rolled ${g.roll}${g.dice.length > 1 ? ` (${g.dice.join(" + ")})` : ""}`;
    if (!best) {
      this.log(`${text}: no open tiles add up to it.`, g.human);
      this.endTurn();
      return false;
    }
    // The chance with best play from here: shows the luck of the roll.
    this.addPoint("roll", false, this.chanceOf(g.judge.value(g.mask, best)));
    this.pendingLog = text;
    return true;
  }

  applyMove(move, mine) {
    const g = this.game;
    const entry = g.close(move);
    const { best, value, bestValue, cost: loss } = entry;
    let text = `${this.pendingLog || ""}: closed ${moveText(move)}`;
    let mistake = false;
    if (mine) {
      this.moves += 1;
      const fb = $("feedback");
      if (move === best || loss === 0) {
        this.optimal += 1;
        fb.replaceChildren(`Optimal: ${moveText(move)}${move === best ? "" : ` is exactly as good as the table's ${moveText(best)}`}. ` +
          "Your chance of winning: ", chance(value), ".");
        fb.className = "feedback optimal";
        text += ", optimal.";
      } else {
        mistake = true;
        this.lost += loss;
        this.mistakes.push({ position: this.game.board.positionText(entry.position), roll: entry.roll, move, best, loss });
        fb.replaceChildren(`Not optimal: ${moveText(move)} cost `, chanceCost(loss), " of winning chance; " +
          `the table's ${moveText(best)} gives you `, chance(bestValue), ", against ", chance(value), ".");
        fb.className = "feedback mistake";
        text = [text, ", cost ", chanceCost(loss), ` (best ${moveText(best)}).`];
      }
      fb.dataset.loss = String(loss);
    } else {
      text += ".";
    }
    this.log(text, mine, entry);
    this.pendingLog = null;
    if (g.over) {
      this.log(`${this.who(g.shutBy)} shut the box!`, mine);
      this.finish();
      return;
    }
    this.addPoint("move", mistake);
    if (mine) this.say(`Closed ${tilesOf(move).join(" + ")}. Press Roll (R) for your next throw.`);
    this.render();
  }

  endTurn() {
    const g = this.game, t = this.table;
    const player = g.player;
    const score = g.endTurn();
    const mine = player === this.seat;
    if (t.players === 2 && player === 1) {
      this.log(`${this.who(1)} finished with score ${score}. ${this.who(2)} must end below ${score} to win.`, mine);
      this.say(`Player one finished with ${score}. Player two's turn: the score to beat is ${score}.` +
        (this.seat === 2 ? " Press Roll (R)." : ""));
      this.addPoint("turn", false);
    } else if (!g.over) {
      const best = Math.min(...g.scores);
      this.log(`${this.who(player)} finished with score ${score}.`, mine);
      this.say(`${playerName(player)} finished with ${score}. ${playerName(g.player)}'s turn: the best score so far is ${best}.` +
        (g.player === this.seat ? " Press Roll (R)." : ""));
      this.addPoint("turn", false);
    } else {
      this.log(`${this.who(player)} finished with score ${score}.`, mine);
      this.finish();
    }
  }

  finish() {
    const g = this.game, t = this.table;
    this.awaiting = "over";
    const mine = g.shares()[this.seat - 1];
    this.result = mine;
    this.addPoint("end", false, mine);
    const head = mine === 1 ? "You win!" : mine === 0 ? "The computer wins." :
      t.players === 2 ? "A tie: half a win each." : `A tie: you share the win (${percent(mine)}).`;
    let scores;
    if (t.players === 2) {
      const [s1, s2] = [g.scores[0] ?? null, g.scores[1] ?? null];
      scores = s1 === null ? "Player one shut the box." :
        s2 === null ? `Player two shut the box (player one scored ${s1}).` : `Player one scored ${s1}, player two ${s2}.`;
    } else {
      scores = g.scores.map((s, i) => `${playerName(i + 1, i === 0)} scored ${s}`).join(", ") +
        (g.shutBy ? `${g.scores.length ? "; " : ""}${playerName(g.shutBy, !g.scores.length)} shut the box.` : ".");
    }
    const summary = $("summary");
    summary.textContent = "";
    const start = this.points.length && this.points[0].kind === "start" ? [" Your chance of winning at the start was ", chance(this.points[0].chance), "."] : [];
    const moves = this.moves ? `Your moves: ${this.moves}, optimal ${this.optimal}.` : "You made no move: the dice decided.";
    const lost = this.mistakes.length
      ? [" Your moves cost ", chanceCost(this.lost), " of winning chance in all; the largest: ", ...this.worst(), "."]
      : [this.moves ? " They cost nothing: perfect play." : ""];
    const undone = ` Closes taken back (Undo): ${this.undone}.`;
    summary.append(el("h2", { text: head }), el("p", {}, scores, ...start), el("p", { id: "summary-moves" }, moves, ...lost, undone),
      el("p", { class: "hint", text: `Seed ${g.seed}: Replay seed plays the same dice again.` }),
      summaryNewGame("summary-new", () => this.askNewGame()));
    summary.hidden = false;
    this.say(head);
    this.render();
  }

  worst() {
    const m = this.mistakes.reduce((a, b) => (b.loss > a.loss ? b : a));
    return [chanceCost(m.loss), ` at ${m.position} with roll ${m.roll}: you closed ${moveText(m.move)}, best ${moveText(m.best)}`];
  }

  /** A history row's question in Coach: that player, the scores posted before, the position and the roll. */
  openInCoach(entry) {
    if (!entry) return;
    this.app.setMode("coach", true); // a history entry of its own: Back returns to this very point of the game
    this.app.coach.open(entry.scores, entry.position, entry.roll);
    document.querySelector("#coach-rolls [aria-pressed='true']")?.focus();
  }

  render() {
    const g = this.game, t = this.table;
    const board = $("scoreboard");
    board.textContent = "";
    const turn = g.over ? "Game over" : `${g.human ? "Your turn" : "Computer's turn"} (player ${PLAYER_WORDS[g.player - 1]})`;
    board.append(el("span", { class: "turn", text: turn }));
    for (let k = 1; k <= t.players; k++) {
      const posted = g.scores[k - 1];
      const status = posted !== undefined ? posted : g.shutBy === k ? "shut the box" :
        k === g.player && !g.over ? "playing" : g.over ? "did not play" : "waiting";
      board.append(el("span", { text: `${playerName(k)}${k === this.seat && t.players > 2 ? " (you)" : ""}: ${status}` }));
    }
    if (g.player > 1 && g.scores.length) {
      board.append(el("span", { text: `${t.players === 2 ? "Score to beat" : "Best score"}: ${Math.min(...g.scores)}` }));
    }
    // With more players the table holds only the mover's chance: between your turns it is not known,
    // and the last one seen would be stale.
    const last = this.points.length ? this.points[this.points.length - 1].chance : null;
    const known = last !== null && (t.players === 2 || g.over || g.player === this.seat);
    board.append(el("span", { title: known ? null : "The table holds the chance of the player to move only" },
      ...(known ? ["Your chance: ", chance(last)] : ["Your chance: known on your turn"])));
    showTiles($("play-tiles"), g.mask, g.chosen);
    if (g.roll !== null || !g.dice.length || this.awaiting !== "rolling") showDice($("dice"), g.dice, g.roll);
    // aria-disabled, not disabled: a focused button keeps the focus through the computer's turn (and says why it waits).
    $("roll").setAttribute("aria-disabled", String(g.over || !g.human || this.awaiting !== "roll"));
    $("confirm").setAttribute("aria-disabled", String(g.over || !g.human || this.awaiting !== "move"));
    $("roll-one").hidden = !(this.oneDieChoice() && this.awaiting === "roll");
    $("play-hint").setAttribute("aria-pressed", String(this.hints));
    this.renderUndo();
    this.renderHints();
    document.body.dataset.play = g.over ? "over" : this.awaiting;
    this.focusNext();
  }

  /** The Hint: for the current roll every legal move with your expected wins after it; before rolling the best move for every roll. */
  renderHints() {
    const g = this.game, t = this.table, box = $("play-hints");
    box.textContent = "";
    box.hidden = !this.hints || g.over || !g.human || this.awaiting === "rolling" || this.awaiting === "computer";
    this.marks.clear();
    if (box.hidden) return;
    if (this.awaiting === "move" && g.roll !== null) {
      const { moves } = g.hint();
      const top = moves.find((m) => m.best);
      if (top) this.marks.set(top.tiles.map((tile) => ({ node: $("play-tiles").querySelector(`[data-tile="${tile}"]`), word: "best" })),
        `The hint's close: ${formatMove(top.tiles)}.`);
      box.append(el("caption", { class: "hint", text: `Hint: ${plural(moves.length, "legal move")} for roll ${g.roll}, best first` }),
        el("tr", {}, el("th", { text: "Close" }), el("th", { class: "num", text: "Wins" }), el("th", { class: "num", text: "Expected wins" })));
      for (const m of moves) {
        box.append(el("tr", { class: m.best ? "best" : "", "data-move": m.tiles.join("") }, el("td", { text: formatMove(m.tiles) }),
          el("td", { class: "num" }, chance(m.value)), el("td", { class: "num", "data-value": String(m.value), text: sixDecimals(m.value) })));
      }
      return;
    }
    const judge = g.judge, rolls = t.possibleRolls(g.mask), chances = rollChances(judge.dice(g.mask), t.rules.sides);
    box.append(el("caption", { class: "hint", text: "Hint: the best move for every roll, before rolling" }),
      el("tr", {}, el("th", { text: "Roll" }), el("th", { class: "num", text: "Chance" }), el("th", { text: "Best move" }),
        el("th", { class: "num", text: "Wins" })));
    for (const roll of rolls) {
      const best = judge.best(g.mask, roll), value = judge.value(g.mask, best);
      box.append(el("tr", { "data-roll": String(roll) }, el("td", { text: String(roll) }),
        el("td", { class: "num" }, chances[roll] ? chance(chances[roll]) : "—"), el("td", { text: best ? moveText(best) : "none: turn ends" }),
        el("td", { class: "num" }, value === null ? "—" : chance(value))));
    }
  }

  renderChart() {
    const svg = $("chart");
    // The labels' size depends on the screen (style.css) and their width on the font: measured, so the left
    // margin holds "100%" and a turn's label goes where it fits.
    const W = 600, H = 200, L = Math.max(44, textWidth(svg, "100%") + 12), R = 12, T = 12, B = 24;
    const n = this.points.length;
    const x = (i) => L + (n > 1 ? (i * (W - L - R)) / (n - 1) : 0);
    const y = (v) => T + (1 - v) * (H - T - B);
    const parts = [];
    for (const v of [0, 0.5, 1]) {
      parts.push(`<line class="${v === 0.5 ? "half" : "axis"}" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/>`);
      parts.push(`<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v * 100}%</text>`);
    }
    const line = [];
    this.points.forEach((p, i) => {
      if (i && p.kind === "turn") {
        parts.push(`<line class="turn-line" x1="${x(i)}" x2="${x(i)}" y1="${T}" y2="${H - B}"/>`);
        // Beside the line, on its left when there is no room on its right.
        const label = `player ${PLAYER_WORDS[p.player - 1]}`, left = x(i) + 4 + textWidth(svg, label) > W - R;
        parts.push(`<text x="${left ? x(i) - 4 : x(i) + 4}" y="${H - 8}"${left ? ' text-anchor="end"' : ""}>${label}</text>`);
      }
      line.push(`${x(i).toFixed(1)},${y(p.chance).toFixed(1)}`);
    });
    parts.push(`<polyline points="${line.join(" ")}"/>`);
    this.points.forEach((p, i) => {
      if (p.kind === "move" && p.player === this.seat) {
        parts.push(`<circle class="${p.mistake ? "mistake" : "move"}" cx="${x(i).toFixed(1)}" cy="${y(p.chance).toFixed(1)}" ` +
          `r="${p.mistake ? 5 : 3.5}"><title>${percent(p.chance)}</title></circle>`);
      }
    });
    parts.push(`<text x="${L}" y="${H - 8}">start</text>`);
    svg.innerHTML = parts.join("");
    svg.dataset.points = String(n);
  }

  state() {
    const g = this.game;
    return {
      seed: g.seed, seat: this.seat, players: g.players, player: g.player, position: g.board.positionText(g.mask),
      roll: this.awaiting === "rolling" ? null : g.roll, dice: g.dice.slice(), chosen: tilesOf(g.chosen),
      score1: g.scores[0] ?? null, score2: g.scores[1] ?? null, scores: g.scores.slice(), over: g.over,
      awaiting: this.awaiting, result: g.over ? this.result : null, chances: this.points.map((p) => p.chance),
      moves: this.moves, optimal: this.optimal, lost: this.lost, shutBy: g.shutBy, undone: this.undone,
      history: g.history.map((e) => ({ player: e.player, scores: e.scores, position: g.board.positionText(e.position), roll: e.roll,
        dice: e.dice, move: tilesOf(e.move), best: tilesOf(e.best), you: e.you })),
    };
  }
}
