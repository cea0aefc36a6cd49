/* Coach's dice you tap (dice-coach.js's five, the set-aside family's dice showing): die buttons beside the typed
 * dice field, which stays (keyboards, the link). A tap steps a die's face 1..sides (back to 1); on a focused die
 * the arrow keys Up and Down step it too, Left and Right, Home and End move between the dice (one tab stop).
 * The best move is drawn on them: the dice it keeps or sets aside, outlined and labelled. */

import { dieNode, el, setFace } from "../lib/ui.js";

const STEP = { ArrowUp: 1, ArrowDown: -1 };
const MOVE = { ArrowLeft: -1, ArrowRight: 1 };

/** Dice written as digits ("13366"): their faces, or null for anything else (empty, being typed). */
const digits = (text) => (/^[1-9]+$/.test(text) ? [...text].map(Number) : null);

/**
 * id: the ids' prefix (`${id}-tap-dice`, dice `data-die` 1..n). Options: count, the dice (null: as many as the
 * field shows, none when it shows none); sides; changed(text), a tap made the dice `text` (the field's new
 * value); fallback(), the dice a tap starts from when the field shows none of `count`; read(text), the faces
 * in the field's order or null; write(faces), the field's text.
 * -> { root, show(text), setSides(n), mark(indexes, words, word = "keep") }
 */
export function tapDice(id, { count = null, sides = 6, changed, fallback = () => "", read = digits, write = (faces) => faces.join("") }) {
  let faces = [];
  let buttons = [];
  const note = el("span", { id: `${id}-tap-dice-mark`, class: "visually-hidden" });
  const root = el("div", { class: "yazy-dice tap-dice", id: `${id}-tap-dice`, role: "group" }, note);
  const label = () => root.setAttribute("aria-label", `The dice: press one to step its face from 1 to ${sides} (arrow keys Up and Down too)`);
  label();

  /** The buttons for `n` dice, made again only when their number changes (a focused die keeps the focus). */
  function make(n) {
    if (buttons.length === n) return;
    buttons = Array.from({ length: n }, (_, i) => el("button", { type: "button", class: "yazy-die tap-die", "data-die": i + 1,
      tabindex: i ? "-1" : "0", onclick: () => step(i, 1), onkeydown: (event) => key(event, i) }, dieNode(null),
    el("span", { class: "kept" }, String(i + 1))));
    root.replaceChildren(...buttons, note);
  }

  function draw() {
    make(count ?? faces.length);
    buttons.forEach((b, i) => {
      const face = faces[i] ?? null;
      setFace(b.querySelector(".die"), face);
      b.setAttribute("aria-label", `die ${i + 1}: ${face ?? "not rolled"}`);
    });
  }

  /** Die i's face moved by `by` (wrapping 1..sides); the field gets the dice. */
  function step(i, by) {
    if (faces.length !== buttons.length) faces = read(fallback()) ?? [];
    if (i >= faces.length) return;
    faces[i] = ((faces[i] - 1 + by + sides) % sides) + 1;
    draw();
    changed(write(faces));
  }

  function key(event, i) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const n = buttons.length;
    let to = null;
    if (STEP[event.key]) step(i, STEP[event.key]);
    else if (MOVE[event.key]) to = (i + MOVE[event.key] + n) % n;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = n - 1;
    else return;
    event.preventDefault();
    event.stopPropagation();
    if (to !== null) {
      buttons.forEach((b, j) => b.setAttribute("tabindex", j === to ? "0" : "-1"));
      buttons[to].focus();
    }
  }

  draw();
  return {
    root,
    /** The field's dice: `text` the field reads as dice (of `count`, when fixed) shows them; anything else none. */
    show(text) {
      const got = read(text);
      faces = got && (count === null || got.length === count) && got.every((f) => f >= 1 && f <= sides) ? got : [];
      draw();
    },
    /** The dice now have `n` sides (the rules changed). */
    setSides(n) { sides = n; label(); },
    /** Mark the dice `indexes` with `word` ("keep", "aside"), described by `words`; [] takes the marks away. */
    mark(indexes, words, word = "keep") {
      buttons.forEach((b, i) => {
        const on = indexes.includes(i);
        if (on) { b.dataset.hint = word; b.setAttribute("aria-describedby", note.id); }
        else { delete b.dataset.hint; b.removeAttribute("aria-describedby"); }
      });
      note.textContent = indexes.length ? words : "";
    },
  };
}
