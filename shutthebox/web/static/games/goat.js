/* Goat, the dice homework (docs/GOAT.md, FORMAT.md section 6.7).
 * Coach: solo, first or second player; banked scores, turn total, rolls taken -> the value and the
 * best action, as `ShutTheBox goat --solo|--one|--two --expect ...` and `--move ...` print them; and a
 * fixed strategy (K dice every roll, stop at T) as `--solo --expect SCORE --dice K --stop-at T`.
 * Play (goat-play.js, loaded after Coach's first answer: games/modes.js): you against the table's optimal play. */

import { InvalidQuestion, unlessInvalid, wholeNumber } from "../lib/notation.js";
import { score as scoreNum, isOptimal, tieOf } from "../lib/numbers.js";
import { choiceParam, el, field, plural, seedParam } from "../lib/ui.js";
import { answerBox, linkParam, loadOrShipped, radios, rulesPanel } from "./ui.js";
import { answer, bestFixed, goalValue, locate, tableSpec } from "./goat-table.js";
import { actionValues } from "./goat-values.js";
import { coachAndPlay } from "./modes.js";

export { actionText, answer, checkGoal, locate, tableSpec } from "./goat-table.js";
export const id = "goat";
export const title = "Goat";
const KINDS = ["0", "1", "2", "fixed"];
// Coach's numbers: the link's parameter of each field and what the page shows without it
const DEFAULTS = { my: "0", opp: "0", turn: "0", rolls: "0", k: "2", t: "23" };

function bestFixedText(best, score) {
  const stop = best.orMore
    ? best.stopAt === best.upTo ? `take all three rolls of every turn (stop at ${best.stopAt} or more)` : `stop at ${best.stopAt} or more`
    : best.upTo > best.stopAt ? `stop at any of ${best.stopAt}-${best.upTo}` : `stop at ${best.stopAt}`;
  return [`Best fixed strategy from ${score}: ${plural(best.dice, "die", "dice")} every roll, ${stop}: `,
    scoreNum(best.value), " expected turns."];
}

