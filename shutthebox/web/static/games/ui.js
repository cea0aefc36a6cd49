/* The games page's own widgets (games.html, games/*.js): toggle buttons, radio groups, the answer block,
 * a game's table (or the one shipped with it) and its Coach / Play switch, history rows. What both
 * pages share is lib/ui.js's. */

import { unlessInvalid } from "../lib/notation.js";
import { chance as chanceNum, score as scoreNum } from "../lib/numbers.js";
import { askDiscard, badParam, el } from "../lib/ui.js";
import { shareButton } from "../lib/share.js";

/**
 * The link's parameter `name`: `read(text)` of it, or `fallback` when it is absent or refused
 * (`read` throws InvalidQuestion in the command line's words; the parameter is then named in
 * #link-problems with what the page does `instead`).
 */
export function linkParam(params, name, read, fallback, instead) {
  const text = params.get(name);
  if (text === null) return fallback;
  return unlessInvalid(() => read(text), (why) => { badParam(params, name, why, instead); return fallback; });
}

/** A phone held upright: the rules start folded, and Coach's answer shows at the screen's foot while it is below. */
const NARROW = "(max-width: 600px)";

/**
 * A game's rules in one fold (`ID-fold`), as the Shut the Box page's Rules panel: the game's about line, and
 * the controls its module adds (`rulesPanel`). Open on a wide screen; folded on a narrow one, so that the
 * question and its answer come first, its summary then saying the rules in use on one line.
 */
export function rulesFold(game) {
  const line = el("span", { class: "rules-line" }, game.about);
  const fold = el("details", { class: "rules-panel game-rules", id: `${game.id}-fold` },
    el("summary", {}, "Rules", line), el("p", { class: "hint" }, game.about));
  fold.open = !matchMedia(NARROW).matches;
  return fold;
}

/**
 * Put a game's rule controls (`controls`) into its section's fold (`rulesFold`); the folded summary then
 * repeats `note`, the line saying the rules and table in use, as it changes.
 */
export function rulesPanel(section, note, ...controls) {
  const fold = section.querySelector(":scope > .game-rules");
  fold.append(...controls);
  if (!note) return;
  const line = fold.querySelector(".rules-line");
  const echo = () => { if (note.textContent) line.textContent = note.textContent; };
  new MutationObserver(echo).observe(note, { childList: true, characterData: true, subtree: true });
  echo();
}

/** A group of toggle buttons (aria-pressed). -> { root, buttons, value() set of pressed values, set(values) } */
export function toggles(label, items, { onchange, name = "item" } = {}) {
  const buttons = items.map(([value, text, title]) => el("button", {
    type: "button", class: "choice chip", "data-value": value, "aria-pressed": "false", title: title || null,
    onclick: () => { press(button(value), button(value).getAttribute("aria-pressed") !== "true"); onchange && onchange(); },
  }, text));
  const button = (value) => buttons.find((b) => b.dataset.value === String(value));
  const press = (b, on) => b.setAttribute("aria-pressed", on ? "true" : "false");
  const root = el("div", { class: "chips", role: "group", "aria-label": label, "data-name": name }, ...buttons);
  return {
    root, buttons, button,
    pressed: () => buttons.filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.value),
    set(values) {
      const wanted = new Set(Array.from(values, String));
      buttons.forEach((b) => press(b, wanted.has(b.dataset.value)));
    },
  };
}

/** A radio group in a fieldset: native arrow-key use. -> { root, value(), set(v) } */
export function radios(legend, name, items, checked, onchange) {
  const inputs = [];
  const root = el("fieldset", { class: "radios" }, el("legend", {}, legend),
    ...items.map(([value, text]) => {
      const input = el("input", { type: "radio", name, value, id: `${name}-${value}`, onchange });
      input.checked = value === checked;
      inputs.push(input);
      return el("label", { for: `${name}-${value}` }, input, " " + text);
    }));
  return {
    root, inputs,
    value: () => (inputs.find((i) => i.checked) || {}).value,
    set(v) { inputs.forEach((i) => { i.checked = i.value === String(v); }); },
  };
}

