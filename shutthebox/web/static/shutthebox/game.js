/* The one controller of Play and Solo, on the turn controller (turns.js): the tiles, Roll, Close
 * tiles, Clear, Hint, New game, Replay seed, Undo (U: the game replayed from its seed without your last
 * close and what followed it; the link's `undone` counts them) and Share (lib/share.js), the keys,
 * refusals in the player's words, the focus following the game, and the game in the link (`seed` and
 * `moves`, one history entry per move, so that a refresh replays the game to that point and Back steps
 * back a move). A mode (play.js, solo.js) adds what is its own: who plays, what a move is worth in
 * words, the summary. The link's `undone`, moves without their seed and the Undo button are lib/play.js's,
 * as on the games page.
 *
 * `moves` holds your actions in order: `r` a roll of all the dice, `o` a roll of one die (where the
 * rules let you choose), and a close as its tiles, one character each (1-9, then a, b, c for 10, 11
 * and 12: lib/play.js's MOVE_DIGITS). `moves=r45r9r18` rolled, closed 4 and 5, rolled, closed 9,
 * rolled, closed 1 and 8. The computer's moves follow from the seed. */

import { askDiscard, asking, badParam } from "../lib/ui.js";
import { newSeed } from "../lib/random.js";
import { Unreachable } from "../lib/remote.js";
import { unreachable, whenBack } from "../lib/offline.js";
import { MOVE_DIGITS, keyButton, undoneOf } from "../lib/play.js";
import { shareButton } from "../lib/share.js";
import { tilesOf } from "./table.js";
import { $, params, wait, focusIn, roving, animateDice, say } from "./view.js";

/** A close as the link writes it: its tiles, one character each. */
export const closeText = (mask) => tilesOf(mask).map((tile) => MOVE_DIGITS[tile]).join("");

/** The link's `moves` in actions: "r", "o", or a close (its tiles); null when it is not written so. */
export function parseMoves(text, tiles) {
  const digits = MOVE_DIGITS.slice(1, tiles + 1);
  const actions = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "r" || c === "o") { actions.push(c); i += 1; continue; }
    let mask = 0;
    while (i < text.length && digits.includes(text[i])) {
      const bit = 1 << (digits.indexOf(text[i]));
      if (mask & bit) return { error: `tile ${digits.indexOf(text[i]) + 1} is written twice in one close` };
      mask |= bit;
      i += 1;
    }
    if (!mask) return { error: `'${c}' is neither r, o nor a tile 1 to ${tiles} (${digits})` };
    actions.push(mask);
  }
  return { actions };
}

export class GameMode {
  /** ids: the mode's elements { section, tiles, dice, roll, rollOne, confirm, clear, newGame, replay, message, feedback, seedLink,
   * undo and share (made here), undoAfter (the button Undo follows; Share follows replay) } */
  constructor(app, name, ids) {
    this.app = app;
    this.name = name;
    this.ids = ids;
    this.game = null;
    this.serial = 0; // a new game makes pending steps stale
    this.awaiting = "none";
    this.engaged = false;
    this.focusState = null;
    this.hints = false;
    this.actions = []; // your actions, as the link writes them
    this.quick = false; // replaying the link's moves: no animation, no pause, no history entry
    this.undone = 0; // closes taken back in this game (Undo)
    this.undoing = false;
    this.linkUndone = null; // the link's `undone`, for the game it opens
  }

  el(key) { return $(this.ids[key]); }

  /** The tiles, the buttons and the clicks both modes share. */
  bind() {
    const tiles = this.el("tiles");
    roving(tiles);
    tiles.addEventListener("click", (event) => {
      const tile = event.target.closest("[data-tile]");
      if (tile) this.pick(Number(tile.dataset.tile));
    });
    // Once the user acts in the game, the focus follows it (Roll, Close tiles, New game).
    this.el("section").addEventListener("click", () => { this.engaged = true; }, true);
    this.el("roll").addEventListener("click", () => this.roll());
    this.el("rollOne")?.addEventListener("click", () => this.roll(1));
    this.el("confirm").addEventListener("click", () => this.confirm());
    this.el("clear").addEventListener("click", () => this.clear());
    this.el("newGame").addEventListener("click", () => this.askNewGame());
    this.el("undoAfter").after(keyButton(this.ids.undo, "Undo", "U", "Take back your last close (U)", () => this.undo()));
    const share = shareButton(this.ids.share, (text) => this.say(text));
    this.el("replay").after(share.button);
    this.el("seedLink").parentElement.before(share.field);
  }