const SHIPPED_GOAL = 100; // the goal of the table shipped (data/goat-g100.msgpack)

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  const animText = choiceParam(params, "anim", ["0", "1"], "1", "the computer plays step by step");
  if (params.has("anim") && params.get("anim") !== animText) ctx.setParams({ anim: null }); // named once, not at every refresh
  const anim = animText === "1";
  let wantedSeed = seedParam(params);
  const wantedSeat = Number(choiceParam(params, "seat", ["1", "2"], "1", "you play first (seat 1) instead"));

  const goalField = field("Goal", String(linkParam(params, "goal", goalValue, SHIPPED_GOAL, `the goal ${SHIPPED_GOAL} instead`)), { id: "goat-goal", size: 3 });
  const who = radios("Question", "goat-player",
    [["0", "Solo (fewest turns)"], ["1", "First player"], ["2", "Second player"], ["fixed", "Solo, fixed strategy"]],
    choiceParam(params, "player", KINDS, "0", "the solo question instead"), () => update());
  const linked = (name) => params.get(name) || DEFAULTS[name];
  const myField = field("Banked score", linked("my"), { id: "goat-my", size: 3 });
  const oppField = field("Opponent's banked score", linked("opp"), { id: "goat-opp", size: 3 });
  const turnField = field("Turn total", linked("turn"), { id: "goat-turn", size: 3 });
  const rollsField = field("Rolls taken this turn (0-2)", linked("rolls"), { id: "goat-rolls", size: 2 });
  const diceField = field("Dice every roll (K)", linked("k"), { id: "goat-dice-k", size: 2 });
  const stopField = field("Stop at turn total (T)", linked("t"), { id: "goat-stop-at", size: 3 });
  const FIELDS = { my: myField, opp: oppField, turn: turnField, rolls: rollsField, k: diceField, t: stopField };
  let linkChecked = false;
  const oppNote = el("p", { class: "hint", id: "goat-opp-note" });
  const tableError = el("div", { class: "error", role: "alert", id: "goat-error", hidden: true });
  const rulesNote = el("p", { class: "hint", id: "goat-rules" });
  const box = answerBox();
  box.root.id = "goat-answer";
  const fixedBest = el("p", { class: "hint", id: "goat-fixed-best" });
  const turnRow = el("div", { class: "row" }, turnField.root, rollsField.root);
  const fixedRow = el("div", { class: "row" }, diceField.root, stopField.root);
  const coach = el("div", { id: "goat-coach" }, who.root,
    el("div", { class: "row" }, myField.root, oppField.root), oppNote, turnRow, fixedRow,
    myField.error, oppField.error, turnField.error, rollsField.error, diceField.error, stopField.error, box.root, fixedBest);
  const modes = coachAndPlay(ctx, { id: "goat", title: "Goat", coach, ready: () => table !== null,
    load: () => import("./goat-play.js").then((m) => m.goatPlay({ getTable: () => table, openInCoach, params: ctx.params,
      setParams: ctx.setParams, anim })),
    start: () => [wantedSeed, { seat: wantedSeat }] });
  const play = modes.play;
  rulesPanel(section, rulesNote, el("div", { class: "row" }, goalField.root), goalField.error, rulesNote);
  section.append(modes.root, tableError, coach, play.root);

  /** The typed question, or null (each bad field says why beside it). */
  function question() {
    const kind = who.value();
    const player = kind === "fixed" ? 0 : Number(kind);
    const read = (f, what) => f.read((t) => wholeNumber(t, what));
    const fields = kind === "fixed"
      ? [["score", myField, "the banked score"], ["dice", diceField, "the number of dice"], ["stopAt", stopField, "the turn total to stop at"]]
      : [["my", myField, player ? "your banked score" : "the banked score"], ["opp", oppField, "the opponent's banked score"],
        ["turn", turnField, "the turn total"], ["rolls", rollsField, "the rolls taken"]];
    const q = kind === "fixed" ? { kind } : { player };
    let bad = false;
    for (const f of [oppField, turnField, rollsField, diceField, stopField]) if (!fields.some(([, g]) => g === f)) f.show("");
    for (const [key, f, what] of fields) {
      if (key === "opp" && !player) { f.show(""); continue; }
      q[key] = unlessInvalid(() => read(f, what), () => { bad = true; return null; });
    }
    return bad ? null : q;
  }

  function update() {
    if (!table) return;
    const kind = who.value(), fixed = kind === "fixed", player = fixed ? 0 : Number(kind);
    oppField.root.hidden = !player;
    turnRow.hidden = fixed;
    fixedRow.hidden = !fixed;
    myField.root.querySelector("label").textContent = player ? "Your banked score" : "Banked score";
    const G = table.rules.goal;
    oppNote.textContent = player === 2
      ? `The first player has moved this round: an opponent's score of ${G} to ${G + 62} means this is your last turn.`
      : "";
    fixedBest.replaceChildren();
    const q = question();
    if (!q) {
      box.show({ value: null, move: null, error: "No answer until the numbers are corrected." }, {});
      return;
    }
    const a = answer(table, q);
    if (fixed) {
      ctx.setParams({ player: "fixed", my: String(q.score), k: String(q.dice), t: String(q.stopAt), opp: null, turn: null, rolls: null });
      box.show(a, { value: `Expected turns to the goal, ${plural(q.dice, "die", "dice")} every roll, stop at ${q.stopAt}, this turn counted` }, { score: true });
      if (!a.error) fixedBest.replaceChildren(...bestFixedText(bestFixed(table, q.score), q.score));
      return;
    }
    ctx.setParams({ player: String(q.player), my: String(q.my), opp: q.player ? String(q.opp) : null,
      turn: String(q.turn), rolls: String(q.rolls), k: null, t: null });
    const [name, index] = a.error ? [] : locate(table, q);
    box.show(a, { value: player ? "Chance to win (a tie is half a win)" : "Expected turns to the goal, this turn counted",
      move: "Best action" }, { chance: player && !a.error ? table.arrays[name][index] : null, score: !player, alike: player && !a.error ? alike(q) : [] });
  }

  /** The actions as good as the table's at a two-player decision: their win chance equals its as the
   * table's tie width (the tie rule of every page, lib/play.js's isOptimal). */
  function alike(q) {
    const values = actionValues(table, q);
    const top = values.actions.find((x) => x.action === values.best).value;
    return values.actions.filter((x) => x.action !== values.best && isOptimal(top - x.value, tieOf(table))).map((x) => x.text);
  }

  /** The link's numbers, checked once against the first table as Coach asks them, in the command line's
   * order and words: a refused one is named and its default used. */
  function checkLink() {
    linkChecked = true;
    const kind = who.value(), fixed = kind === "fixed", player = fixed ? 0 : Number(kind);
    const order = fixed ? [["my", "score"], ["k", "dice"], ["t", "stopAt"]]
      : [["my", "my"], ...(player ? [["opp", "opp"]] : []), ["rolls", "rolls"], ["turn", "turn"]];
    const q = fixed ? { kind, score: 0, dice: 2, stopAt: 23 } : { player, my: 0, opp: 0, turn: 0, rolls: 0 };
    for (const [name, key] of order) {
      const instead = name === "turn" ? "the start of a turn instead (turn 0, rolls 0)" : `${DEFAULTS[name]} instead`;
      const value = linkParam(params, name, (text) => {
        const tried = { ...q, [key]: wholeNumber(text, "the number") };
        if (key === "rolls") tried.turn = tried.rolls; // the lowest total those rolls make: the turn is checked next
        const { error } = answer(table, tried);
        if (error) throw new InvalidQuestion(error);
        return tried[key];
      }, null, instead);
      if (value !== null) q[key] = value;
      else if (params.get(name) !== null) {
        FIELDS[name].input.value = DEFAULTS[name];
        if (name === "turn") rollsField.input.value = "0";
      }
    }
  }
  for (const f of [myField, oppField, turnField, rollsField, diceField, stopField]) f.input.addEventListener("input", update);

  /** A decision of the game, asked in Coach (the game is kept: Play returns to it). */
  function openInCoach(q) {
    who.set(String(q.player));
    myField.input.value = String(q.my);
    oppField.input.value = String(q.opp);
    turnField.input.value = String(q.turn);
    rollsField.input.value = String(q.rolls);
    modes.show("coach");
    update();
    modes.buttons.play.focus();
  }

  let goal = null;
  async function activate() {
    let wanted = unlessInvalid(() => goalField.read(goalValue), () => null);
    if (wanted === null) return;
    const may = !table || wanted === goal || await modes.mayChange("Change the goal", "The game in progress will be lost.");
    if (may === null) return;
    if (!may) { goalField.input.value = String(goal); return; }
    const got = await loadOrShipped(ctx, tableSpec(wanted), tableSpec(SHIPPED_GOAL), tableError, [coach, play.root],
      `the goal ${SHIPPED_GOAL}`);
    if (!got) return;
    const loaded = got.table;
    if (got.shipped) goalField.input.value = String(wanted = SHIPPED_GOAL);
    if (loaded !== table && table) { // a new game on the new rules (the link's was on the old ones)
      wantedSeed = null;
      if (play.started) play.start(null, { seat: play.state ? play.state.seat : wantedSeat });
    }
    table = loaded;
    goal = wanted;
    if (!linkChecked) checkLink();
    ctx.setParams({ goal: String(goal) });
    rulesNote.textContent = `First to ${goal}; 1 to 6 dice a roll, at most 3 rolls a turn: ${table.name}. ` +
      "Among equally good actions the table's is the first of stop, roll 1, …, roll 6; Coach names the others beside it.";
    modes.show();
    update();
    await modes.ready();
  }
  goalField.input.addEventListener("change", activate);

  /** A history entry (Back, Forward): its mode and Coach's question; the goal stays the table's. */
  function restore() {
    modes.restore();
    who.set(KINDS.includes(params.get("player")) ? params.get("player") : "0");
    for (const [name, f] of Object.entries(FIELDS)) f.input.value = params.get(name) || DEFAULTS[name];
  }

  return {
    activate,
    restore,
    key: modes.key,
    api: {
      answer: (q) => answer(table, q),
      answers: (qs) => qs.map((q) => answer(table, q)),
      bestFixed: (score) => bestFixed(table, score),
      table: () => table,
      /** Every legal action's win chance at a two-player decision (null and the reason if it cannot occur). */
      actionValues: (p) => unlessInvalid(() => actionValues(table, p), (error) => ({ error })),
      manyActionValues: (ps) => ps.map((p) => actionValues(table, p)),
      ...modes.api,
    },
  };
}
