/* Coach: who moves (player k of N, and the k-1 scores posted before), the open tiles and a roll;
 * every legal move with the mover's exact expected wins after it, the table's move first. The
 * answers are the Python API's `expect(position, scores)` / `move(position, roll, scores)`. */

import { InvalidQuestion, shorten, sixDecimals } from "../lib/notation.js";
import { badParam, choiceParam, el, plural } from "../lib/ui.js";
import { shareButton } from "../lib/share.js";
import { formatMove, rollChances, tileSum, tilesOf } from "./table.js";
import { answerRoll, PLAYER_WORDS } from "./turns.js";
import { $, params, roving, syncStop, buildTiles, showTiles } from "./view.js";
import { chance, chanceCost } from "../lib/numbers.js";

const moveText = (mask) => formatMove(tilesOf(mask));

/** A whole number written plainly ("17"), from low to high; null for anything else ("2.5", "1e1", "-3", "46abc", ""). */
function plainNumber(text, low, high) {
  if (!/^[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return n >= low && n <= high ? n : null;
}

/** The judge of the player to move after `scores`: the table's move and the mover's expected wins. */
export function playersJudge(table, scores) {
  const turn = table.turn(scores);
  return {
    turn,
    best: (mask, roll) => table.bestMove(turn, mask, roll),
    value: (mask, move) => table.valueAfter(turn, mask, move),
    before: (mask) => table.e(turn.state, mask),
    cost: (bestValue, value) => (value === null || bestValue === null ? 0 : Math.max(0, bestValue - value)),
    dice: (mask) => (table.c ? table.c(turn.state, mask) : table.diceFor(mask)),
  };
}

/**
 * Every legal move for a roll, ranked: the table's move first, then by the mover's expected wins
 * after it. scores: the scores posted before the mover (player = scores.length + 1).
 */
export function coachAnswer(table, scores, position, roll) {
  const mask = table.position(position);
  const judge = playersJudge(table, scores);
  return answerRoll({
    player: judge.turn.player, scores: scores.slice(), score: table.players === 2 && scores.length ? scores[0] : null,
    position: table.positionText(mask), expect: judge.before(mask), roll: null, moves: [], best: null, turnEnds: false, endValue: null,
  }, table, judge, mask, roll);
}

/** Why a middle player's value after their turn ends is "—": the table does not hold it. */
export const NOT_HELD = "not in the table: a middle player's chance once their turn ends depends on the players still to play";

/** "Player one", "player three". */
export const playerName = (k, capital = true) => `${capital ? "Player" : "player"} ${PLAYER_WORDS[k - 1]}`;

/** The posted scores typed ("17, 20"): k - 1 whole numbers from 1 to max. */
export function parseScores(text, count, max) {
  const parts = text.trim() === "" ? [] : text.split(/[\s,]+/).filter(Boolean);
  if (parts.length !== count) {
    throw new InvalidQuestion(`give ${plural(count, "score")} posted before this player, not ${parts.length}`);
  }
  return parts.map((part) => {
    const value = plainNumber(part, 1, max);
    if (value === null) throw new InvalidQuestion(`“${shorten(part, 20)}” is not a score: a whole number from 1 to ${max}`);
    return value;
  });
}

export class Coach {
  constructor(app) {
    this.app = app;
    this.player = 1;
    this.score = 20; // two players: player one's score, the score to beat
    this.scoresText = ""; // more players: the scores posted, as typed
    this.mask = 0;
    this.roll = null;
    this.problem = null;
    this.rollKey = null;
  }

  get table() { return this.app.table; }

  /** The scores posted before the player to move, or null while the ones typed are invalid. */
  scores() {
    if (this.player === 1) return [];
    if (this.table.players === 2) return [this.score];
    try {
      return parseScores(this.scoresText, this.player - 1, this.table.rules.maxScore);
    } catch (e) {
      return null;
    }
  }

  init() {
    this.readLink();
    this.bind();
    this.build();
    // Share: the link holds the question
    const status = el("span", { id: "coach-share-status", class: "hint", role: "status" });
    const share = shareButton("coach-share", (text) => { status.textContent = text; });
    $("coach-summary").before(el("div", { class: "row" }, share.button, status), share.field);
  }

  /** Back or Forward reached a Coach entry: its question (who moves, scores, position, roll). */
  fromLink() {
    this.readLink();
    this.render();
  }

  /** The question of the link: who moves, the scores posted, the open tiles and the roll (a bad one named). */
  readLink() {
    const t = this.table;
    this.mask = t.allOpen;
    this.roll = null;
    this.problem = null;
    this.scoresText = "";
    const pos = params.get("pos");
    if (pos !== null) {
      try { this.mask = pos === "none" ? 0 : t.position(pos); } catch (e) { // none: the box shut, as urlEntries writes it
        badParam(params, "pos", e.message, "all tiles open instead");
      }
    }
    const choices = Array.from({ length: t.players }, (_, i) => String(i + 1));
    this.player = Number(choiceParam(params, "player", choices, "1", "player one moves instead"));
    const max = t.rules.maxScore;
    this.score = Math.min(this.score, max);
    const defaults = Array(this.player - 1).fill(Math.min(20, max)).join(", ");
    const score = params.get("score");
    if (score !== null && t.players > 2) {
      badParam(params, "score", `with ${t.players} players the scores posted before the player are given as scores=S1,S2,...`, "it was not used");
    } else if (score !== null) {
      const value = plainNumber(score, 1, max);
      if (value === null) badParam(params, "score", `the score to beat is a whole number from 1 to ${max}`, `the score to beat is ${this.score} instead`);
      else this.score = value;
    }
    const scores = params.get("scores");
    if (scores !== null && t.players === 2) {
      badParam(params, "scores", "with two players the score to beat is given as score=N", "it was not used");
    } else if (scores !== null) {
      try {
        parseScores(scores, this.player - 1, max);
        this.scoresText = scores;
      } catch (e) {
        badParam(params, "scores", `${e.message} (player=${this.player})`,
          defaults ? `the scores ${defaults} instead` : "no scores instead");
      }
    }
    this.scoresText = this.scoresText || defaults;
    const roll = params.get("roll");
    if (roll !== null && roll !== "") {
      const number = plainNumber(roll, 0, 1000);
      if (number === null) badParam(params, "roll", "a roll is a whole number", "the best move for every roll instead");
      else if (!this.mask) badParam(params, "roll", "the box is shut: there is nothing to roll for", "no roll instead");
      else {
        try {
          t.checkRoll(this.mask, number);
          this.roll = number;
        } catch (e) {
          badParam(params, "roll", e.message.replace(/^roll \d+ is impossible/, `roll ${number} is impossible at ${t.positionText(this.mask)}`),
            "the best move for every roll instead");
        }
      }
    }
  }

  bind() {
    if (this.bound) return;
    this.bound = true;
    const tiles = $("coach-tiles");
    roving(tiles);
    tiles.addEventListener("click", (event) => {
      const tile = event.target.closest("[data-tile]");
      if (tile) this.toggle(Number(tile.dataset.tile));
    });
    roving($("coach-rolls"));
    $("coach-rolls").addEventListener("click", (event) => {
      const button = event.target.closest("[data-roll]");
      if (!button) return;
      const roll = button.dataset.roll;
      this.roll = roll === "" || Number(roll) === this.roll ? null : Number(roll);
      this.render();
    });
    $("coach-players").addEventListener("click", (event) => {
      const button = event.target.closest("[data-player]");
      if (!button) return;
      this.setPlayer(Number(button.dataset.player));
    });
    $("coach-all").addEventListener("click", () => { this.mask = this.table.allOpen; this.render(); });
    $("coach-score-down").addEventListener("click", () => this.stepScore(-1));
    $("coach-score-up").addEventListener("click", () => this.stepScore(1));
    $("coach-score").addEventListener("input", () => this.readScore());
    $("coach-score").addEventListener("keydown", (event) => {
      const step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
      if (step) { event.preventDefault(); this.stepScore(step); }
    });
    $("coach-scores").addEventListener("input", () => { this.scoresText = $("coach-scores").value; this.render(true); });
  }

  /** The controls of the table's rules and players (again when the table changes). */
  build() {
    const t = this.table;
    buildTiles($("coach-tiles"), t.rules.tiles);
    const group = $("coach-players");
    if (group.children.length !== t.players) {
      group.textContent = "";
      for (let k = 1; k <= t.players; k++) {
        group.append(el("button", { type: "button", id: `coach-p${k}`, class: "choice", "data-player": String(k),
          "aria-pressed": "false", text: t.players === 2 ? playerName(k) : String(k), "aria-label": t.players === 2 ? null : playerName(k) }));
      }
    }
    if (this.player > t.players) this.player = 1;
    if (this.mask & ~t.allOpen) { this.mask = t.allOpen; this.roll = null; } // another table: start from all tiles open
    this.score = Math.min(this.score, t.rules.maxScore);
    this.rollKey = null;
    this.render();
  }

  setPlayer(k) {
    this.player = k;
    if (this.table.players > 2) {
      const typed = this.scoresText.split(/[\s,]+/).filter(Boolean);
      while (typed.length < k - 1) typed.push(String(Math.min(20, this.table.rules.maxScore)));
      this.scoresText = typed.slice(0, k - 1).join(", ");
    }
    this.render();
  }

  /** Open this question (from Play's history): player, scores posted, position and roll. */
  open(scores, mask, roll) {
    this.player = scores.length + 1;
    if (this.table.players === 2 && scores.length) this.score = scores[0];
    this.scoresText = scores.join(", ");
    this.problem = null;
    this.mask = mask;
    this.roll = roll;
    this.render();
  }

  toggle(tile) {
    this.mask ^= 1 << (tile - 1);
    this.render();
  }

  /** The score typed: answered only if it is a whole number in range, else a message and no answer. */
  readScore() {
    const text = $("coach-score").value.trim(), max = this.table.rules.maxScore;
    const value = plainNumber(text, 1, max);
    if (value === null) {
      this.problem = `${text === "" ? "Type the score to beat" : `“${text}” is not a score to beat`}: a whole number from 1 to ${max} (player one's final score).`;
    } else {
      this.problem = null;
      this.score = value;
    }
    this.render(true);
  }

  /** − and + (and the arrow keys in the box): one step from the number shown, kept in range. */
  stepScore(step) {
    const shown = plainNumber($("coach-score").value.trim(), 0, 1e6);
    this.score = Math.max(1, Math.min(this.table.rules.maxScore, (shown === null ? this.score : shown) + step));
    this.problem = null;
    this.render();
  }

  key(key) {
    const tile = this.app.tileKey(key);
    if (tile) { this.toggle(tile); return true; }
    return false;
  }

  urlEntries() {
    const two = this.table.players === 2;
    return [["mode", "coach"], ["player", String(this.player)],
      ["score", two && this.player === 2 ? String(this.score) : null],
      ["scores", !two && this.player > 1 ? this.scoresText.replace(/\s+/g, "") : null],
      ["pos", this.table.positionText(this.mask)], ["roll", this.roll === null ? null : String(this.roll)]];
  }

  showUrl() { this.app.setUrl(this.urlEntries()); }

  /** The roll buttons: built again only when the dice change, so that the focus stays on the roll chosen. */
  renderRolls(rolls) {
    const group = $("coach-rolls");
    const key = rolls ? rolls.join(",") : "";
    if (key !== this.rollKey) {
      const hadFocus = group.contains(document.activeElement) ? document.activeElement.dataset.roll : null;
      this.rollKey = key;
      group.textContent = "";
      if (rolls) {
        for (const roll of rolls) group.append(el("button", { type: "button", "data-roll": String(roll), text: String(roll) }));
        group.append(el("button", { type: "button", "data-roll": "", text: "any", title: "Best move for every roll" }));
      }
      if (hadFocus !== null && hadFocus !== undefined) {
        const same = group.querySelector(`[data-roll='${hadFocus}']`) || group.querySelector("[data-roll='']");
        if (same) same.focus();
        else $("coach-tiles").querySelector("[tabindex='0']")?.focus();
      }
    }
    let pressed = null;
    for (const button of group.querySelectorAll("button")) {
      const roll = button.dataset.roll;
      const on = roll === "" ? this.roll === null : Number(roll) === this.roll;
      button.setAttribute("aria-pressed", String(on));
      if (on) pressed = button;
    }
    syncStop(group, pressed);
  }

  render(keepInput = false) {
    const t = this.table, mask = this.mask, two = t.players === 2;
    for (const button of $("coach-players").children) button.setAttribute("aria-pressed", String(Number(button.dataset.player) === this.player));
    $("coach-score-box").hidden = !two || this.player !== 2;
    $("coach-scores-box").hidden = two || this.player === 1;
    if (!keepInput) {
      $("coach-score").value = String(this.score);
      $("coach-scores").value = this.scoresText;
    }
    let problem = two && this.player === 2 ? this.problem : null;
    if (!two && this.player > 1) {
      try { parseScores(this.scoresText, this.player - 1, t.rules.maxScore); } catch (e) { problem = `Scores posted: ${e.message}.`; }
    }
    $("coach-score").setAttribute("aria-invalid", String(!!(two && problem)));
    $("coach-scores").setAttribute("aria-invalid", String(!!(!two && problem)));
    $("coach-score-error").textContent = problem || "";
    $("coach-score-error").hidden = !problem;
    showTiles($("coach-tiles"), mask);
    const summary = $("coach-summary"), moves = $("coach-moves");
    moves.textContent = "";
    if (!mask) {
      this.roll = null;
      this.renderRolls(null);
      if (this.app.mode === "coach") this.showUrl();
      summary.textContent = "The box is shut: whoever shut it has won. Open some tiles.";
      return;
    }
    const rolls = t.possibleRolls(mask);
    if (this.roll !== null && !rolls.includes(this.roll)) this.roll = null;
    this.renderRolls(rolls);
    if (problem) {
      // No answer for a question other than the one shown.
      summary.textContent = two ? `No answer until the score to beat is a whole number from 1 to ${t.rules.maxScore}.` :
        `No answer until the scores posted are ${this.player - 1} whole numbers from 1 to ${t.rules.maxScore}.`;
      moves.removeAttribute("data-roll");
      return;
    }
    if (this.app.mode === "coach") this.showUrl();
    const scores = this.scores();
    const answer = coachAnswer(t, scores, mask, this.roll);
    // the words, with the chances as nodes: each a press from its exact value
    const parts = [`${playerName(this.player)} at ${answer.position}, before rolling: wins `, chance(answer.expect), "."];
    let text = "";
    if (two && this.player === 2) {
      text += ` Score to beat: ${this.score} (player two wins by ending below ${this.score}, ties at ${this.score}; the open tiles sum to ${tileSum(mask)}).`;
    } else if (!two && this.player > 1) {
      const turn = t.turn(scores);
      text += ` Scores posted: ${scores.join(", ")}; best ${turn.best}${turn.shared > 1 ? ` (${turn.shared} players)` : ""}.`;
    }
    const choices = t.diceChoices(mask);
    if (choices.length > 1) {
      const dice = playersJudge(t, scores).dice(mask);
      text += ` One die may be thrown here: the table throws ${dice === 1 ? "one die" : `all ${dice} dice`}.`;
    }
    if (this.roll !== null) {
      text += answer.turnEnds
        ? ` Roll ${this.roll}: no open tiles add up to it, the turn ends with score ${tileSum(mask)}` +
          (answer.endValue === null ? `: wins — (${NOT_HELD}).` : ": wins ")
        : ` Roll ${this.roll}: best move ${formatMove(answer.best)}.`;
    }
    const end = this.roll !== null && answer.turnEnds && answer.endValue !== null ? [chance(answer.endValue), "."] : [];
    summary.replaceChildren(...parts, text, ...end);
    if (this.roll === null) this.renderAllRolls(mask, rolls, scores);
    else if (!answer.turnEnds) this.renderMoves(answer);
    moves.dataset.roll = this.roll === null ? "" : String(this.roll);
  }

  renderMoves(answer) {
    const moves = $("coach-moves");
    const top = answer.moves[0].value;
    const count = answer.moves.length;
    moves.append(el("caption", { class: "hint", text: `${count} legal move${count > 1 ? "s" : ""} for roll ${answer.roll}, best first` }),
      el("tr", {}, el("th", { text: "Close" }), el("th", { text: "Leaves", class: "hide-narrow" }),
        el("th", { class: "num", text: "Wins" }), el("th", { class: "num", text: "Expected wins" }),
        el("th", { class: "num", text: "Cost" })));
    for (const m of answer.moves) {
      const loss = top - m.value;
      moves.append(el("tr", { class: m.best ? "best" : "", "data-move": m.tiles.join("") },
        el("td", { text: formatMove(m.tiles) }),
        el("td", { text: m.after || "shut!", class: "hide-narrow" }),
        el("td", { class: "num" }, chance(m.value), el("span", { class: "bar", style: `width:${(m.value * 3).toFixed(2)}rem` })),
        el("td", { class: "num", "data-value": String(m.value), text: sixDecimals(m.value) }),
        el("td", { class: `num${loss > 0 ? " loss" : ""}` }, m.best ? "best" : loss > 0 ? chanceCost(loss, { terse: true }) : "equal")));
    }
  }

  renderAllRolls(mask, rolls, scores) {
    const t = this.table, moves = $("coach-moves");
    const judge = playersJudge(t, scores);
    const chances = rollChances(judge.dice(mask), t.rules.sides);
    moves.append(el("caption", { class: "hint", text: "Best move for every roll (press a roll to see all its moves)" }),
      el("tr", {}, el("th", { text: "Roll" }), el("th", { class: "num", text: "Chance" }),
        el("th", { text: "Best move" }), el("th", { class: "num", text: "Wins" })));
    for (const roll of rolls) {
      const best = judge.best(mask, roll);
      const value = judge.value(mask, best);
      moves.append(el("tr", {}, el("td", { text: String(roll) }),
        el("td", { class: "num" }, chances[roll] ? chance(chances[roll]) : "—"),
        el("td", { text: best ? moveText(best) : "none: turn ends" }),
        value === null ? el("td", { class: "num", "data-why": "not-held" }, "—", el("span", { class: "why", text: ` ${NOT_HELD}` }))
          : el("td", { class: "num" }, chance(value))));
    }
  }
}
