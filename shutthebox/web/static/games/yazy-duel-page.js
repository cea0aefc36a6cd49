/* Two-player yazy on the games page (`?game=yazy&players=2`), from the table `ShutTheBox yazy --players 2` reads
 * (yazy-duel.js; a game of some categories, `categories=ones,twos,yazy`, solved on first use under `ShutTheBox
 * serve`; the full game's read by ranges).
 * Coach: both cards (`mine`, `theirs`: each player's open categories), the totals (`scores=S1,S2`, the mover's
 * first), the dice and rerolls -> the mover's chance to win, the best move and what every other choice costs in
 * chance, as `--expect`, `--move` and `--options` print them.
 * Play (yazy-duel-play.js, on the Play shell): you (first) against the computer, which plays the table's move
 * (`--move`) at every decision; seeded dice, your moves in the link, Hint, Undo, each decision's cost in chance to
 * win, the review; both score sheets with the live chance to win beside them. */

import { unlessInvalid } from "../lib/notation.js";
import { el, field, seedParam } from "../lib/ui.js";
import { chance, chanceCost } from "../lib/numbers.js";
import { answerBox, linkParam, loadTable, radios, toggles } from "./ui.js";
import { ALL, CATEGORIES, gameCategories, gameOf, openCategories, rerollsLeft, rollIndex } from "./yazy-rules.js";
import { checkKind, tableSpec } from "./yazy-table.js";
import { fixed } from "../lib/printing.js";
import { ID, duelChoices, moveText, rankedChoices, setWords, winText } from "./yazy-duel.js";
import { coachAndPlay } from "./modes.js";

/** What Coach shows for q = { mine, theirs (masks), scores "S1,S2", dice (text or null), rerolls }: the command
 * line's chance and move, and every choice { move, chance, value (the six decimals), cost }, or the refusal. */
export function coachAnswer(table, q) {
  const game = table.game;
  const words = [setWords(game, q.mine), setWords(game, q.theirs), q.scores];
  const turn = q.dice === null ? [] : [q.dice, String(q.rerolls)];
  const command = `ShutTheBox yazy${game.mask === ALL ? "" : ` --categories ${game.text}`} --players 2 ` +
    `${turn.length ? "--options" : "--expect"} ${words[0]} ${words[1]} --scores ${words[2]}${turn.map((w) => " " + w).join("")}`;
  return unlessInvalid(() => {
    const value = winText(table, ...words, ...turn);
    if (!turn.length) return { value, chance: Number(value), move: null, choices: [], command, error: null };
    const { top, listed } = rankedChoices(duelChoices(table, ...words, ...turn));
    return { value, chance: top, move: moveText(table, ...words, ...turn), command, error: null,
      choices: listed.map(([v, move]) => ({ move, chance: v, value: fixed(v), cost: Math.max(top - v, 0) })) };
  }, (error) => ({ value: null, chance: null, move: null, choices: [], command, error }));
}

