/* The Shut the Box page's own view helpers: the roving tab stop of a group, focus,
 * tiles and the dice shown. What both pages share (el, the dice drawn, link parameters, "Discard this game?") is
 * lib/ui.js's. */

import { asking, dieNode, el, setFace } from "../lib/ui.js";

export { dieNode, setFace };

export const $ = (id) => document.getElementById(id);

export const params = new URLSearchParams(location.search);
export const ANIMATE = params.get("anim") !== "0";

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

/** Move the focus to `target` when the user is at the game (focus in `section` or lost), not elsewhere on the page. */
export function focusIn(section, target) {
  if (!target || section.hidden || asking()) return;
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
      for (const die of faces) setFace(die, random());
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
