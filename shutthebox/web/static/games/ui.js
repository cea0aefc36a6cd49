/* Small DOM helpers shared by the games page's modules. */

import { InvalidQuestion } from "../format.js";

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

/** mulberry32, as the Shut the Box page's dice: one draw per die. */
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

/** Name a link parameter the page cannot use in #link-problems, beside what is there already. */
export function linkProblem(text) {
  const box = document.getElementById("link-problems");
  if (!box) return;
  box.append(el("p", {}, text));
  box.hidden = false;
}

/** The `seed` link parameter, a whole number 0..4294967295, or null: absent, or refused in #link-problems. */
export function seedParam(params) {
  const text = params.get("seed");
  if (text === null) return null;
  if (/^[0-9]{1,10}$/.test(text) && Number(text) < 4294967296) return Number(text);
  const shown = text.length <= 40 ? text : text.slice(0, 37) + "...";
  linkProblem(`seed=${shown}: a seed is a whole number from 0 to 4294967295; new dice are drawn.`);
  return null;
}

/**
 * Ask before a game in progress is thrown away: a <dialog> "Discard this game?" whose focused default
 * (also Esc) is "Keep playing". -> a promise of true when the player chose `action` (e.g. "New game").
 */
export function askDiscard(parent, action) {
  return new Promise((resolve) => {
    const keep = el("button", { type: "button", class: "primary", "data-ask": "keep" }, "Keep playing");
    const discard = el("button", { type: "button", "data-ask": "discard" }, action);
    const dialog = el("dialog", { class: "ask", "aria-label": "Discard this game?" },
      el("p", {}, "Discard this game?"), el("div", { class: "row" }, keep, discard));
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    keep.addEventListener("click", () => done(false));
    discard.addEventListener("click", () => done(true));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); done(false); });
    parent.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