/** "Your seat" in a two-seat game's Play (ids `ID-seat`, `ID-seat-1`, `ID-seat-2`): a change starts a new game
 * in that seat, asking first when it would discard one in progress. -> { root, set(seat) }. */
export function seatChooser(id, play) {
  const inputs = ["1", "2"].map((value) => el("input", { type: "radio", name: `${id}-seat`, value, id: `${id}-seat-${value}` }));
  const root = el("fieldset", { class: "radios", id: `${id}-seat` }, el("legend", {}, "Your seat"),
    ...inputs.map((input) => el("label", { for: input.id }, input, input.value === "1" ? " First player" : " Second player")));
  const set = (seat) => inputs.forEach((input) => { input.checked = Number(input.value) === seat; });
  inputs.forEach((input) => input.addEventListener("change", async () => {
    const g = play.game(), seat = Number(input.value);
    if (g && seat === g.seat) return;
    if (play.inProgress() && !(await askDiscard("Change seat"))) {
      set(g.seat);
      root.querySelector("input:checked").focus();
      return;
    }
    play.start(null, { seat });
  }));
  return { root, set };
}


/**
 * The question's answer block: a value line and a move line, each with data-answer (what the command
 * line prints) for the tests, and the choices as good as the best (the tie rule of every page: a
 * choice within the table's tie width of the best is optimal too, lib/play.js's isOptimal).
 */
export function answerBox() {
  const value = el("p", { class: "answer-value", "data-answer": "" });
  const move = el("p", { class: "answer-move", "data-answer": "" });
  const ties = el("p", { class: "answer-ties hint", "data-ties": "" });
  const problem = el("p", { class: "answer-problem", role: "status" });
  const root = el("div", { class: "answer", "aria-live": "polite" }, value, move, ties, problem);
  const peek = answerPeek(root, [value, move]);
  return {
    root, value, move, ties, problem,
    /** a: { value, move, error } as `answer` gives them; words: { value, move } the lines' labels;
     * chance: the value as a number when it is a chance (shown as every page shows a chance, lib/numbers.js:
     * the percent, the command line's figure a press away); score: true when the value is an expected score
     * (points, rolls, turns: one decimal, the command line's figure a press away); alike: the other choices as
     * good as the best (lib/play.js's isOptimal), in the command line's words. */
    show(a, words, { chance = null, score = false, alike = [] } = {}) {
      value.dataset.answer = a.value ?? "";
      value.replaceChildren(...(a.value === null ? []
        : chance !== null ? [`${words.value}: `, chanceNum(chance, a.value)]
        : score ? [`${words.value}: `, scoreNum(Number(a.value), a.value)] : [`${words.value}: ${a.value}`]));
      move.dataset.answer = a.move ?? "";
      move.textContent = a.move === null ? "" : `${words.move}: ${a.move}`;
      const others = a.move === null ? [] : alike;
      ties.dataset.ties = others.join("; ");
      ties.textContent = others.length ? `As good (optimal too): ${others.join(", ")}` : "";
      problem.textContent = a.error || "";
      peek.copy();
    },
  };
}

/**
 * On a narrow screen, while the answer's `lines` are not all in sight, below the screen's foot (a long
 * question above them), a copy of them held at that foot (position: sticky at the end of the block `root`'s
 * parent, so that it goes with Coach's panel): the answer is in sight while the question is typed. A press
 * scrolls to the block. Hidden from screen readers: the block itself is read out as it changes (aria-live).
 */
