/* Pig, Piglet, Two-Dice Pig and Big Pig (docs/PIG.md, FORMAT.md section 10).
 * Rules: the variant, the goal and pig's die, as the command line's --variant, --goal and --sides; a table
 * not shipped is solved by the server on first use, after the solve question (games.js, solve.js).
 * Coach: a state (I, J, K) -> the mover's chance to win, the best choice, and the chance to win of rolling
 * and of holding with what each gives away against the best, as `ShutTheBox pig --expect`, `--move` and
 * `--options I J K` print them (pig-table.js).
 * Play (pig-play.js, loaded after Coach's first answer: games/modes.js): you against the table's optimal player. */

import { whole } from "../lib/command.js";
import { fixed } from "../lib/printing.js";
import { InvalidQuestion, unlessInvalid } from "../lib/notation.js";
import { chance, chanceCost, isOptimal, tieOf } from "../lib/numbers.js";
import { badParam, choiceParam, el, field, seedParam } from "../lib/ui.js";
import { answerBox, linkParam, loadOrShipped, radios, rulesPanel } from "./ui.js";
import { DEFAULT_GOAL, DEFAULT_SIDES, FIXED_SIDES, NUMBER_NAMES, VARIANTS, chanceText, checkValues, choiceChances, describeRules,
  expectText, lossOf, makeRules, moveText, noSides, optionValue, optionWords, optionsText, rulesFromOptions,
  stateIndex, tableSpec } from "./pig-table.js";
import { answerWords, words } from "./pig-command.js";
import { coachAndPlay } from "./modes.js";

export { tableSpec } from "./pig-table.js";
export const id = "pig";
export const title = "Pig";
const VARIANT_WORDS = { pig: "Pig (one die)", piglet: "Piglet (a coin)", "two-dice": "Two-Dice Pig", "big-pig": "Big Pig" };
const STATE = ["i", "j", "k"]; // the link's names of I, J and K

/** The command line's answer, or its refusal: "error: ...". */
const said = (ask) => unlessInvalid(ask, (why) => `error: ${why}`);

/**
 * Coach's question q = { i, j, k } (whole numbers) -> what the command line prints for it:
 * { value: `--expect` ("0.491273"; null when refused), move: `--move`, line: `--options`, error: the first refusal
 *   (null when every answer is given), choices: [{ choice, chance, text, why, loss, optimal }] best first }.
 */
export function answer(table, q) {
  return unlessInvalid(() => {
    const index = stateIndex(table, q.i, q.j, q.k);
    const values = choiceChances(table, q.i, q.j, q.k), top = values.choices[0].chance, tie = tieOf(table);
    const choices = values.choices.map((x) => ({ choice: x.choice, chance: x.chance, ...chanceText(table, index, x),
      loss: lossOf(top, x.chance), optimal: isOptimal(lossOf(top, x.chance), tie) }));
    const value = unlessInvalid(() => expectText(table, q.i, q.j, q.k), () => null);
    const line = said(() => optionsText(table, q.i, q.j, q.k));
    const error = value === null ? said(() => expectText(table, q.i, q.j, q.k)).slice(7)
      : line.startsWith("error: ") ? line.slice(7) : null;
    return { value, move: moveText(table, q.i, q.j, q.k), line, error, choices, chance: table.arrays.win[index] };
  }, (error) => ({ value: null, move: null, line: `error: ${error}`, error, choices: [], chance: null }));
}

/** The rules of the link (`variant`, `goal`, `sides`): each refused one named with the command line's words
 * and replaced by the variant's default. */
