/* The Play part of the five-dice games (yazy, Yahtzee) on the Play shell (lib/play.js): roll five dice,
 * keep dice and reroll the rest at most twice, score one open box. What differs between the games (the
 * boxes' points, the card, the value of each choice) is the `rules` given by yazy-play.js and
 * yahtzee-play.js, and two-player yazy's (yazy-duel-play.js: the computer's turns on the same board). Move
 * codes in the link: 31 the first roll of a turn, 0-30 a reroll keeping the dice of those bits (bit i: die
 * i + 1, as shown), 32 + c score box c. The hint marks the best keep's dice ("keep") and the best box. */

import { scoreCost, isOptimal, tieOf } from "../lib/numbers.js";
import { createPlay } from "../lib/play.js";
import { dieNode, el, plural, setFace } from "../lib/ui.js";
import { mulberry32, rollDie } from "../lib/random.js";
import { coachRow } from "./ui.js";
import { DICE, REROLLS, SIDES } from "./yazy-rules.js";
import { keptIndexes, points, scoredBox, sorted, spoken } from "./dice-coach.js";

const ROLL = 31, SCORE = 32;
const keptMask = (kept) => kept.reduce((mask, k, i) => mask | (k ? 1 << i : 0), 0);

/**
 * rules: { id, boxes: names, word ("category" | "box"), newCard() -> the card's own fields, open(g) -> mask
 *   of open boxes, points(g) -> Map box -> what the dice score there now (only the boxes allowed),
 *   refusal(g, c) -> why box c cannot be scored now, or null, score(g, c) -> { total, words, say } (mutates
 *   the card), value(g) -> the table's value at the start of the turn, judge(g, move) -> { choice, best,
 *   value, cost, record, words } with move ["keep", kept dice] or ["score", c], hint(g) -> { say, choices },
 *   sheet(g, upper) -> the score sheet's own rows (optional; upper: the upper boxes' points):
 *   { goal: the upper points a bonus needs, upper: [[label, value, id]] below the upper total, lower: the same
 *   above the lower total }, summary(g, cost), review(g) (optional), ahead(g) (optional: lib/play.js's),
 *   openInCoach(record) }
 * and, for a game against the computer (optional): ids { roll, dice, sheet, message, hintList }, dieBase (the first
 *   die's data-die), inGame(c) (a box of this game: the others hidden), computer(g) (the computer moves now),
 *   auto(g) (its next move's code), finished(g), turn(g) (the turn's number), opening(g), before(g) (the hint
 *   before a roll), amount, costText, costWord, tie(g), owns(params), extra() -> nodes below the sheet,
 *   show(g) (draws them), link(g), optionsOf(params), snapshot(g)
 */

/** The boxes of the upper section: ones to sixes, the first six of both games. */
const UPPER_BOXES = 6;

/** A row of the score sheet: its label, and its value at the right. */
const sheetRow = ([label, value, id], cls = "sheet-sum") => el("p", { class: cls, ...(id ? { id } : {}) },
  el("span", {}, label), el("span", { class: "points" }, String(value)));

