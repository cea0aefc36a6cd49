/* One Play shell for every game's Play (games.html's games; index.html may adopt it, and meanwhile takes
 * its exported pieces): what a Play mode shares, so that a game writes only the rules of a turn.
 *
 * The shell owns: the game in the link (seed and moves, one history entry per move, Back and a refresh
 * replaying the game to that point), the keys, the message and feedback lines, the hint list, each
 * decision's cost with one rule for ties, the history whose rows open Coach, "Discard this game?",
 * the review at the end, and the layout. A part (games/toggle-play.js, ...) owns one game's rules.
 *
 * INTERFACE (kept stable: another page adopts it)
 *
 *   createPlay(part, page) -> play
 *
 *   page: { params: the page's URLSearchParams (its link; read at the first start, synced on Back),
 *           setParams({name: text | null}): write the link's parameters in place (history.replaceState),
 *           openInCoach(position): show a position of the game in Coach (a history row was pressed),
 *           historyRow(text, open, attrs) -> <li>: a row of the history (games/ui.js's coachRow; else a plain one),
 *           anim: false plays the moves nobody chooses (the computer's) at once (default true),
 *           owns(params) -> true when a Back or Forward entry is this Play's (default: its `game` is the part's id) }
 *
 *   play: { root: the panel, start(seed | null, options): a new game (the first one is the link's as it is
 *           then: its `moves` replayed and, in Play, its seed and part.optionsOf(params, null): Back or Forward
 *           may have shown a Play entry before any game), key(event) -> true when the key was the game's (its
 *           default prevented),
 *           game(), inProgress(), newGame() (asks first), hint(), undo(), act(code), say(text), focus(), render(), clear(),
 *           snapshot() }
 *
 *   part, one game's rules of a turn; `game` is the part's own object, `code` a move: a whole number
 *   0..63, written as one character of MOVE_DIGITS in the link:
 *     id                       element ids' prefix: `${id}-play` (root), -message, -feedback, -hint, -undo, -share,
 *                              -new, -review; `ids: { log, hintList, message }` may name the history, hint list and message,
 *                              `hintClass` give the hint list the game's style
 *     help                     nodes: the game's own keys, for the keys line
 *     build(play) -> { board, items, groups, controls, below }: the part's elements: items are what
 *                              the digits press (1..12), groups the lists the arrow keys move in,
 *                              controls the buttons beside Hint and New game, below what follows the feedback
 *     newGame(seed, options) -> game      dice from mulberry32(seed) (lib/random.js), one draw per die
 *     link(game) -> {name: text}          the part's own link parameters besides seed and moves (a seat)
 *     optionsOf(params, game) -> options  those parameters read back from a link (Back)
 *     codes(game) -> n                    the game's moves are the codes 0..n-1 (optional: a link's other
 *                              characters are named as no move of this game)
 *     legal(game, code) -> null | why     why the move cannot be made now, in the player's words
 *     judge(game, code) -> null | { choice, value, best, bestWords, same, cost, bestValue }: before a decision,
 *                              its words, value, the table's choice (short, for the history; bestWords for
 *                              the feedback) and value, same (it is the table's), the cost (>= 0, in the
 *                              game's unit); null for a move that decides nothing (a first roll)
 *     apply(game, code) -> { say, row: null | { text, position, attrs } }: make the move (draw the dice)
 *     auto(game) -> code | null           the next move nobody chooses (the computer's), else null
 *     hint(game) -> { say, choices: [{ text, value: text, shown, cost, costWords, attrs }], marks: [{ node, word }],
 *                              markWords }  best first (value: the exact text, data-value; shown: the node shown,
 *                              else value; costWords: the cost as the game words it, else "cost N");
 *                              marks: the board's elements the best choice uses (dice to keep, a box, tiles, a
 *                              button), drawn with the word ("keep", "best") and described by markWords until the next move
 *     pick(game, n) -> code | null        digit n (1..12); null: the part handled it (a die kept)
 *     confirm(game) -> code | null        Enter: roll, close, score
 *     keys: { letter: (game) -> code | null }  the game's own letter keys (r: roll, s: score)
 *     render(game), focus(game, code) -> the element to focus after move code, made by a click (null: after
 *                              a move made by a key, the computer's or a new game: where Enter is the game's
 *                              confirm, so that Enter never repeats a key's move), over(game), started(game)
 *                              (a move made: asked before discarding)
 *     opening(game) -> text               the message of a new game (optional)
 *     ahead(game)                         fetch ahead what the next decisions will likely read of the table
 *                              (lib/remote.js's prefetch), while the player thinks (optional; asked after
 *                              each change shown, not while a link's moves are replayed: it notes what it asked)
 *     costWord                            "cost" (default) or "loss": the word before a cost
 *     amount(value) -> words, costText(cost, short) -> words    a value and a cost in the game's words (short:
 *                              the number alone, for the history); words: text, a node or an array of them,
 *                              the numbers lib/numbers.js's (short, exact a press away)
 *     summary(game, cost) -> text         the end; review(game, decisions, cost) -> nodes: the review's own
 *                              body (optional; else the shell's: decisions optimal, total cost, the three costliest)
 *     snapshot(game, decisions, cost) -> object   the game for the tests (window.games.ID.play.state()),
 *                              over the shell's { seed, moves (the link's text), decisions, cost }
 *
 * The link: `seed=N&moves=TEXT`: TEXT holds your moves in order, one character each (MOVE_DIGITS: 0-9,
 * a-z, A-Z, -, _ for codes 0..63, each game's codes in docs/WEB.md); the moves nobody chooses follow
 * from the seed. A move that cannot be made, or moves without a seed, are named in #link-problems and
 * the game starts from the beginning.
 *
 * Keys: 1-9 press the n-th item, 0, - and = the 10th, 11th and 12th; Space presses the focused item
 * (the browser's own); Enter outside a button confirms (part.confirm); H hint, U undo, N new game; the arrow
 * keys move within a group. No key is taken while the focus is in a text field or the dialog is open.
 *
 * Undo (U) takes back your last decision, the moves nobody chose after it and a move that decided nothing
 * after it (a first roll): the game is replayed from its seed without them, so the link, the costs and the
 * history are those of the shorter game; `undone=N` in the link counts the moves taken back, and the review
 * says how many. Share copies the link (lib/share.js).
 *
 * Ties, the command line's rule on every page: a choice within the table's `tie` of the best (its header
 * field, the width its build proved clear-cut: 1e-10 toggle, 1e-11 Goat, 1e-12 yazy, 1e-9 Yahtzee; no
 * field: equal values) is optimal: cost 0, marked best (part.tie(game) gives the width). A cost that is
 * not a tie but prints as 0.000000 reads "<0.1" short and "<0.000001" exact (lib/numbers.js; in the feedback,
 * the hint, the history and the review alike). */

