/* The DOM helpers both pages share (index.html with shutthebox/*.js, games.html with games/*.js):
 * building elements and labelled fields, words, the page's error box, link parameters the page
 * cannot use (named in #link-problems, the seed's among them), and the "Discard this game?" dialog. */

import { InvalidQuestion, shorten } from "./notation.js";

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

/** Show `face` on a die: pips for 1 to 6, the number on any other face (dice of 7 to 20 sides); null: not rolled. */
export function setFace(die, face) {
  die.dataset.face = face === null ? "" : String(face);
  die.setAttribute("aria-label", face === null ? "not rolled" : `die showing ${face}`);
  const pips = face >= 1 && face <= 6;
  die.classList.toggle("number", !pips);
  die.querySelector("b").textContent = pips ? "" : face === null ? "\u2013" : String(face);
}

/** A die drawn as on a table, the one way every page draws dice (style.css's .die): an image named by its face. */
export function dieNode(face) {
  const die = el("span", { class: "die", role: "img" });
  for (let i = 0; i < 9; i++) die.append(document.createElement("i"));
  die.append(document.createElement("b"));
  setFace(die, face);
  return die;
}

/** Which of the dice `showing` (indexes, increasing) a choice of `faces` takes: for each face, the first die
 * showing it not taken already. */
export function facesAt(showing, faces) {
  const taken = [];
  for (const face of faces) {
    const i = showing.findIndex((d, at) => d === face && !taken.includes(at));
    if (i >= 0) taken.push(i);
  }
  return taken.sort((a, b) => a - b);
}

/** "1 roll", "2 rolls"; "1 die", "3 dice". */
export const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** "a", "a or b", "a, b or c". */
const orList = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}` : items.join(""));

/** The page cannot go on: #error says why (and the tests see data-state "error"). */
export function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = false;
  document.getElementById("status").hidden = true;
  document.body.dataset.state = "error";
}

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