function linkRules(params) {
  const variant = linkParam(params, "variant", (t) => optionValue("variant", t), "pig", "Pig instead");
  const sides = linkParam(params, "sides", (t) => {
    if (Object.hasOwn(FIXED_SIDES, variant)) throw new InvalidQuestion(noSides(variant));
    return optionValue("sides", t);
  }, null, `the variant's ${variant === "pig" ? `${DEFAULT_SIDES}-sided die` : "dice"} instead`);
  let goal = linkParam(params, "goal", (t) => optionValue("goal", t), null, `the variant's goal ${DEFAULT_GOAL[variant]} instead`);
  return unlessInvalid(() => makeRules({ variant, goal, sides }), (why) => {
    badParam(params, "goal", why, `the variant's goal ${DEFAULT_GOAL[variant]} instead`);
    goal = null;
    return makeRules({ variant, goal, sides });
  });
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  const animText = choiceParam(params, "anim", ["0", "1"], "1", "the computer plays step by step");
  if (params.has("anim") && params.get("anim") !== animText) ctx.setParams({ anim: null });
  let wantedSeed = seedParam(params);
  const wantedSeat = Number(choiceParam(params, "seat", ["1", "2"], "1", "you play first (seat 1) instead"));

  // -- the rules control: the command line's --variant, --goal and --sides
  const linked = linkRules(params);
  const variantRadios = radios("Variant", "pig-variant", VARIANTS.map((v) => [v, VARIANT_WORDS[v]]), linked.variant, () => variantChanged());
  const goalField = field("Goal", String(linked.goal), { id: "pig-goal", size: 3 });
  const sidesField = field("Sides of the die", String(linked.sides), { id: "pig-sides", size: 2 });
  const rulesNote = el("p", { class: "hint", id: "pig-rules" });
  const tableError = el("div", { class: "error", role: "alert", id: "pig-error", hidden: true });
  let shownVariant = linked.variant;

  // -- coach
  const fields = STATE.map((name, n) => field(["Mover's banked score (I)", "Opponent's banked score (J)", "Turn total (K)"][n],
    params.get(name) ?? "0", { id: `pig-${name}`, size: 4 }));
  const box = answerBox();
  box.root.id = "pig-answer";
  const choicesTable = el("table", { class: "pig-options", id: "pig-options", "data-line": "" });
  const commandLine = el("p", { class: "hint", id: "pig-command" });
  box.root.append(choicesTable);
  const coach = el("div", { id: "pig-coach" },
    el("p", { class: "hint" }, "The mover (you) has banked I points, the opponent J, and this turn has made K so far: roll again, " +
      "or hold to bank K and pass the dice. A turn starts with a roll."),
    el("div", { class: "row" }, ...fields.map((f) => f.root)), ...fields.map((f) => f.error), box.root, commandLine);
  const modes = coachAndPlay(ctx, { id: "pig", title: "Pig", coach, ready: () => table !== null,
    load: () => import("./pig-play.js").then((m) => m.pigPlay({ getTable: () => table, openInCoach, params,
      setParams: ctx.setParams, anim: animText === "1" })),
    start: () => [wantedSeed, { seat: wantedSeat }] });
  const play = modes.play;
  rulesPanel(section, rulesNote, variantRadios.root,
    el("div", { class: "row" }, goalField.root, sidesField.root), goalField.error, sidesField.error, rulesNote);
  section.append(modes.root, tableError, coach, play.root);

  /** The typed state, or null (each bad field says why beside it, in the command line's words). */
  function question() {
    let bad = false;
    const q = {};
    fields.forEach((f, n) => {
      q[STATE[n]] = unlessInvalid(() => f.read((t) => whole(NUMBER_NAMES[n], t.trim())), () => { bad = true; return null; });
    });
    return bad ? null : q;
  }

  function showChoices(a) {
    choicesTable.dataset.line = a.line;
    if (!a.choices.length) { choicesTable.replaceChildren(); return; }
    choicesTable.replaceChildren(
      el("caption", {}, "Each choice's chance to win, and what it costs against the best"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Choice"), el("th", { scope: "col" }, "Chance to win"),
        el("th", { scope: "col" }, "Cost against the best"))),
      el("tbody", {}, ...a.choices.map((x) => el("tr", { class: x.optimal ? "best" : null, "data-choice": x.choice,
        "data-chance": x.text ?? "", "data-loss": fixed(x.loss, 6) },
      el("th", { scope: "row" }, x.choice + (x.optimal ? " (best)" : "")),
      el("td", {}, x.text === null ? `not printed: ${x.why}` : chance(x.chance, x.text)),
      el("td", {}, x.optimal ? "none" : chanceCost(x.loss, { exact: fixed(x.loss, 6) }))))),
      ...(a.choices.length === 1 ? [el("tfoot", {}, el("tr", {}, el("td", { colspan: 3, class: "hint" },
        "At turn total 0 the turn starts with a roll: there is nothing to hold yet.")))] : []));
  }

  function update() {
    if (!table) return;
    const q = question();
    if (!q) {
      box.show({ value: null, move: null, error: "No answer until the numbers are corrected." }, {});
      showChoices({ line: "", choices: [] });
      commandLine.textContent = "";
      return;
    }
    ctx.setParams({ i: String(q.i), j: String(q.j), k: String(q.k) });
    const a = answer(table, q);
    const alike = a.move === null ? [] : a.choices.filter((x) => x.optimal && x.choice !== a.move).map((x) => x.choice);
    box.show(a, { value: "Chance to win for the mover (you)", move: "Best choice" }, { chance: a.value === null ? null : a.chance, alike });
    showChoices(a);
    const options = optionWords(table.rules);
    commandLine.replaceChildren("The command line asks it as ", el("code", {}, `ShutTheBox pig${options} --options ${q.i} ${q.j} ${q.k}`),
      " (and --expect, --move).");
  }
  fields.forEach((f) => f.input.addEventListener("input", update));

  /** A decision of the game, asked in Coach (the game is kept: Play returns to it). */
  function openInCoach(p) {
    STATE.forEach((name, n) => { fields[n].input.value = String(p[name]); });
    modes.show("coach");
    update();
    modes.buttons.play.focus();
  }


  /** The link's state, checked once against the first table: a refused one is named (the command line's words)
   * and Coach starts from 0 0 0. */
  let linkChecked = false;
  function checkLink() {
    linkChecked = true;
    const given = STATE.filter((name) => params.get(name) !== null);
    if (!given.length) return;
    const numbers = STATE.map((name, n) => unlessInvalid(() => whole(NUMBER_NAMES[n], (params.get(name) ?? "0").trim()), (why) => {
      badParam(params, name, why, "the state 0 0 0 instead");
      return null;
    }));
    const refused = numbers.includes(null) || unlessInvalid(() => { stateIndex(table, ...numbers); return false; }, (why) => {
      badParam(params, given[given.length - 1], why, "the state 0 0 0 instead");
      return true;
    });
    if (refused) fields.forEach((f) => { f.input.value = "0"; });
  }

  /** A new variant: the goal field follows it while it holds the other variant's default; pig alone has sides. */
  function variantChanged() {
    const variant = variantRadios.value();
    if (goalField.input.value.trim() === String(DEFAULT_GOAL[shownVariant])) goalField.input.value = String(DEFAULT_GOAL[variant]);
    shownVariant = variant;
    showSides();
    activate();
  }
  const showSides = () => { sidesField.root.hidden = variantRadios.value() !== "pig"; };

  /** The rules of the control, or null (the refusal beside its field). */
  function readRules() {
    const variant = variantRadios.value();
    const options = { "--variant": variant, "--goal": goalField.input.value.trim() };
    if (variant === "pig") options["--sides"] = sidesField.input.value.trim();
    goalField.show("");
    sidesField.show("");
    return unlessInvalid(() => rulesFromOptions(options), (why) => {
      (why.startsWith("--sides") ? sidesField : goalField).show(why);
      return null;
    });
  }

  /** The rules' controls back to the table's (a change refused to keep the game). */
  function restoreRules() {
    variantRadios.set(table.rules.variant);
    shownVariant = table.rules.variant;
    goalField.input.value = String(table.rules.goal);
    sidesField.input.value = String(table.rules.sides);
    showSides();
  }

  /** Read the rules control and show their table (solved first when not shipped); a game in progress is
   * discarded only when the player says so. */
  async function activate() {
    let rules = readRules();
    if (!rules) return;
    const same = table && ["variant", "goal", "sides"].every((key) => table.rules[key] === rules[key]);
    const may = same || !table || await modes.mayChange("Change the rules");
    if (may === null) return;
    if (!may) { restoreRules(); return; }
    if (same) tableError.hidden = true;
    const shipped = makeRules({ variant: "pig", goal: null, sides: null }); // the table shipped with the game
    const got = same ? { table } : await loadOrShipped(ctx, tableSpec(rules), tableSpec(shipped), tableError, [coach, play.root],
      describeRules(shipped));
    if (!got) return;
    const loaded = got.table;
    if (got.shipped) rules = shipped;
    try {
      checkValues(loaded); // a value no Pig table holds (nan, a chance of 1.5): the file is refused, never read
    } catch (error) {
      tableError.textContent = error.message;
      tableError.hidden = false;
      coach.hidden = play.root.hidden = true;
      ctx.failed(error);
      return;
    }
    if (loaded !== table && table) { // a new game on the new rules (the link's was on the old ones)
      wantedSeed = null;
      if (play.started) play.start(null, { seat: play.state ? play.state.seat : wantedSeat });
    }
    table = loaded;
    if (got.shipped) restoreRules();
    if (!linkChecked) checkLink();
    const written = { variant: rules.variant, goal: String(rules.goal), sides: rules.variant === "pig" ? String(rules.sides) : null };
    ctx.setParams(written);
    rulesNote.textContent = `${describeRules(rules)}: ${table.name}, chances within ${table.header.error_bound} of the exact ones. ` +
      `Among choices whose chances differ by at most ${table.header.tie}, the table's choice is hold.`;
    modes.show();
    update();
    await modes.ready();
  }
  goalField.input.addEventListener("change", activate);
  sidesField.input.addEventListener("change", activate);
  showSides();

  /** A history entry (Back, Forward): its mode and Coach's question; the rules stay the table's. */
  function restore() {
    modes.restore();
    STATE.forEach((name, n) => { fields[n].input.value = params.get(name) ?? "0"; });
  }

  /** A command line question's words (`--options 50 60 10`), answered as the command prints it. */
  const ask = (line) => said(() => answerWords(table, words(line)));

  return {
    activate,
    restore,
    key: modes.key,
    api: {
      answer: (q) => answer(table, q),
      /** What the command line prints for each state: { expect, move, options } ("error: ..." when refused). */
      answers: (qs) => qs.map((q) => ({ expect: said(() => expectText(table, q.i, q.j, q.k)),
        move: said(() => moveText(table, q.i, q.j, q.k)), options: said(() => optionsText(table, q.i, q.j, q.k)) })),
      ask,
      asks: (lines) => lines.map(ask),
      table: () => table,
      rules: () => table && { ...table.rules },
      ...modes.api,
    },
  };
}

