/* Small DOM helpers of both pages (index.html and games.html): building elements, fields, link
 * parameters, the "Discard this game?" question, seeded dice. */

import { InvalidQuestion, shorten } from "../format.js";

let serial = 0;

/** el("button", {type: "button", class: "x", onclick: f}, "text", child...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * A labelled text input with its own error message (aria-describedby, aria-invalid).
 * -> { root, input, error, read(parse) -> value or throws InvalidQuestion (and shows it) , clear() }
 */
export function field(label, value, { id, size = 4, hint = "", numeric = true } = {}) {
  id = id || `f${++serial}`;
  const input = el("input", { id, type: "text", value, size, autocomplete: "off", spellcheck: "false",
    inputmode: numeric ? "numeric" : null, "aria-describedby": `${id}-error` });
  const error = el("span", { id: `${id}-error`, class: "inline-error", role: "alert", hidden: true });
  const root = el("span", { class: "field" }, el("label", { for: id }, label), input,
    hint ? el("span", { class: "hint" }, hint) : null);
  const api = {
    root, input, error,
    show(message) {
      error.textContent = message;
      error.hidden = !message;
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    },
    read(parse) {
      try {
        const result = parse(input.value);
        api.show("");
        return result;
      } catch (e) {
        if (!(e instanceof InvalidQuestion)) throw e;
        api.show(e.message);
        throw e;
      }
    },
  };
  return api;
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

/** mulberry32: the seeded dice of every game's Play, one draw per die (a seed replays the same dice). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One die of `sides` faces from a mulberry32 stream. */
export const rollDie = (draw, sides) => 1 + Math.floor(draw() * sides);

/** A die shown as its number. */
export const numberDie = (face) => el("span", { class: "die", "aria-label": `die ${face}` }, String(face));

/** "1 roll", "2 rolls"; "1 die", "3 dice". */
export const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** "a", "a or b", "a, b or c". */
const orList = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}` : items.join(""));

/** The question's answer block: a value line and a move line, each with data-answer for the tests. */
export function answerBox() {
  const value = el("p", { class: "answer-value", "data-answer": "" });
  const move = el("p", { class: "answer-move", "data-answer": "" });
  const problem = el("p", { class: "answer-problem", role: "status" });
  const root = el("div", { class: "answer", "aria-live": "polite" }, value, move, problem);
  return {
    root, value, move, problem,
    show(a, words) {
      value.dataset.answer = a.value ?? "";
      value.textContent = a.value === null ? "" : `${words.value}: ${a.value}`;
      move.dataset.answer = a.move ?? "";
      move.textContent = a.move === null ? "" : `${words.move}: ${a.move}`;
      problem.textContent = a.error || "";
    },
  };
}

/**
 * The table of ``spec`` through ``ctx.load``; on failure ``errorBox`` says why and
 * ``panels`` are hidden (null is returned), on success the box is hidden again.
 */
export async function loadTable(ctx, spec, errorBox, panels) {
  try {
    const table = await ctx.load(spec);
    errorBox.hidden = true;
    return table;
  } catch (e) {
    errorBox.textContent = e.message;
    errorBox.hidden = false;
    for (const panel of panels) panel.hidden = true;
    ctx.failed(e);
    return null;
  }
}

/** The page cannot go on: #error says why (and the tests see data-state "error"). */
export function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = false;
  document.getElementById("status").hidden = true;
  document.body.dataset.state = "error";
}

/**
 * The Coach / Play switch of a game's section: `pick(mode)` on a press. -> { root, buttons, set(mode, panels) }:
 * set presses the mode's button, shows only its panel of `panels` ({ coach, play }) and puts it in the link.
 */
export function modeSwitch(game, title, pick, { setParams = null } = {}) {
  const buttons = {
    coach: el("button", { type: "button", class: "choice", id: `${game}-mode-coach`, onclick: () => pick("coach") }, "Coach"),
    play: el("button", { type: "button", class: "choice", id: `${game}-mode-play`, onclick: () => pick("play") }, "Play"),
  };
  const root = el("div", { class: "row" }, el("div", { class: "group", role: "group", "aria-label": `${title} mode` }, buttons.coach, buttons.play));
  return {
    root, buttons,
    set(mode, panels = {}) {
      for (const [m, b] of Object.entries(buttons)) b.setAttribute("aria-pressed", m === mode ? "true" : "false");
      for (const [m, panel] of Object.entries(panels)) panel.hidden = m !== mode;
      setParams?.({ mode });
    },
  };
}

/** A row of a Play history that opens its position in Coach. */
export const coachRow = (text, open, attrs = {}) =>
  el("li", {}, el("button", { type: "button", class: "link", title: "Open this position in Coach", ...attrs, onclick: open }, text));

// -- link parameters: one the page cannot use is named in #link-problems, never replaced in silence

const linkProblems = [];

/** Name the link's parameter `name` (of `params`): why it cannot be used, and what the page does `instead`. */
export function badParam(params, name, why, instead) {
  const text = `${name}=${shorten(params.get(name) ?? "")}: ${why}; ${instead}.`;
  if (linkProblems.includes(text)) return; // Play and Solo read the same seed
  linkProblems.push(text);
  const box = document.getElementById("link-problems");
  if (!box) return;
  box.replaceChildren(
    el("p", {}, `This link has ${linkProblems.length > 1 ? "parameters" : "a parameter"} the page could not use:`),
    el("ul", {}, ...linkProblems.map((problem) => el("li", {}, problem))),
    el("button", { type: "button", class: "small", onclick: () => { box.hidden = true; } }, "Dismiss"));
  box.hidden = false;
}

/** A link parameter that must be one of `choices`: its value, or `fallback` (absent, or named as bad). */
export function choiceParam(params, name, choices, fallback, instead) {
  const value = params.get(name);
  if (value === null) return fallback;
  if (choices.includes(value)) return value;
  badParam(params, name, `choose ${orList(choices)}`, instead);
  return fallback;
}

const MAX_SEED = 0xffffffff;

/** The `seed` link parameter, a whole number 0..MAX_SEED written plainly, or null (absent, or named as bad). */
export function seedParam(params) {
  const text = params.get("seed");
  if (text === null) return null;
  if (/^[0-9]+$/.test(text) && Number(text) <= MAX_SEED) return Number(text);
  badParam(params, "seed", `a seed is a whole number from 0 to ${MAX_SEED}`, "new dice were drawn instead");
  return null;
}

/** A seed for new dice: short enough to read out. */
export const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0] % 1000000000;

// -- asking before a game in progress is thrown away: one <dialog id="ask"> for every game

/** The question is open: the game's keys wait. */
export const asking = () => Boolean(document.getElementById("ask")?.open);

/**
 * Ask "Discard this game?" in a <dialog> whose focused default (also Esc) is "Keep playing", before
 * `action` (the other button, e.g. "New game") throws away a game in progress; `detail` says more.
 * -> a promise of true when the player chose `action` (false at once while the question is open).
 */
export function askDiscard(action, detail = "The game in progress will be lost.") {
  let dialog = document.getElementById("ask");
  if (dialog?.open) return Promise.resolve(false);
  if (!dialog) {
    dialog = el("dialog", { id: "ask", class: "ask", "aria-labelledby": "ask-text", "aria-describedby": "ask-detail" },
      el("p", { id: "ask-text" }, "Discard this game?"), el("p", { id: "ask-detail" }),
      el("div", { class: "row" }, el("button", { type: "button", id: "ask-no", class: "primary", "data-ask": "keep" }, "Keep playing"),
        el("button", { type: "button", id: "ask-yes", "data-ask": "discard" })));
    document.body.append(dialog);
  }
  const keep = dialog.querySelector("#ask-no"), discard = dialog.querySelector("#ask-yes");
  dialog.querySelector("#ask-detail").textContent = detail;
  discard.textContent = action;
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); resolve(answer); };
    keep.onclick = () => done(false);
    discard.onclick = () => done(true);
    dialog.oncancel = (event) => { event.preventDefault(); done(false); };
    dialog.showModal();
    keep.focus(); // the safe answer: a second Enter keeps the game
  });
}