function answerPeek(root, lines) {
  const peek = el("div", { class: "answer-peek", "aria-hidden": "true", hidden: true, onclick: (event) => {
    if (!event.target.closest("span.num")) root.scrollIntoView({ block: "start", behavior: "smooth" });
  } });
  // A hidden line (Coach or the game not shown) counts as below: shown again below the foot, nothing is reported.
  const below = (line) => {
    const r = line.getBoundingClientRect();
    return line.textContent && (r.height === 0 || r.bottom > innerHeight);
  };
  const check = () => {
    peek.hidden = !(matchMedia(NARROW).matches && lines.some(below) && peek.textContent);
  };
  const seen = new IntersectionObserver(check, { threshold: [0, 1] });
  lines.forEach((line) => seen.observe(line));
  return {
    copy() {
      if (!peek.isConnected && root.parentElement) root.parentElement.append(peek);
      peek.replaceChildren(...lines.filter((line) => line.textContent).map((line) => {
        const copy = line.cloneNode(true);
        copy.removeAttribute("data-answer");
        return copy;
      }));
      check();
    },
  };
}

/**
 * The table of ``spec`` through ``ctx.load``; on failure ``errorBox`` says why and
 * ``panels`` are hidden (null is returned), on success the box is hidden again.
 */
export const loadTable = async (ctx, spec, errorBox, panels) =>
  (await loadOrShipped(ctx, spec, null, errorBox, panels))?.table ?? null;

/**
 * The table of `spec`, else the shipped table of the game's default rules (`shipped`, a spec) when the wanted
 * one cannot be had (its solve cancelled or refused, a static copy without it), as the Shut the Box page falls
 * back to its first table: `errorBox` then says why and what is shown instead. -> { table, shipped: true when
 * it fell back } or null (neither loaded: the box says why and `panels` are hidden).
 */
export async function loadOrShipped(ctx, spec, shipped, errorBox, panels, insteadWords) {
  const say = (text, notice) => {
    errorBox.textContent = text;
    errorBox.className = notice ? "notice" : "error";
    errorBox.setAttribute("role", notice ? "status" : "alert");
    errorBox.hidden = !text;
  };
  try {
    const table = await ctx.load(spec);
    say("", false);
    return { table, shipped: false };
  } catch (e) {
    if (shipped && shipped.url !== spec.url) {
      try {
        const table = await ctx.load(shipped);
        say(`${e.message}\nShown instead: ${insteadWords}, the table shipped with the game.`, true);
        return { table, shipped: true };
      } catch {
        // the shipped table is missing too: the first failure is the one to tell
      }
    }
    say(e.message, false);
    for (const panel of panels) panel.hidden = true;
    ctx.failed(e);
    return null;
  }
}

/**
 * The Coach / Play switch of a game's section: `pick(mode)` on a press. -> { root, buttons, set(mode, panels) }:
 * set presses the mode's button, shows only its panel of `panels` ({ coach, play }) and puts it in the link.
 * Beside it in Coach, Share (`${game}-coach-share`: the link holds the question; Play has its own, lib/play.js's).
 */
export function modeSwitch(game, title, pick, { setParams = null } = {}) {
  const buttons = {
    coach: el("button", { type: "button", class: "choice", id: `${game}-mode-coach`, onclick: () => pick("coach") }, "Coach"),
    play: el("button", { type: "button", class: "choice", id: `${game}-mode-play`, onclick: () => pick("play") }, "Play"),
  };
  const status = el("span", { class: "hint", id: `${game}-coach-share-status`, role: "status" });
  const share = shareButton(`${game}-coach-share`, (text) => { status.textContent = text; });
  const root = el("div", { class: "row" }, el("div", { class: "group", role: "group", "aria-label": `${title} mode` }, buttons.coach, buttons.play),
    share.button, status, share.field);
  return {
    root, buttons,
    set(mode, panels = {}) {
      for (const [m, b] of Object.entries(buttons)) b.setAttribute("aria-pressed", m === mode ? "true" : "false");
      for (const [m, panel] of Object.entries(panels)) panel.hidden = m !== mode;
      share.button.hidden = mode !== "coach";
      status.textContent = "";
      share.field.hidden = true;
      setParams?.({ mode });
    },
  };
}

/** A row of a Play history that opens its position in Coach. */
export const coachRow = (text, open, attrs = {}) =>
  el("li", {}, el("button", { type: "button", class: "link", title: "Open this position in Coach", ...attrs, onclick: open }, ...[text].flat()));

