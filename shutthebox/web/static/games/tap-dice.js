/* Coach's dice you tap (yazy and Yahtzee, dice-coach.js): five die buttons beside the typed dice field, which
 * stays (keyboards, the link's `dice=`). A tap steps a die's face 1..6 (6 back to 1); on a focused die the
 * arrow keys Up and Down step it too, Left and Right, Home and End move between the dice (one tab stop). The
 * best move is drawn on them: the dice the best keep keeps, outlined and labelled "keep". */

import { dieNode, el, setFace } from "../lib/ui.js";

const SIDES = 6;
const STEP = { ArrowUp: 1, ArrowDown: -1 };
const MOVE = { ArrowLeft: -1, ArrowRight: 1 };

/**
 * id: the ids' prefix (`${id}-tap-dice`, dice `data-die` 1..n); count: how many dice; changed(text): a tap made
 * the dice `text` (the field's new value); fallback(): the dice a tap starts from when the field shows none.
 * -> { root, buttons, show(text), mark(indexes, words) }
 */
export function tapDice(id, count, changed, fallback) {
  let faces = Array(count).fill(null);
  const note = el("span", { id: `${id}-tap-dice-mark`, class: "visually-hidden" });
  const buttons = Array.from({ length: count }, (_, i) => el("button", { type: "button", class: "yazy-die tap-die", "data-die": i + 1,
    tabindex: i ? "-1" : "0", onclick: () => step(i, 1), onkeydown: (event) => key(event, i) }, dieNode(null),
  el("span", { class: "kept" }, String(i + 1))));
  const root = el("div", { class: "yazy-dice tap-dice", id: `${id}-tap-dice`, role: "group",
    "aria-label": "The dice: press one to step its face from 1 to 6 (arrow keys Up and Down too)" }, ...buttons, note);

  function draw() {
    buttons.forEach((b, i) => {
      setFace(b.querySelector(".die"), faces[i]);
      b.setAttribute("aria-label", `die ${i + 1}: ${faces[i] ?? "not rolled"}`);
    });
  }

  /** Die i's face moved by `by` (wrapping 1..6); the field gets the dice. */
  function step(i, by) {
    if (faces.some((f) => f === null)) faces = [...fallback()].map(Number);
    faces[i] = ((faces[i] - 1 + by + SIDES) % SIDES) + 1;
    draw();
    changed(faces.join(""));
  }

  function key(event, i) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    let to = null;
    if (STEP[event.key]) step(i, STEP[event.key]);
    else if (MOVE[event.key]) to = (i + MOVE[event.key] + count) % count;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = count - 1;
    else return;
    event.preventDefault();
    event.stopPropagation();
    if (to !== null) {
      buttons.forEach((b, j) => b.setAttribute("tabindex", j === to ? "0" : "-1"));
      buttons[to].focus();
    }
  }

  return {
    root, buttons,
    /** The field's dice: `text` of `count` digits 1-6 shows them; anything else (empty, being typed) none. */
    show(text) {
      faces = /^[1-6]+$/.test(text) && text.length === count ? [...text].map(Number) : Array(count).fill(null);
      draw();
    },
    /** Mark the dice `indexes` ("keep"), described by `words`; [] takes the marks away. */
    mark(indexes, words) {
      buttons.forEach((b, i) => {
        const on = indexes.includes(i);
        if (on) { b.dataset.hint = "keep"; b.setAttribute("aria-describedby", note.id); }
        else { delete b.dataset.hint; b.removeAttribute("aria-describedby"); }
      });
      note.textContent = indexes.length ? words : "";
    },
  };
}