  /** Undo: your last close taken back, with the rolls (and the computer's turns) after it; the game is replayed
   * from its seed without them (its costs, and Play's chart, those of the shorter game). */
  undo() {
    const at = this.actions.findLastIndex((a) => typeof a !== "string");
    if (!this.game || at < 0) { this.say("Nothing to undo: you have closed no tile yet."); return; }
    const kept = this.actions.slice(0, at).map((a) => (typeof a === "string" ? a : closeText(a))).join("");
    const count = this.undone + 1;
    history.pushState(null, "", location.href); // Back returns to the close taken back
    this.undoing = true;
    this.undone = count;
    this.start(this.seed, kept);
    this.undoing = false;
  }

  /** Undo waits for a close to take back (aria-disabled: pressed, it says why). */
  renderUndo() {
    this.el("undo").setAttribute("aria-disabled", String(!this.actions.some((a) => typeof a !== "string")));
  }

  // -- what a mode says: overridden

  get board() { return this.game ? this.game.board : null; }
  /** Refuse what the mode's own state forbids (a table not read); true if refused. */
  refuseMode() { return false; }
  /** After your roll settled, before the turn goes on (Play: the dice choice's feedback). */
  afterYourRoll() {}
  /** After a roll: true if a move must be chosen, false if the turn ended. */
  afterRoll() { return false; }
  /** Close `move` (yours if `mine`). */
  applyMove() {}
  /** One step of the computer (Play), a promise. */
  async computerStep() {}
  render() {}
  urlEntries() { return []; }
  /** A new game from `seed` (the mode's own settings); a promise of true once it can be played. */
  newGame() { return Promise.resolve(true); }

  // -- the flow

  /** Let the game go on until it is yours to act: the computer's turns (Play), then your roll or move. */
  async advance() {
    const serial = this.serial, g = this.game;
    while (!g.over && !g.human) {
      this.awaiting = "computer";
      this.render();
      try {
        await this.computerStep();
      } catch (error) { // a table part the network did not bring: the banner says so, the computer moves once it is back
        if (!(error instanceof Unreachable)) throw error;
        unreachable(error);
        whenBack(() => { if (serial === this.serial) this.advance(); });
        return;
      }
      if (serial !== this.serial) return;
    }
    if (g.over) return;
    this.awaiting = g.roll === null ? "roll" : "move";
    if (this.awaiting === "roll" && !this.el("message").textContent) this.say("Your turn: press Roll (R).");
    this.render();
  }

  /** Wait `ms` (none while replaying the link, or with anim=0). */
  pause(ms) { return this.quick ? Promise.resolve() : wait(ms); }

  /** Throw the dice from the seeded stream (animated unless replaying); resolves when they settle. */
  async throwDice(count = null) {
    const dice = this.game.throwDice(count);
    if (!this.quick) await animateDice(this.el("dice"), dice.length, this.board.rules.sides);
  }

  /** One die may be thrown instead of all of them (a rule set with the optional one die). */
  oneDieChoice() {
    const g = this.game;
    return !!g && !g.over && g.human && this.board.diceChoices(g.mask).length > 1;
  }

  /** Refuse an action the game's state does not allow, saying why; true if refused. */
  refuse(action) {
    if (this.refuseMode()) return true;
    const g = this.game;
    if (!g || this.awaiting === "loading" || this.awaiting === "rolling") return true;
    if (g.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return true; }
    if (!g.human || this.awaiting === "computer") { this.say("Wait: it is the computer's turn.", true); return true; }
    if (action !== "roll" && this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return true; }
    if (action === "roll" && this.awaiting === "move") {
      this.say(`You have rolled ${g.roll} already: close tiles that add up to it.`, true);
      return true;
    }
    return this.awaiting !== (action === "roll" ? "roll" : "move");
  }

