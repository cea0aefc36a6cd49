/* The Shut the Box page's small view helpers: numbers in words, link parameters, the roving tab
 * stop of a group, the "Discard this game?" dialog, tiles and dice. DOM building is games/ui.js's `el`. */

import { el } from "../games/ui.js";

export { el };
export const $ = (id) => document.getElementById(id);

export const params = new URLSearchParams(location.search);
export const ANIMATE = params.get("anim") !== "0";

export const pct = (value) => `${(value * 100).toFixed(2)}%`;
export const exact = (value) => value.toFixed(6);
export const points = (loss) => `${(loss * 100).toFixed(2)} percentage points`;

/** A whole number written plainly ("17"), from low to high; null for anything else ("2.5", "1e1", "-3", "46abc", ""). */
export function wholeNumber(text, low, high) {
  if (typeof text !== "string" || !/^[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return n >= low && n <= high ? n : null;
}

// -- link parameters the page could not use: named in a message, never replaced in silence

const linkProblems = [];

/** Note that the link's `name` could not be used: why, and what the page did instead. */
export function badParam(name, why, instead) {
  linkProblems.push(`${name}=${params.get(name)}: ${why}; ${instead}.`);
}

export function showLinkProblems() {
  const box = $("link-problems");
  box.textContent = "";
  if (!linkProblems.length) { box.hidden = true; return; }
  box.append(el("p", { text: `This link has ${linkProblems.length > 1 ? "parameters" : "a parameter"} the page could not use:` }),
    el("ul", {}, ...linkProblems.map((text) => el("li", { text }))),
    el("button", { type: "button", class: "small", text: "Dismiss", onclick: () => { box.hidden = true; } }));
  box.hidden = false;
}

/** A link parameter that must be one of `choices`: its value, or `fallback` with a message. */
export function choiceParam(name, choices, fallback, instead) {
  const value = params.get(name);
  if (value === null) return fallback;
  if (choices.includes(value)) return value;
  badParam(name, `choose ${choices.slice(0, -1).join(", ")}${choices.length > 1 ? " or " : ""}${choices[choices.length - 1]}`, instead);
  return fallback;
}

let seedRead = false, seed = null;
/** The seed of the link (Play and Solo share it), or null; a bad one is named once. */
export function linkSeed() {
  if (!seedRead) {
    seedRead = true;
    const text = params.get("seed");
    if (text !== null) {
      seed = wholeNumber(text, 0, 0xffffffff);
      if (seed === null) badParam("seed", "a seed is a whole number from 0 to 4294967295", "new dice were drawn instead");
    }
  }
  return seed;
}

export const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0] % 1000000000;

export const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ANIMATE ? ms : 0));

// -- keyboard: one tab stop per group of tiles or rolls, arrow keys within it (roving tabindex)

const groupItems = (group) => [...group.querySelectorAll("button")].filter((b) => !b.hidden);

function setStop(group, item) {
  for (const b of groupItems(group)) b.tabIndex = b === item ? 0 : -1;
}

/** After the group's buttons changed: keep one tab stop, the focused button, else the current stop, else `preferred`. */
export function syncStop(group, preferred) {
  const items = groupItems(group);
  if (!items.length) return;
  const focused = items.includes(document.activeElement) ? document.activeElement : null;
  const current = items.find((b) => b.getAttribute("tabindex") === "0");
  setStop(group, focused || current || preferred || items[0]);
}

export function roving(group) {
  group.addEventListener("focusin", (event) => {
    const item = event.target.closest("button");
    if (item && group.contains(item)) setStop(group, item);
  });
  group.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    const items = groupItems(group), at = items.indexOf(document.activeElement);
    if (at < 0 || (step === undefined && event.key !== "Home" && event.key !== "End")) return;
    const to = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1 : (at + step + items.length) % items.length;
    event.preventDefault();
    event.stopPropagation();
    setStop(group, items[to]);
    items[to].focus();
  });
}

// -- asking before a game in progress is thrown away (a <dialog> inside the page, not window.confirm)