import { askDiscard, asking, badParam, el } from "./ui.js";
import { newSeed } from "./random.js";
import { retryWhenBack } from "./offline.js";
import { shareButton } from "./share.js";
import { isOptimal } from "./numbers.js";

export const MOVE_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
/** The keys that press the n-th item: 1-9, then 0, - and = for 10, 11 and 12. */
export const ITEM_KEYS = "1234567890-=";
const STEP_MS = 650; // the computer's pace: quick, but each move can be read
const FOLD_AFTER = 20, FOLDED_ROWS = 10; // a history longer than FOLD_AFTER rows shows its last FOLDED_ROWS (style.css)
const ARROWS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/** Words (text, a node, or an array of them) as children. */
const words = (x) => [x].flat();

/** A cost in a part's words (a tiny one that is no tie: lib/numbers.js says it "<0.1", exact "<0.000001"). */
const costIn = (part, cost, short) => words(part.costText(cost, short));

/** A part's sentence inside the link's refusal: no capital, no full stop ("move 2 cannot be made: ...; "). */
const clause = (why) => why.charAt(0).toLowerCase() + why.slice(1).replace(/\.$/, "");

/** The moves as the link writes them. */
export const movesText = (codes) => codes.map((c) => MOVE_DIGITS[c]).join("");