  /** Your roll: all the dice, or `count` (1) where one die is optional. */
  async roll(count = null) {
    if (this.refuse("roll")) return;
    const g = this.game, serial = this.serial;
    const one = count === 1 && this.oneDieChoice();
    this.awaiting = "rolling";
    this.say("");
    this.el("feedback").textContent = "";
    this.render();
    this.record(one ? "o" : "r", false);
    await this.throwDice(one ? 1 : this.board.rules.dice);
    if (serial !== this.serial) return;
    this.afterYourRoll();
    if (this.afterRoll()) { this.awaiting = "move"; this.render(); } else await this.advance();
  }

  pick(tile) {
    if (!this.board || tile > this.board.rules.tiles || this.refuse("pick")) return;
    const g = this.game;
    const problem = g.pick(tile);
    if (problem) { this.say(this.pickWords(problem), true); return; }
    this.say(g.chosenText());
    this.render();
  }

  pickWords(problem) { return problem; }

  /** Close the chosen tiles. */
  confirm() {
    if (this.refuse("confirm")) return Promise.resolve();
    const g = this.game;
    const problem = g.confirmProblem();
    if (problem) { this.say(problem, true); return Promise.resolve(); }
    const move = g.chosen;
    this.record(move, true);
    this.applyMove(move, true);
    return g.over ? Promise.resolve() : this.advance();
  }

  clear() {
    const g = this.game;
    if (g && !g.human && !g.over) return; // the tiles shown are the computer's choice, not yours to clear
    if (g) g.chosen = 0;
    this.say("");
    this.render();
  }

  toggleHints() {
    this.hints = !this.hints;
    if (this.app.mode === this.name) this.showUrl();
    this.render();
  }

  say(text, refused = false) { say(this.el("message"), text, refused); }

  /** A game you have rolled in and not finished. */
  inProgress() { return !!this.game && !this.game.over && this.game.rolled > 0 && this.awaiting !== "error"; }

  /** Run `start` (a new game), once you confirm if that throws away a game in progress. */
  async restart(question, yesText, start) {
    if (!this.inProgress() || await askDiscard(yesText, `${question} The game in progress will be lost.`)) {
      history.pushState(null, "", location.href); // Back returns to the game left
      start();
    }
  }

  askNewGame() { this.restart("Start a new game with new dice?", "New game", () => this.start(newSeed())); }

  /** After the game moved on: the focus goes to what comes next, if you are at the game. */
  focusNext() {
    const g = this.game;
    const now = g && g.over ? "over" : g && !g.human && this.awaiting !== "loading" ? "computer" : this.awaiting;
    if (now === this.focusState) return;
    this.focusState = now;
    if (!this.engaged) return;
    focusIn(this.el("section"), { over: this.el("newGame"), roll: this.el("roll"), move: this.el("confirm") }[now]);
  }

  // -- the keys

  /** A key's move while the focus is outside the game (on the mode's tab, pressed by Enter): the focus comes into
   * the game, as after a click, so that Enter then does what the page says instead of pressing that tab again. */
  intoGame() {
    const section = this.el("section"), now = document.activeElement;
    if (section.hidden || asking() || !now || now === document.body || section.contains(now)) return;
    const g = this.game;
    (g?.over ? this.el("newGame") : this.awaiting === "move" ? this.el("confirm") : this.el("roll")).focus();
  }

  key(key, event) {
    const tile = this.app.tileKey(key, this.board);
    if (tile || /^[rRnNhHoO ]$/.test(key) || key === "Enter" || key === "Escape") this.engaged = true;
    if (tile) { this.pick(tile); this.intoGame(); return true; }
    if (key === "r" || key === "R") { this.roll(); this.intoGame(); return true; }
    if ((key === "o" || key === "O") && this.oneDieChoice()) { this.roll(1); this.intoGame(); return true; }
    if (key === "Enter") {
      // Enter does the action: close the chosen tiles, or roll when that is what comes next.
      if (this.awaiting === "roll") this.roll(); else this.confirm();
      return true;
    }
    if (key === " ") {
      const tile = event?.target?.closest?.("[data-tile]");
      if (!tile || !this.el("tiles").contains(tile)) return false;
      this.pick(Number(tile.dataset.tile));
      return true;
    }
    if (key === "Escape") { this.clear(); return true; }
    if (key === "n" || key === "N") { this.askNewGame(); return true; }
    if (key === "h" || key === "H") { this.toggleHints(); return true; }
    if (key === "u" || key === "U") { this.engaged = true; this.undo(); return true; }
    return false;
  }