let asking = null;

export const askOpen = () => $("ask").open;

/** Ask `question`; `yes` runs only if the user confirms with the button labelled `yesText`. */
export function ask(question, yesText, yes) {
  const box = $("ask");
  if (box.open) return;
  $("ask-text").textContent = question;
  $("ask-yes").textContent = yesText;
  asking = yes;
  box.showModal();
  $("ask-no").focus(); // the safe answer: a second Enter keeps the game
}

export function initAsk() {
  const box = $("ask");
  $("ask-yes").addEventListener("click", () => {
    const yes = asking;
    asking = null;
    box.close();
    if (yes) yes();
  });
  $("ask-no").addEventListener("click", () => { asking = null; box.close(); });
  box.addEventListener("close", () => { asking = null; });
}

/** Move the focus to `target` when the user is at the game (focus in `section` or lost), not elsewhere on the page. */
export function focusIn(section, target) {
  if (!target || section.hidden || askOpen()) return;
  const now = document.activeElement;
  if (now && now !== document.body && now !== target && !section.contains(now)) return;
  if (now !== target) target.focus();
}

// -- tiles and dice

/** The tile buttons of a group, 1..count (built again only when the count changes). */
export function buildTiles(group, count) {
  if (group.children.length === count) return;
  group.textContent = "";
  for (let t = 1; t <= count; t++) group.append(el("button", { type: "button", class: "tile", "data-tile": String(t), text: String(t) }));
}

/** Show a position on a group of tiles: shut ones, and `chosen` ones (Play, Solo) or open = pressed (Coach). */
export function showTiles(group, mask, chosen = null) {
  for (const button of group.children) {
    const bit = 1 << (Number(button.dataset.tile) - 1);
    const open = mask & bit;
    if (chosen === null) {
      button.className = `tile${open ? "" : " shut"}`;
      button.setAttribute("aria-pressed", String(!!open));
      button.setAttribute("aria-label", `tile ${button.textContent}${open ? ", open" : ", shut"}`);
    } else {
      button.className = `tile${open ? "" : " shut"}${chosen & bit ? " chosen" : ""}`;
      button.setAttribute("aria-pressed", String(!!(chosen & bit)));
      button.setAttribute("aria-label", `tile ${button.textContent}${open ? (chosen & bit ? ", chosen" : ", open") : ", shut"}`);
    }
  }
  syncStop(group);
}

export function dieNode(face) {
  const die = el("span", { class: "die", "data-face": String(face), role: "img", "aria-label": `die showing ${face}` });
  for (let i = 0; i < 9; i++) die.append(document.createElement("i"));
  return die;
}

/** Show dice and their total in `box`. */
export function showDice(box, dice, roll) {
  box.textContent = "";
  for (const face of dice) box.append(dieNode(face));
  if (roll !== null) box.append(el("span", { class: "total", text: `= ${roll}` }));
  box.setAttribute("aria-label", roll === null ? "no roll" : `roll ${roll}`);
}

/** Tumble dice in `box` (unless anim=0); resolves when they settle, the caller then shows the dice. */
export function animateDice(box, count, sides) {
  if (!ANIMATE) return Promise.resolve();
  box.textContent = "";
  const random = () => 1 + Math.floor(Math.random() * sides);
  const faces = Array.from({ length: count }, () => {
    const die = dieNode(random());
    die.classList.add("rolling");
    box.append(die);
    return die;
  });
  return new Promise((resolve) => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      for (const die of faces) die.dataset.face = String(random());
      if (ticks >= 7) { clearInterval(timer); resolve(); }
    }, 80);
  });
}

/** "Tile 8", "Tiles 3 + 5". */
export const tilesText = (tiles) => `${tiles.length === 1 ? "Tile " : "Tiles "}${tiles.join(" + ")}`;

/** A message line: text, and whether it refuses something (data-refused, red). */
export function say(box, text, refused = false) {
  box.textContent = text;
  box.className = `message${refused ? " refused" : ""}`;
  box.dataset.refused = refused ? "true" : "false";
}