function dicePart(rules) {
  const { id, boxes, word } = rules;
  let play, rollButton, dieButtons, boxButtons, boxGrid, board, upperFoot, lowerFoot, sheetTotal, selected = 0;
  const over = "The game is over: press New game (N).";
  const own = rules.ids || {};
  const inGame = (c) => !rules.inGame || rules.inGame(c);
  const turnNumber = (g) => (rules.turn ? rules.turn(g)
    : boxes.filter((_, c) => inGame(c)).length - boxes.filter((_, c) => inGame(c) && (rules.open(g) >> c) & 1).length + 1);
  const computer = (g) => Boolean(rules.computer?.(g));
  const select = (c) => { selected = c; mark(); };
  function mark() {
    boxButtons.forEach((b, c) => {
      const on = c === selected && !b.classList.contains("used");
      b.classList.toggle("selected", on);
      if (on) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
  }
  return {
    id,
    tie: (g) => (rules.tie ? rules.tie(g) : tieOf(g.table)),
    ids: { hintList: own.hintList ?? `${id}-choices`, ...(own.message ? { message: own.message } : {}) },
    hintClass: "yazy-choices",
    help: ["Keys: ", el("kbd", {}, "R"), " roll, ", el("kbd", {}, "Tab"), " or arrows to a ", word, " then ", el("kbd", {}, "Enter"),
      " or ", el("kbd", {}, "S"), " to score it;"],
    itemWords: "keep or free that die",
    confirmWords: `rolls at the start of a turn, then scores the chosen ${word}`,
    build(shell) {
      play = shell;
      rollButton = el("button", { type: "button", id: own.roll ?? `${id}-roll`, class: "primary", title: "Roll the dice that are not kept (R)",
        onclick: () => { const code = rollCode(play.game()); if (code !== null) play.act(code); } }, "Roll ", el("kbd", {}, "R"));
      board = el("p", { class: "scoreboard", id: `${id}-board`, "aria-live": "polite" });
      dieButtons = Array.from({ length: DICE }, (_, i) => el("button", { type: "button", class: "yazy-die", "data-die": i + (rules.dieBase ?? 1),
        "aria-pressed": "false", onclick: () => keep(play.game(), i) },
      dieNode(null), el("span", { class: "kept" }, String(i + 1))));
      boxButtons = boxes.map((name, c) => el("button", { type: "button", class: "yazy-cat", "data-cat": name,
        onfocus: () => { const g = play.game(); if (g && (rules.open(g) >> c) & 1) select(c); },
        onclick: () => play.act(SCORE + c) },
      el("span", { class: "name" }, spoken(name)), " ", el("span", { class: "points" }, "open")));
      // The card as a score sheet: the upper section with its total (and the bonus's progress), the lower
      // section with its total, the game's total; the boxes stay one group for the arrow keys.
      upperFoot = el("div", { class: "sheet-foot" });
      lowerFoot = el("div", { class: "sheet-foot" });
      sheetTotal = el("div", { class: "sheet-foot" });
      const part = (title, buttons, foot) => el("div", { class: "sheet-part" }, el("h3", { class: "sheet-head" }, title), ...buttons, foot);
      boxGrid = el("div", { class: "score-sheet", id: own.sheet ?? `${id}-play-cats`, role: "group", "aria-label": `${word}es: press one to score it` },
        el("div", { class: "sheet-parts" }, part("Upper section", boxButtons.slice(0, UPPER_BOXES), upperFoot),
          part("Lower section", boxButtons.slice(UPPER_BOXES), lowerFoot)), sheetTotal);
      return { board: el("div", {}, board, el("div", { class: "yazy-dice", id: own.dice ?? `${id}-play-dice`, role: "group",
        "aria-label": "Dice: press one to keep it or roll it again" }, ...dieButtons)),
      items: dieButtons, groups: [dieButtons, boxButtons], controls: [rollButton], below: [boxGrid, ...(rules.extra?.() ?? [])] };
    },
    newGame(seed) {
      selected = 0;
      return { seed, draw: mulberry32(seed), dice: null, kept: Array(DICE).fill(false), rerolls: REROLLS, total: 0, scores: {},
        decisions: [], over: false, ...rules.newCard(seed) };
    },
    opening: (g) => (rules.opening ? rules.opening(g) : ["Roll the dice (R). Optimal play expects ", points(g.start), " points."]),
    link: (g) => (rules.link ? rules.link(g) : {}),
    optionsOf: (params, g) => (rules.optionsOf ? rules.optionsOf(params, g) : {}),
    auto: (g) => (rules.auto && !g.over ? rules.auto(g) : null),
    codes: () => SCORE + boxes.length,
    legal(g, code) {
      if (g.over) return over;
      if (code === ROLL) return g.dice ? "The dice are rolled: keep dice and roll again (R), or score." : null;
      if (code < ROLL) {
        if (!g.dice) return "Roll the dice first (R).";
        if (!g.rerolls) return `No rerolls left: score a ${word}.`;
        return null;
      }
      const c = code - SCORE;
      if (c >= boxes.length || !inGame(c)) return `There is no ${word} ${c + 1}.`;
      if (!g.dice) return "Roll the dice first (R).";
      const why = rules.refusal(g, c);
      return why && spoken(why);
    },
    judge(g, code) {
      if (code === ROLL) return null;
      const move = code > ROLL ? ["score", code - SCORE] : ["keep", sorted(g.dice.filter((_, i) => (code >> i) & 1))];
      const at = { turn: turnNumber(g), dice: sorted(g.dice), rerolls: g.rerolls };
      const j = rules.judge(g, move, at);
      g.decisions.push({ ...j.record, optimal: isOptimal(j.cost, rules.tie ? rules.tie(g) : tieOf(g.table)) });
      return { choice: spoken(j.choice), value: j.value, best: spoken(j.best), same: j.same, bestValue: j.bestValue, cost: j.cost,
        position: j.record };
    },
    apply(g, code) {
      const at = { text: "", position: g.decisions[g.decisions.length - 1], attrs: { "data-decision": g.decisions.length - 1 } };
      const cpu = computer(g), turnWord = cpu ? "The computer, turn" : "Turn";
      if (cpu) Object.assign(at, { position: rules.record(g, code), attrs: { "data-computer": "true" } });
      const row = (words) => ({ ...at, text: `${turnWord} ${turnNumber(g)}, dice ${sorted(g.dice).join(" ")}, ${plural(g.rerolls, "reroll")} left: ${spoken(words)}` });
      if (code === ROLL) {
        g.dice = Array.from({ length: DICE }, () => rollDie(g.draw, SIDES));
        g.kept.fill(false);
        g.rerolls = REROLLS;
        return { say: cpu ? `The computer rolls ${sorted(g.dice).join(" ")}.`
          : `Turn ${turnNumber(g)}: press the dice to keep, then roll the others (R), or score a ${word}.`, row: null };
      }
      if (code < ROLL) {
        const done = row(`keep ${sorted(g.dice.filter((_, i) => (code >> i) & 1)).join(" ") || "none"}`);
        g.dice = g.dice.map((d, i) => ((code >> i) & 1 ? d : rollDie(g.draw, SIDES)));
        g.kept = g.kept.map((_, i) => Boolean((code >> i) & 1));
        g.rerolls--;
        return { say: cpu ? `The computer keeps ${sorted(g.dice.filter((_, i) => (code >> i) & 1)).join(" ") || "none"} and rolls ${sorted(g.dice).join(" ")}.`
          : g.rerolls ? `${plural(g.rerolls, "reroll")} left: keep dice and roll (R), or score.` : `No rerolls left: score a ${word}.`, row: done };
      }
      const c = code - SCORE;
      const before = row("");
      const scored = rules.score(g, c);
      before.text += spoken(scored.words);
      g.total += scored.total;
      g.dice = null;
      g.kept.fill(false);
      g.rerolls = REROLLS;
      g.over = rules.finished ? rules.finished(g) : !rules.open(g);
      return { say: g.over ? "" : computer(g) ? `${spoken(scored.say)} The computer plays.`
        : `${spoken(scored.say)} Turn ${turnNumber(g)}: roll the dice (R).`, row: before };
    },
    hint(g) {
      if (!g.dice) return { say: rules.before ? rules.before(g) : ["Hint: before rolling, ", points(rules.value(g)), " expected points to come with best play."] };
      // in a player's words; each row keeps the command line's choice in data-move
      const h = rules.hint(g), top = h.choices[0]?.text;
      // drawn on the board: the dice the best keep keeps, or the box the best move scores
      const box = boxes.indexOf(scoredBox(top));
      const marks = box >= 0 ? [{ node: boxButtons[box], word: "best" }]
        : keptIndexes(top, g.dice).map((i) => ({ node: dieButtons[i], word: "keep" }));
      return { say: spoken(h.say), marks, markWords: top ? `The hint's choice: ${spoken(top)}.` : "",
        choices: h.choices.map((c) => ({ ...c, text: spoken(c.text), attrs: { "data-move": c.text, ...c.attrs } })) };
    },
    pick(g, n) { keep(g, n - 1); return null; },
    confirm: (g) => (g.dice ? SCORE + selected : ROLL),
    keys: { r: (g) => rollCode(g), s: () => SCORE + selected },
    focus(g, code) {
      // after a key, the chosen box: Enter scores it (Enter on the Roll button would reroll)
      if (g.dice && (!g.rerolls || code === null)) return boxButtons[selected];
      return rollButton;
    },
    over: (g) => g.over,
    started: (g) => (rules.started ? rules.started(g) : Boolean(g.dice || g.decisions.length)),
    amount: rules.amount ?? ((value) => [points(value), " expected points"]),
    costText: rules.costText ?? ((cost, short) => (short ? scoreCost(cost) : [scoreCost(cost), " expected points"])),
    costWord: rules.costWord,
    summary: (g, cost) => rules.summary(g, cost),
    review: rules.review,
    ahead: rules.ahead,
    render(g) {
      const open = boxes.map((_, c) => c).filter((c) => (rules.open(g) >> c) & 1);
      if (!open.includes(selected)) selected = open.length ? open[0] : 0;
      board.replaceChildren(
        el("span", { id: `${id}-turn` }, g.over ? "Game over" : `Turn ${turnNumber(g)} of ${boxes.length}`),
        el("span", { id: `${id}-rerolls` }, `Rerolls left: ${g.dice ? g.rerolls : REROLLS}`),
        el("span", { id: `${id}-total` }, `Total: ${g.total}`), el("span", { class: "seed" }, `Seed ${g.seed}`));
      renderSheet(g);
      rules.show?.(g);
      const mine = !computer(g);
      dieButtons.forEach((b, i) => {
        const d = g.dice ? g.dice[i] : null;
        b.dataset.face = d ?? "";
        b.setAttribute("aria-pressed", g.dice && g.kept[i] ? "true" : "false");
        b.setAttribute("aria-disabled", mine && g.dice && g.rerolls ? "false" : "true");
        // the name holds the visible text ("kept", or the die's key) after the die's number and face
        b.setAttribute("aria-label", d === null ? `die ${i + 1}: not rolled` : `die ${i + 1}: ${d}${g.kept[i] ? ", kept" : ""}`);
        setFace(b.querySelector(".die"), d);
        b.querySelector(".kept").textContent = g.dice && g.kept[i] ? "kept" : String(i + 1);
      });
      const rolling = g.dice ? g.kept.filter((k) => !k).length : DICE;
      rollButton.firstChild.textContent = g.dice ? `Reroll ${plural(rolling, "die", "dice")} ` : "Roll ";
      rollButton.setAttribute("aria-disabled", !mine || g.over || (g.dice && !g.rerolls) ? "true" : "false");
      const allowed = g.dice && mine ? rules.points(g) : new Map();
      boxButtons.forEach((b, c) => {
        const isOpen = ((rules.open(g) >> c) & 1) === 1, name = spoken(boxes[c]);
        const points = isOpen ? (g.dice ? allowed.get(c) ?? null : null) : g.scores[c];
        const barred = isOpen && g.dice && mine && points === null;
        b.hidden = !inGame(c);
        // data-category: a box you may score now (the tests press the first)
        if (isOpen && inGame(c)) b.dataset.category = boxes[c]; else delete b.dataset.category;
        b.classList.toggle("used", !isOpen);
        b.classList.toggle("barred", Boolean(barred));
        b.setAttribute("aria-disabled", isOpen && g.dice && mine && !barred ? "false" : "true");
        b.dataset.used = isOpen ? "" : String(points);
        const shown = barred ? "joker: no" : points === null ? "open" : isOpen ? `+${points}` : String(points);
        b.querySelector(".points").textContent = shown;
        // the name starts with the visible text (the box and its points), then says what it means
        b.setAttribute("aria-label", `${name} ${shown}${!isOpen ? ": scored" : barred ? ": the joker rule bars it"
          : g.dice && mine ? `: score ${plural(points, "point")} here` : ""}`);
      });
      mark();
      document.body.dataset[id] = g.over ? "over" : !g.dice ? "roll" : g.rerolls ? "keep" : "score";
    },
    snapshot: (g, _, cost) => {
      const { draw, table, ...rest } = g;
      return { ...rest, cost, kept: [...g.kept], dice: g.dice && [...g.dice], ...(rules.snapshot?.(g) ?? {}) };
    },
  };

  /** R: the first roll of a turn, else a reroll keeping the pressed dice (all five kept: that is scoring). */
  function rollCode(g) {
    if (g && !g.over && computer(g)) { say("Wait: the computer is playing."); return null; }
    if (!g || g.over || !g.dice) return ROLL;
    if (!g.rerolls) { say(`No rerolls left: score a ${word}.`); boxButtons[selected].focus(); return null; }
    const mask = keptMask(g.kept);
    if (mask === 31) { say(`All five dice are kept: that is scoring now. Choose a ${word}.`); boxButtons[selected].focus(); return null; }
    return mask;
  }

  function say(text) { play.say(text); }

  /** The sheet's totals: each section's points, the rules' own rows (bonuses), the game's total. */
  function renderSheet(g) {
    const sum = (from, to) => boxes.slice(from, to).reduce((total, _, i) => total + (g.scores[from + i] ?? 0), 0);
    const upper = sum(0, UPPER_BOXES), own = rules.sheet ? rules.sheet(g, upper) : { upper: [], lower: [] };
    upperFoot.replaceChildren(
      sheetRow(["Upper total", own.goal ? `${upper} of ${own.goal}` : upper, `${id}-upper-total`]),
      ...(own.goal ? [el("progress", { class: "track", max: String(own.goal), value: String(Math.min(upper, own.goal)), "aria-hidden": "true" })] : []),
      ...own.upper.map((row) => sheetRow(row)));
    lowerFoot.replaceChildren(...own.lower.map((row) => sheetRow(row)),
      sheetRow(["Lower total", sum(UPPER_BOXES, boxes.length), `${id}-lower-total`]));
    sheetTotal.replaceChildren(sheetRow(["Total", g.total, `${id}-sheet-total`], "sheet-sum sheet-total"));
  }

  /** Keep die i (0-4) or roll it again. */
  function keep(g, i) {
    if (!g || g.over || !g.dice) { say(g && g.over ? over : "Roll the dice first (R)."); return; }
    if (computer(g)) { say("Wait: the computer is playing."); return; }
    if (!g.rerolls) { say(`No rerolls left: these dice are final; score a ${word}.`); return; }
    g.kept[i] = !g.kept[i];
    play.render();
  }
}

/** A five-dice game's Play shell (lib/play.js's createPlay): rules (above), ctx the page's context,
 * openInCoach(record), page: more of the shell's page ({ anim }). */
export const dicePlay = (rules, ctx, openInCoach, page = {}) => createPlay(dicePart(rules),
  { params: ctx.params, setParams: ctx.setParams, openInCoach, historyRow: coachRow, owns: rules.owns, ...page });