  // -- the link: seed and moves

  /** Your action happened: kept for the link; a close is a history entry of its own (Back steps back a move). */
  record(action, push) {
    if (this.quick) { this.actions.push(action); return; }
    this.actions.push(action);
    if (this.app.mode !== this.name) return;
    if (push) history.pushState(null, "", location.href);
    this.showUrl();
  }

  movesText() { return this.actions.map((a) => (typeof a === "string" ? a : closeText(a))).join(""); }

  showUrl() {
    if (!this.game && this.awaiting !== "loading" && this.awaiting !== "error") return;
    this.app.setUrl([["mode", this.name], ...this.urlEntries(), ["undone", this.undone ? String(this.undone) : null],
      ["moves", this.actions.length ? this.movesText() : null]]);
    const link = this.el("seedLink");
    link.textContent = String(this.seed);
    link.href = location.href;
  }

  /** Start a game of `seed`, replaying `moves` (the link's) if given. */
  async start(seed, moves = "") {
    const serial = ++this.serial;
    this.seed = seed >>> 0;
    this.actions = [];
    this.focusState = null;
    if (!this.undoing) { this.undone = this.linkUndone ?? 0; this.linkUndone = null; }
    if (!(await this.newGame(this.seed)) || serial !== this.serial) return;
    if (moves) await this.replay(moves, serial);
    else await this.advance();
    if (serial === this.serial && this.app.mode === this.name) this.showUrl();
  }

  /** Replay the link's moves on the new game; a move that cannot be made is named and the game starts again. */
  async replay(text, serial) {
    const parsed = parseMoves(text, this.board.rules.tiles);
    const refuse = (why) => {
      badParam(params, "moves", why, "the game starts from the beginning");
      return false;
    };
    let ok = true;
    this.quick = true;
    try {
      if (parsed.error) ok = refuse(parsed.error);
      else {
        await this.advance();
        for (const [i, action] of parsed.actions.entries()) {
          if (serial !== this.serial) return;
          const g = this.game;
          const why = this.actionProblem(action);
          if (why) { ok = refuse(`move ${i + 1} cannot be made: ${why}`); break; }
          if (typeof action === "string") await this.roll(action === "o" ? 1 : null);
          else {
            g.chosen = action;
            await this.confirm();
          }
        }
      }
    } finally {
      this.quick = false;
    }
    if (!ok && serial === this.serial) {
      this.actions = [];
      if (await this.newGame(this.seed) && serial === this.serial) await this.advance();
    }
    this.render();
  }

  /** Why the link's action cannot be made now, in the player's words; null if it can. */
  actionProblem(action) {
    const g = this.game;
    if (g.over) return "the game is over";
    if (!g.human) return "it is the computer's turn";
    if (action === "r" || action === "o") {
      if (this.awaiting !== "roll") return `the roll of ${g.roll} awaits a close`;
      if (action === "o" && !this.oneDieChoice()) return "these rules throw no single die here";
      return null;
    }
    if (this.awaiting !== "move") return "roll the dice first";
    const moves = this.board.legalMoves(g.mask, g.roll);
    if (!moves.includes(action)) return `${closeText(action)} is not a legal close of roll ${g.roll} at ${g.board.positionText(g.mask)}`;
    return null;
  }

  /** Back or Forward reached an entry of this mode: its game, replayed from its seed and moves. */
  restore(seed) {
    const moves = params.get("moves") ?? "";
    const same = this.sameSettings(); // first: it takes the entry's settings (seat, rules, goal) whatever else differs
    if (this.game && seed === this.seed && moves === this.movesText() && same) return;
    this.linkUndone = undoneOf(params);
    this.start(seed, moves);
  }

  /** Take the settings of the entry Back or Forward reached; true if they are the game's already. */
  sameSettings() { return true; }
}