/** The link's `undone` (the moves Undo took back): a whole number, else 0 (named). */
export function undoneOf(params) {
  const text = params.get("undone");
  if (text === null) return 0;
  if (/^[0-9]{1,6}$/.test(text)) return Number(text);
  badParam(params, "undone", "the moves taken back are counted by a whole number", "counted from 0");
  return 0;
}

/** The link's `moves` for the game of `seed` (null: the link's is absent or bad), else null; moves without
 * their seed would replay on dice they were not made with: named. */
export function linkedMoves(params, seed) {
  const text = params.get("moves");
  if (text === null || seed !== null) return text;
  badParam(params, "moves", "moves need the seed of their game", "a new game starts");
  return null;
}

/** A button of the game with its key: "Undo U". */
export const keyButton = (id, text, key, title, onclick) =>
  el("button", { type: "button", id, title, onclick }, text + " ", el("kbd", {}, key));

/** New game beside the end's summary too: on a phone the one at the top is a long way up. */
export const summaryNewGame = (id, onclick) =>
  el("p", { class: "row" }, el("button", { type: "button", class: "primary", id, onclick }, "New game"));

/** The hint drawn on the board: marks ({ node, word }) described by `note` (hidden; `words`) until cleared. */
export function hintMarks(note) {
  let marked = [];
  const clear = () => {
    for (const { node } of marked) {
      delete node.dataset.hint;
      if (node.getAttribute("aria-describedby") === note.id) node.removeAttribute("aria-describedby");
    }
    marked = [];
    note.textContent = "";
  };
  const set = (marks, words = "") => {
    clear();
    marked = marks.filter((m) => m.node);
    note.textContent = words;
    for (const { node, word } of marked) {
      node.dataset.hint = word;
      node.setAttribute("aria-describedby", note.id);
    }
  };
  return { set, clear };
}

const kbd = (key) => el("kbd", {}, key);

/** The keys of n items for the keys line: 1-9, then 0 (10), - (11), = (12). */
function itemKeys(n) {
  if (n <= 9) return [kbd("1"), "-", kbd(String(Math.max(n, 1)))];
  return [kbd("1"), "-", kbd("9"), ...[...ITEM_KEYS.slice(9, Math.min(n, 12))].flatMap((k, i) => [", ", kbd(k), ` (${10 + i})`])];
}

