/* Goat, the dice homework (docs/GOAT.md, FORMAT.md section 6.7).
 * Coach: solo, first or second player; banked scores, turn total, rolls taken -> the value and the
 * best action, as `ShutTheBox goat --solo|--one|--two --expect ...` and `--move ...` print them. */

import { InvalidQuestion, sixDecimals, wholeNumber } from "../format.js";
import { answerBox, el, field, loadTable, radios } from "./ui.js";

export const id = "goat";
export const title = "Goat";
const GOAL_LIMITS = [2, 150];
const ROLLS = 3, DICE = 6, MAX_ONE = 21, SLOTS = 63, THRESHOLDS = 43, NEEDS = 64, MAX_GAIN = 63;

export function checkGoal(goal) {
  const [low, high] = GOAL_LIMITS;
  if (!Number.isInteger(goal) || goal < low || goal > high) {
    throw new InvalidQuestion(`the goal must be a whole number from ${low} to ${high}, not ${goal}`);
  }
  return goal;
}

export function tableSpec(goal) {
  const name = `goat-g${goal}.msgpack`;
  const G = goal;
  return {
    url: name,
    options: { name, game: "goat", rules: { goal, dice: DICE, rolls: ROLLS },
      arrays: { solo: ["<f8", [G, SLOTS]], solo_move: ["|u1", [G, SLOTS]], one: ["<f8", [G, G, SLOTS]],
        one_move: ["|u1", [G, G, SLOTS]], two: ["<f8", [G, G, SLOTS]], two_move: ["|u1", [G, G, SLOTS]],
        last: ["<f8", [NEEDS, SLOTS]], last_move: ["|u1", [NEEDS, SLOTS]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    hint: ` Goals other than 100 are solved on first use: run \`ShutTheBox goat --goal ${goal} --solo --expect 0\` ` +
      "once, then reload this page.",
  };
}

const slot = (rolls, turn) => (rolls === 0 ? 0 : rolls === 1 ? turn : turn + 20);
export const actionText = (action) => (action === 0 ? "stop" : `roll ${action}`);

function checkScore(name, score, goal) {
  if (!Number.isInteger(score) || score < 0) throw new InvalidQuestion(`${name} is a banked score, 0 or more, not ${score}`);
  if (score >= goal) throw new InvalidQuestion(`${name} ${score} has reached the goal ${goal}: the game is over`);
}

function checkTurn(turn, rolls) {
  if (!Number.isInteger(rolls) || rolls < 0 || rolls >= ROLLS) {
    throw new InvalidQuestion(`ROLLS is the rolls taken this turn, 0 to ${ROLLS - 1}, not ${rolls}`);
  }
  const [low, high] = rolls === 0 ? [0, 0] : [rolls, rolls * MAX_ONE];
  if (!Number.isInteger(turn) || turn < low || turn > high) {
    if (rolls === 0) throw new InvalidQuestion(`before the first roll the turn total is 0, not ${turn}`);
    throw new InvalidQuestion(`${rolls} roll${rolls > 1 ? "s" : ""} cannot make a turn total of ${turn} (only ${low} to ${high})`);
  }
}

/** (array name, element index) of a question; InvalidQuestion in the command line's words. */
export function locate(table, q) {
  const G = table.rules.goal;
  const { player, turn = 0, rolls = 0 } = q;
  if (player === 0) {
    checkScore("SCORE", q.my, G);
    checkTurn(turn, rolls);
    return ["solo", q.my * SLOTS + slot(rolls, turn)];
  }
  checkScore("MY", q.my, G);
  if (!Number.isInteger(q.opp) || q.opp < 0) throw new InvalidQuestion(`OPP is a banked score, 0 or more, not ${q.opp}`);
  checkTurn(turn, rolls);
  if (player === 1) {
    if (q.opp >= G) {
      throw new InvalidQuestion(`OPP ${q.opp} has reached the goal ${G}: the second player's total ends the game ` +
        "before the first player moves again");
    }
    return ["one", (q.my * G + q.opp) * SLOTS + slot(rolls, turn)];
  }
  if (q.opp < G) return ["two", (q.my * G + q.opp) * SLOTS + slot(rolls, turn)];
  if (q.opp > G - 1 + MAX_GAIN) throw new InvalidQuestion(`OPP ${q.opp} is out of reach: the first player banks at most ${G - 1 + MAX_GAIN}`);
  return ["last", (Math.min(q.opp - q.my, NEEDS) - 1) * SLOTS + slot(rolls, turn)];
}

/**
 * q = { player: 0 solo | 1 first | 2 second, my (SCORE for solo), opp, turn, rolls }
 * -> { value: "%.6f" (solo: expected turns, this turn counted; else the mover's chance to win),
 *      move: "stop" | "roll K", error: null } or { value: null, move: null, error: message }.
 */
export function answer(table, q) {
  let name, index;
  try {
    [name, index] = locate(table, q);
  } catch (e) {
    if (!(e instanceof InvalidQuestion)) throw e;
    return { value: null, move: null, error: e.message };
  }
  return { value: sixDecimals(table.arrays[name][index]), move: actionText(table.arrays[name + "_move"][index]), error: null };
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  const goalField = field("Goal", params.get("goal") || "100", { id: "goat-goal", size: 3 });
  const who = radios("Who is to move", "goat-player",
    [["0", "Solo (fewest turns)"], ["1", "First player"], ["2", "Second player"]], params.get("player") || "0", () => update());
  const myField = field("Banked score", params.get("my") || "0", { id: "goat-my", size: 3 });
  const oppField = field("Opponent's banked score", params.get("opp") || "0", { id: "goat-opp", size: 3 });
  const turnField = field("Turn total", params.get("turn") || "0", { id: "goat-turn", size: 3 });
  const rollsField = field("Rolls taken this turn (0-2)", params.get("rolls") || "0", { id: "goat-rolls", size: 2 });
  const oppNote = el("p", { class: "hint", id: "goat-opp-note" });
  const tableError = el("div", { class: "error", role: "alert", id: "goat-error", hidden: true });
  const rulesNote = el("p", { class: "hint", id: "goat-rules" });
  const box = answerBox();
  box.root.id = "goat-answer";
  const coach = el("div", { id: "goat-coach" }, who.root,
    el("div", { class: "row" }, myField.root, oppField.root), oppNote,
    el("div", { class: "row" }, turnField.root, rollsField.root),
    myField.error, oppField.error, turnField.error, rollsField.error, box.root);
  section.append(el("div", { class: "row" }, goalField.root), goalField.error, rulesNote, tableError, coach);

  function question() {
    const player = Number(who.value());
    const read = (f, what) => f.read((t) => wholeNumber(t, what));
    const q = { player };
    let bad = false;
    for (const [key, f, what] of [["my", myField, player ? "your banked score" : "the banked score"],
      ["opp", oppField, "the opponent's banked score"], ["turn", turnField, "the turn total"],
      ["rolls", rollsField, "the rolls taken"]]) {
      if (key === "opp" && !player) { f.show(""); continue; }
      try { q[key] = read(f, what); } catch (e) { bad = true; }
    }
    return bad ? null : q;
  }

  function update() {
    if (!table) return;
    const player = Number(who.value());
    oppField.root.hidden = !player;
    myField.root.querySelector("label").textContent = player ? "Your banked score" : "Banked score";
    const G = table.rules.goal;
    oppNote.textContent = player === 2
      ? `The first player has moved this round: an opponent's score of ${G} to ${G + 62} means this is your last turn.`
      : "";
    const q = question();
    if (!q) {
      box.show({ value: null, move: null, error: "No answer until the numbers are corrected." }, {});
      return;
    }
    ctx.setParams({ player: String(q.player), my: String(q.my), opp: q.player ? String(q.opp) : null,
      turn: String(q.turn), rolls: String(q.rolls) });
    const a = answer(table, q);
    box.show(a, { value: player ? "Chance to win (a tie is half a win)" : "Expected turns to the goal, this turn counted",
      move: "Best action" });
  }
  for (const f of [myField, oppField, turnField, rollsField]) f.input.addEventListener("input", update);

  async function activate() {
    let goal;
    try {
      goal = goalField.read((t) => checkGoal(wholeNumber(t, "the goal")));
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      return;
    }
    table = await loadTable(ctx, tableSpec(goal), tableError, [coach]);
    if (!table) return;
    coach.hidden = false;
    ctx.setParams({ goal: String(goal) });
    rulesNote.textContent = `First to ${goal}; 1 to 6 dice a roll, at most 3 rolls a turn: ${table.name}. ` +
      "Among equally good actions the first of stop, roll 1, …, roll 6 is shown.";
    update();
    ctx.ready();
  }
  goalField.input.addEventListener("change", activate);

  return {
    activate,
    api: {
      answer: (q) => answer(table, q),
      answers: (qs) => qs.map((q) => answer(table, q)),
      table: () => table,
    },
  };
}