/** The duel's section. -> { activate, restore, key, api } as games.js keeps a game's controller. */
export function mountDuel(section, ctx) {
  const params = ctx.params;
  let table = null, game = gameOf(ALL);
  const gameField = field("Categories played", linkParam(params, "categories", (t) => gameOf(gameCategories(t)).text, "all", "all instead"),
    { id: `${ID}-categories`, size: 28, numeric: false, hint: "names separated by commas, or all" });
  const use = el("button", { type: "button", id: `${ID}-use`, onclick: () => activate() }, "Use these categories");
  const cards = ["mine", "theirs"].map((who) => {
    const group = toggles(who === "mine" ? "The mover's open categories" : "The opponent's open categories",
      CATEGORIES.map((c) => [c, c]), { name: who, onchange: () => update() });
    group.root.id = `${ID}-${who}`;
    group.root.classList.add("open-shut");
    return group;
  });
  const scoresField = field("Scores S1,S2", params.get("scores") ?? "0,0", { id: `${ID}-scores`, size: 9, numeric: false,
    hint: "the mover's total, then the opponent's" });
  const diceField = field("Five dice", params.get("dice") ?? "13366", { id: `${ID}-dice`, size: 6,
    hint: "digits 1-6, any order; empty: the start of a turn" });
  const rerolls = radios("Rerolls left", `${ID}-rerolls`, [["2", "2"], ["1", "1"], ["0", "0"]],
    linkParam(params, "rerolls", (t) => String(rerollsLeft(t)), "2", "2 rerolls left instead"), () => update());
  const box = answerBox();
  box.root.id = `${ID}-answer`;
  const choicesTable = el("table", { id: `${ID}-choices`, class: "choices" });
  const command = el("p", { class: "hint", id: `${ID}-command` });
  const tableError = el("div", { class: "error", role: "alert", id: `${ID}-error`, hidden: true });
  const coach = el("div", { id: `${ID}-coach` },
    el("div", { class: "row" }, el("span", { class: "label" }, "The mover's open categories"), cards[0].root),
    el("div", { class: "row" }, el("span", { class: "label" }, "The opponent's open categories"), cards[1].root),
    el("div", { class: "row" }, scoresField.root, diceField.root, rerolls.root), scoresField.error, diceField.error,
    box.root, choicesTable, command);
  const modes = coachAndPlay(ctx, { id: ID, title: "Two-player yazy", coach, ready: () => table !== null,
    load: () => import("./yazy-duel-play.js").then((m) => m.duelPlay(() => table, ctx, openInCoach)),
    start: () => [seedParam(params)] });
  const play = modes.play;
  function openInCoach(d) {
    setCard(cards[0], d.mineMask);
    setCard(cards[1], d.theirsMask);
    scoresField.input.value = d.scores;
    diceField.input.value = d.dice;
    rerolls.set(String(d.rerolls));
    modes.show("coach");
    update();
    diceField.input.focus();
  }
  section.append(el("div", { class: "row" }, gameField.root, use), gameField.error, modes.root, tableError, coach, play.root);

  const setCard = (group, mask) => group.set(openCategories(mask).map((c) => CATEGORIES[c]));
  const cardOf = (group) => group.pressed().reduce((mask, name) => mask | (1 << CATEGORIES.indexOf(name)), 0);
  const readSet = (name) => linkParam(params, name, (t) => (t === "all" ? game.mask : gameOf(gameCategories(t)).mask & game.mask), game.mask, "all instead");

  /** Coach's question from the fields, or null with the reason shown beside the field. */
  function question() {
    const text = diceField.input.value.trim();
    let dice = null;
    if (text !== "") {
      dice = unlessInvalid(() => diceField.read((t) => { rollIndex(t.trim()); return t.trim(); }), () => undefined);
      if (dice === undefined) return null;
    } else diceField.show("");
    return { mine: cardOf(cards[0]) & game.mask, theirs: cardOf(cards[1]) & game.mask, scores: scoresField.input.value.trim(),
      dice, rerolls: Number(rerolls.value()) };
  }

  function update() {
    if (!table) return;
    const q = question();
    const a = q ? coachAnswer(table, q) : { value: null, move: null, choices: [], command: "", error: "No answer until the dice are corrected." };
    if (q) ctx.setParams({ mine: setWords(game, q.mine), theirs: setWords(game, q.theirs), scores: q.scores, dice: q.dice ?? "", rerolls: String(q.rerolls) });
    box.show(a, { value: "The mover's chance to win", move: "Best move" }, { chance: a.value === null ? null : a.chance });
    choicesTable.replaceChildren(...(a.choices.length ? [el("tr", {}, el("th", {}, "choice"), el("th", {}, "chance to win"), el("th", {}, "costs"))] : []),
      ...a.choices.map((c) => el("tr", { "data-move": c.move }, el("td", {}, c.move), el("td", { "data-value": c.value }, chance(c.chance, c.value)),
        el("td", {}, c.cost === 0 ? "best" : chanceCost(c.cost, { terse: true, exact: fixed(c.cost) })))));
    command.textContent = a.command ? `As the command line asks it: ${a.command}` : "";
  }
  for (const f of [scoresField, diceField]) f.input.addEventListener("input", update);

  /** The table of the categories asked for, solved on first use under `ShutTheBox serve`. */
  async function activate() {
    const text = unlessInvalid(() => gameField.read((t) => gameOf(gameCategories(t.trim())).text), () => null);
    if (text === null) return;
    game = gameOf(gameCategories(text));
    ctx.setParams({ categories: text === "all" ? null : text });
    const spec = tableSpec("duel", game);
    table = null;
    const read = await loadTable(ctx, spec, tableError, [coach, play.root]);
    if (!read) return;
    table = checkKind(read, "duel", game);
    for (const group of cards) { // the categories this game plays, and only those
      group.buttons.forEach((b, c) => { b.hidden = !((game.mask >> c) & 1); });
    }
    setCard(cards[0], readSet("mine"));
    setCard(cards[1], readSet("theirs"));
    if (play.state && play.state.table !== table) play.clear(); // another game's categories: a new game
    modes.show();
    update();
    await modes.ready();
  }

  return {
    activate, restore() {},
    key: modes.key,
    api: {
      /** What Coach shows for q (masks or the command line's words), as coachAnswer gives it. */
      coach: (q) => coachAnswer(table, q),
      table: () => table,
      ...modes.api,
      play: { ...modes.api.play, undo: () => play.shell?.undo() },
    },
  };
}