/** A key typed into a field of text is the field's. */
export const typing = (target) => target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ||
  (target instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset"].includes(target.type)) ||
  Boolean(target?.isContentEditable);

export function createPlay(part, page) {
  const id = part.id, ids = { log: `${id}-log`, hintList: `${id}-hint-list`, ...(part.ids || {}) };
  let game = null, seed = null, options = {}, codes = [], decisions = [];
  let decided = []; // per code of `codes`: whether it was a decision (Undo takes back the last one)
  let undone = 0; // moves taken back in this game (Undo), in the link as `undone`
  let first = true; // the first game is the link's as it is then: the page's, or the entry Back or Forward showed
  let timer = null, busy = false, replaying = false;
  const costWord = part.costWord || "cost";
  const tieIn = (g) => (part.tie ? part.tie(g) : 0);

  const play = {};
  const button = (suffix, text, key, title, onclick) => keyButton(`${id}-${suffix}`, text, key, title, onclick);
  const hintButton = button("hint", "Hint", "H", "The table's choice and every choice's value (H)", () => play.hint());
  const newButton = button("new", "New game", "N", "New game, new dice (N)", () => play.newGame());
  const undoButton = button("undo", "Undo", "U", "Take back your last decision (U)", () => play.undo());
  const message = el("p", { class: "message", id: ids.message ?? `${id}-message`, "aria-live": "polite" });
  const share = shareButton(`${id}-share`, (text) => say(text));
  const markNote = el("span", { id: `${id}-hint-mark`, class: "visually-hidden" });
  const marks = hintMarks(markNote); // the board's elements the hint marks
  const feedback = el("p", { class: "feedback", id: `${id}-feedback`, "aria-live": "polite" });
  const hintList = el("ol", { class: `play-hint ${part.hintClass || ""}`.trim(), id: ids.hintList, "aria-label": "Every choice, best first" });
  const review = el("div", { class: `play-review ${id}-review`, id: `${id}-review`, hidden: true });
  const log = el("ol", { class: "log", id: ids.log, "aria-label": "Your moves: press one to open it in Coach" });
  // A long history (toggle's may be a hundred rows) is folded to its last rows, all of them a press away.
  let unfolded = false;
  const logAll = el("button", { type: "button", class: "link", id: `${ids.log}-all`, hidden: true,
    onclick: () => { unfolded = !unfolded; fold(); } });
  function fold() {
    const n = log.childElementCount, long = n > FOLD_AFTER;
    log.classList.toggle("folded", long && !unfolded);
    logAll.hidden = !long;
    logAll.textContent = unfolded ? `Show the last ${FOLDED_ROWS} moves only` : `Show all ${n} moves (${n - FOLDED_ROWS} earlier ones hidden)`;
    logAll.setAttribute("aria-expanded", String(unfolded));
  }
  const parts = part.build(play);
  const listOf = (x) => (typeof x === "function" ? x() : x);
  const items = () => listOf(parts.items) || [], groups = () => listOf(parts.groups) || [items()];
  const keysLine = el("p", { class: "hint keys", id: `${id}-keys` });
  /** The keys line, for the number of items the rules give. */
  const showKeys = () => keysLine.replaceChildren(...(part.help || []), " ", ...itemKeys(items().length),
    ` ${part.itemWords || "press that item"}, `, kbd("Space"), " presses the focused one, ", kbd("Enter"),
    ` ${part.confirmWords || "confirms"}, `, kbd("H"), " hint, ", kbd("U"), " undo, ", kbd("N"), " new game. A row of the history opens its position in Coach.");
  play.root = el("div", { id: `${id}-play`, class: `play ${id}-play` },
    keysLine,
    parts.board, el("div", { class: "row" }, ...(parts.controls || []), hintButton, undoButton, share.button, newButton),
    share.field, markNote, message, feedback, ...(parts.below || []), hintList, review,
    el("h3", {}, "History"), logAll, log);

  const say = (text) => { message.replaceChildren(...words(text)); };
  play.say = say;

  function link() {
    page.setParams({ seed: String(seed), moves: codes.length ? movesText(codes) : null, undone: undone ? String(undone) : null,
      ...part.link(game) });
  }

  /** A fresh game of `seed` (null: new dice), the part's `opts`, with nothing on the board. */
  function fresh(s, opts) {
    clearTimeout(timer);
    busy = false;
    seed = s ?? newSeed();
    options = opts || {};
    game = part.newGame(seed, options);
    codes = [];
    decided = [];
    decisions = [];
    undone = 0;
    marks.clear();
    log.replaceChildren();
    unfolded = false;
    fold();
    hintList.replaceChildren();
    review.replaceChildren();
    review.hidden = true;
    feedback.textContent = "";
    say(part.opening ? part.opening(game) : "");
    showKeys();
  }

  /** Replay `text` (the link's moves) on a fresh game; a move that cannot be made is named and the game
   * starts again. -> true when every move was made. */
  function replay(text, where) {
    replaying = true;
    try {
      runAuto();
      for (const [i, ch] of [...text].entries()) {
        const code = MOVE_DIGITS.indexOf(ch), n = part.codes ? part.codes(game) : MOVE_DIGITS.length;
        const why = code < 0 || code >= n ? `'${ch}' is not a move of this game (its moves: 0 to ${MOVE_DIGITS[n - 1]})`
          : part.legal(game, code);
        if (why) {
          badParam(where, "moves", `move ${i + 1} cannot be made: ${clause(why)}`, "the game starts from the beginning");
          fresh(seed, options);
          runAuto();
          return false;
        }
        act(code);
        runAuto();
      }
      return true;
    } finally {
      replaying = false;
    }
  }

  /** A new game with dice from `s` (null: a random seed); the link's moves the first time. */
  play.start = (s, opts) => {
    let text = null;
    if (first) {
      first = false;
      // Play's link as it is now: the entry Back or Forward showed, when that came after the page opened (its
      // seed when good: a bad one was named as the page opened, and `s` is then null)
      if (page.params.get("mode") === "play") {
        const linked = page.params.get("seed");
        if (/^[0-9]+$/.test(linked ?? "") && Number(linked) <= 0xffffffff) s = Number(linked);
        if (part.optionsOf) opts = { ...opts, ...part.optionsOf(page.params, null) };
      }
      text = linkedMoves(page.params, s);
    }
    const taken = text ? undoneOf(page.params) : 0;
    fresh(s, opts);
    if (text && replay(text, page.params)) undone = taken;
    link();
    render();
    runAuto(true);
    return game;
  };

  play.clear = () => { clearTimeout(timer); game = null; };
  play.game = () => game;
  play.inProgress = () => Boolean(game && part.started(game) && !part.over(game));
  play.snapshot = () => {
    if (!game) return null;
    const list = decisions.map(({ position, ...d }) => ({ ...d, position: { ...position } }));
    const cost = decisions.reduce((sum, d) => sum + d.cost, 0);
    return JSON.parse(JSON.stringify({ seed, moves: movesText(codes), undone, decisions: list, cost, ...part.snapshot(game, list, cost) }));
  };

  play.newGame = async () => {
    if (play.inProgress() && !(await askDiscard("New game"))) { newButton.focus(); return; }
    history.pushState(history.state, "", location.href); // Back returns to the game left
    play.start(null, options);
    play.focus();
  };

  function render() {
    if (!game) return;
    // (also play.render: after a change that is no move, such as a die kept)
    part.render(game);
    const done = part.over(game);
    hintButton.setAttribute("aria-disabled", done || busy ? "true" : "false");
    undoButton.setAttribute("aria-disabled", decided.includes(true) ? "false" : "true");
    play.root.dataset.state = done ? "over" : busy ? "computer" : "yours";
    if (!done && !replaying) part.ahead?.(game);
  }

  play.render = render;

  play.focus = (code = null) => {
    if (!game) return;
    (part.over(game) ? newButton : part.focus(game, code) || newButton).focus();
  };

  /**
   * Make move `code` (checked): a decision gets its cost, the history its row, the link the move (a
   * history entry of its own, so that Back steps back). -> false when refused (the message says why).
   */
  function act(code, chosen = true) {
    const why = part.legal(game, code);
    if (why) { say(why); return false; }
    const judged = chosen ? part.judge(game, code) : null;
    const result = part.apply(game, code);
    marks.clear();
    if (chosen) {
      codes.push(code);
      decided.push(Boolean(judged));
      if (!replaying) {
        history.pushState(history.state, "", location.href);
        link();
      }
    }
    say(result.say || "");
    hintList.replaceChildren();
    if (judged) {
      const optimal = isOptimal(judged.cost, tieIn(game)), named = judged.bestWords ?? judged.best;
      const cost = optimal ? 0 : judged.cost;
      decisions.push({ choice: judged.choice, best: judged.best, value: judged.value, bestValue: judged.bestValue,
        cost, optimal, position: judged.position, row: log.childElementCount });
      feedback.replaceChildren(...(optimal
        ? [`${judged.choice}: optimal${judged.same ? "" : ` (as good as the table's ${named})`}; `, ...words(part.amount(judged.value)), "."]
        : [`${judged.choice}: ${costWord} `, ...costIn(part, cost), `; the table's ${named} gives `, ...words(part.amount(judged.bestValue)),
          ", against ", ...words(part.amount(judged.value)), "."]));
    }
    if (result.row) {
      const d = judged ? decisions[decisions.length - 1] : null;
      const note = !d ? [] : d.optimal ? [" (optimal)"] : [` (${costWord} `, ...costIn(part, d.cost, true), `; best ${d.best})`];
      const n = log.childElementCount;
      const li = log.appendChild(coachRowOf([result.row.text, ...note], result.row.position, { "data-row": n, ...(result.row.attrs || {}) }));
      li.value = n + 1; // numbered as played, the earlier rows folded away or not
      fold();
    }
    if (part.over(game)) end();
    render();
    return true;
  }
  /** Move `code` (a click, or byKey: a key's, after which the focus goes where Enter confirms). */
  play.act = (code, byKey = false) => {
    if (!game || !Number.isInteger(code)) return false;
    if (part.over(game)) { say("The game is over: press New game (N)."); return false; }
    if (busy) { say("Wait: the computer is playing."); return false; }
    const done = act(code);
    if (!done) return false;
    runAuto(true);
    // the focus follows the game once you act in it, unless you clicked elsewhere; a key's move always brings it
    // into the game (else Enter, as the page says, would press the mode button that still holds the focus)
    if (byKey || document.activeElement === document.body || play.root.contains(document.activeElement)) play.focus(byKey ? null : code);
    return true;
  };

  /** The moves nobody chooses, until it is yours to move: at once, or one a step when animated. */
  function runAuto(animate = false) {
    busy = false;
    while (game && !part.over(game) && part.auto) {
      const playing = game;
      let code;
      try {
        code = part.auto(game);
      } catch (error) { // the computer's move reads a table part the network did not bring: made once it is back
        busy = true;
        render();
        retryWhenBack(error, () => { if (game === playing) runAuto(animate); });
      }
      if (code === null || code === undefined) break;
      if (animate && page.anim !== false && !replaying) {
        busy = true;
        render();
        timer = setTimeout(() => {
          if (game !== playing) return;
          try {
            act(code, false);
          } catch (error) { // a table part the network did not bring: the computer moves once it is back
            retryWhenBack(error, () => { if (game === playing) runAuto(true); });
          }
          runAuto(true);
          // back to your turn: the focus returns to the game unless you have gone elsewhere meanwhile
          if (!busy && (document.activeElement === document.body || play.root.contains(document.activeElement))) play.focus();
        }, STEP_MS);
        return;
      }
      if (!act(code, false)) break; // refused: the part's mistake, never a loop
    }
    render();
  }

  const historyRow = page.historyRow || ((text, open, attrs) => el("li", {}, el("button", { type: "button", class: "link",
    title: "Open this position in Coach", ...attrs, onclick: open }, ...words(text))));
  const coachRowOf = (text, position, attrs) => historyRow(text, () => page.openInCoach(position), attrs);

  /** A decision's history row, its words and numbers copied (else its choice). */
  const rowWords = (d) => {
    const row = log.children[d.row];
    return row ? [...(row.querySelector("button") ?? row).childNodes].map((n) => n.cloneNode(true)) : d.choice;
  };

  /** The end: the part's summary, the total cost and the three costliest decisions (rows that open Coach). */
  function end() {
    const cost = decisions.reduce((sum, d) => sum + d.cost, 0);
    say(part.summary(game, cost));
    const costliest = decisions.map((d, i) => [d, i]).filter(([d]) => !d.optimal)
      .sort(([a, i], [b, j]) => b.cost - a.cost || i - j).slice(0, 3);
    const optimal = decisions.filter((d) => d.optimal).length;
    review.replaceChildren(el("h3", {}, "Review"),
      el("p", { id: `${id}-review-undone` }, undone ? `You took back ${undone === 1 ? "1 move" : `${undone} moves`} (Undo).` : "No move taken back (Undo)."),
      ...(part.review ? part.review(game, decisions, cost) : [
      el("p", { id: `${id}-review-total` }, `${optimal} of ${decisions.length} decisions optimal; ` +
        "your choices cost ", ...costIn(part, cost), " in all."),
      costliest.length ? el("p", {}, "The costliest decisions:") : null,
      costliest.length ? el("ol", { class: "log", id: `${id}-costliest` }, ...costliest.map(([d, i]) => coachRowOf(
        rowWords(d), d.position, { "data-decision": i }))) : null].filter(Boolean)),
    summaryNewGame(`${id}-review-new`, () => play.newGame()));
    review.hidden = false;
  }

  play.hint = () => {
    if (!game) return;
    if (part.over(game)) { say("The game is over: press New game (N)."); return; }
    if (busy) { say("Wait: the computer is playing."); return; }
    const h = part.hint(game);
    say(h.say);
    marks.set(h.marks || [], h.markWords || "");
    hintList.replaceChildren(...(h.choices || []).map((c) => {
      const best = isOptimal(c.cost, tieIn(game));
      return el("li", { class: best ? "best" : null, "data-move": c.text, "data-value": c.value, ...(c.attrs || {}) },
        `${c.text}: `, c.shown ?? c.value, ...(best ? [" (best)"] : [" (", ...(c.costWords ? words(c.costWords) : [`${costWord} `, ...costIn(part, c.cost, true)]), ")"]));
    }));
  };

  /** Undo: your last decision taken back (with what followed it), the game replayed from its seed without it. */
  play.undo = () => {
    if (!game) return false;
    const at = decided.lastIndexOf(true);
    if (at < 0) { say("Nothing to undo: you have made no decision yet."); return false; }
    const kept = codes.slice(0, at), count = undone + 1;
    history.pushState(history.state, "", location.href); // Back returns to the move taken back
    fresh(seed, options);
    replay(movesText(kept), page.params);
    undone = count;
    link();
    render();
    say(`Took back your last decision (${count === 1 ? "1 move" : `${count} moves`} undone in this game).`);
    runAuto(true);
    if (document.activeElement === document.body || play.root.contains(document.activeElement)) play.focus();
    return true;
  };

  /** Back or Forward: the game of that entry, replayed from its seed and moves. */
  window.addEventListener("popstate", () => {
    const now = new URLSearchParams(location.search);
    // no game yet: the first one starts from the entry's link (play.start)
    if (!game || !(page.owns ? page.owns(now) : (now.get("game") ?? id) === id) || now.get("mode") !== "play") return;
    for (const key of [...page.params.keys()]) page.params.delete(key);
    for (const [key, value] of now) page.params.set(key, value);
    const s = now.get("seed");
    fresh(/^[0-9]+$/.test(s ?? "") ? Number(s) : seed, part.optionsOf ? part.optionsOf(now, game) : options);
    if (replay(now.get("moves") ?? "", now)) undone = undoneOf(now);
    link();
    render();
    runAuto(true);
    if (play.root.hidden) document.getElementById(`${id}-mode-play`)?.click();
  });

  /** The game's keys (see the top of this file). -> true when the key was the game's. */
  play.key = (event) => {
    if (!game || event.ctrlKey || event.metaKey || event.altKey || asking() || typing(event.target)) return false;
    const k = event.key, lower = k.length === 1 ? k.toLowerCase() : k, target = event.target;
    // Enter on a control is the control's (a button presses, a radio button stays)
    const onButton = target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || target instanceof HTMLInputElement ||
      target?.tagName === "SUMMARY";
    const own = part.keys && Object.hasOwn(part.keys, lower) ? part.keys[lower] : null;
    if (own) { const code = own(game); if (code !== null && code !== undefined) play.act(code, true); }
    else if (ITEM_KEYS.includes(k) && ITEM_KEYS.indexOf(k) < items().length) {
      const n = ITEM_KEYS.indexOf(k) + 1;
      const code = part.pick(game, n);
      if (code !== null && code !== undefined) play.act(code, true);
      else render();
    } else if (k === "Enter" && !onButton) {
      const code = part.confirm(game);
      if (code !== null && code !== undefined) play.act(code, true);
    } else if (lower === "h") play.hint();
    else if (lower === "u") play.undo();
    else if (lower === "n") play.newGame();
    else if (ARROWS[k] && groups().some((g) => g.includes(target))) {
      const group = groups().find((g) => g.includes(target)).filter((b) => !b.hidden && !b.classList.contains("used"));
      const at = group.indexOf(target);
      group[(at + ARROWS[k] + group.length) % group.length]?.focus();
    } else return false;
    event.preventDefault();
    if (!busy && (document.activeElement === document.body || !document.activeElement)) play.focus();
    return true;
  };

  return play;
}
