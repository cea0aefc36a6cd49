/* Toggle, the card-flip game of Project Euler 640 (docs/TOGGLE.md, FORMAT.md section 6.5).
 * Coach: the face-up cards and the dice x, y -> the expected further rolls and the card to turn,
 * as `ShutTheBox toggle --expect STATE` and `--move STATE X Y` print them. Play: a seeded game. */

import { InvalidQuestion, sixDecimals, wholeNumber } from "../format.js";
import { answerBox, el, field, loadTable, mulberry32, toggles } from "./ui.js";

export const id = "toggle";
export const title = "Toggle";
const LIMITS = { cards: [1, 16], sides: [2, 12] };

/** The rules from typed text; InvalidQuestion in the command line's words. */
export function checkRules(cards, sides) {
  for (const [name, value] of [["cards", cards], ["sides", sides]]) {
    const [low, high] = LIMITS[name];
    if (!Number.isInteger(value) || value < low || value > high) {
      throw new InvalidQuestion(`${name} must be a whole number from ${low} to ${high}, not ${value}`);
    }
  }
  if (cards > 2 * sides) {
    throw new InvalidQuestion(`with ${sides}-sided dice no roll can turn a card above ${2 * sides}, so ${cards} cards ` +
      `can never all be face down: use at most ${2 * sides} cards or more sides`);
  }
  return { cards, sides };
}

/** What the page asks the reader for: the file, its game and rules, and the arrays with their shapes. */
export function tableSpec({ cards, sides }) {
  const states = 2 ** cards;
  const name = `toggle-c${cards}-s${sides}.msgpack`;
  return {
    url: name,
    options: { name, game: "toggle", rules: { cards, sides },
      arrays: { rolls: ["<f8", [states]], flip: ["|u1", [states, sides, sides]] },
      fields: (h) => (typeof h.error_bound === "string" && typeof h.tie === "string" ? null : "has no error_bound or tie") },
    hint: ` Tables other than 12 cards x 6 sides and 4 x 2 are solved on first use: run ` +
      `\`ShutTheBox toggle --cards ${cards} --sides ${sides} --expect all\` once, then reload this page.`,
  };
}

const bit = (card) => 2 ** (card - 1);
export function cardsOf(mask) {
  const cards = [];
  for (let c = 1; mask; c++, mask = Math.floor(mask / 2)) if (mask % 2) cards.push(c);
  return cards;
}

/** The cards dice (x, y) let the player turn, increasing, without repeats. */
export function choices(cards, x, y) {
  return [...new Set([x, y, x + y])].filter((c) => c <= cards).sort((a, b) => a - b);
}

function maskOf(table, up) {
  const cards = table.rules.cards;
  if (typeof up === "number") {
    if (!Number.isInteger(up) || up < 0 || up >= 2 ** cards) throw new InvalidQuestion(`state ${up} is not a set of cards 1 to ${cards}`);
    return up;
  }
  let mask = 0;
  for (const c of up) {
    if (!Number.isInteger(c) || c < 1 || c > cards) throw new InvalidQuestion(`there is no card ${c} (the cards are 1 to ${cards})`);
    if (mask & bit(c)) throw new InvalidQuestion(`card ${c} is listed twice`);
    mask |= bit(c);
  }
  return mask;
}

/**
 * The coach's answer. q = { up: bitmask or list of face-up cards, x, y (both null: no dice) }
 * -> { value: "%.6f" of the expected further rolls, move: the card to turn as text (or null),
 *      error: why there is no card (the command line's message) or null, card: the number }.
 */
export function answer(table, q) {
  const { cards, sides } = table.rules;
  const mask = maskOf(table, q.up);
  const out = { value: sixDecimals(table.arrays.rolls[mask]), move: null, card: null, error: null };
  if (q.x === null || q.x === undefined) return out;
  for (const die of [q.x, q.y]) {
    if (!Number.isInteger(die) || die < 1 || die > sides) {
      out.error = `a die shows 1 to ${sides}, not ${die}`;
      return out;
    }
  }
  if (!mask) {
    out.error = "every card is face down: the game is over, there is nothing to turn";
    return out;
  }
  const card = table.arrays.flip[(mask * sides + q.x - 1) * sides + q.y - 1];
  if (!card) out.error = `dice ${q.x} and ${q.y} let you turn no card of 1 to ${cards}: the roll passes`;
  else { out.card = card; out.move = String(card); }
  return out;
}

export function mount(section, ctx) {
  const params = ctx.params;
  let table = null;
  let mode = params.get("mode") === "play" ? "play" : "coach";

  // -- rules
  const cardsField = field("Cards", params.get("cards") || "12", { id: "toggle-cards", size: 2 });
  const sidesField = field("Sides of each die", params.get("sides") || "6", { id: "toggle-sides", size: 2 });
  const rulesNote = el("p", { class: "hint", id: "toggle-rules" });
  const modeCoach = el("button", { type: "button", class: "choice", id: "toggle-mode-coach", onclick: () => setMode("coach") }, "Coach");
  const modePlay = el("button", { type: "button", class: "choice", id: "toggle-mode-play", onclick: () => setMode("play") }, "Play");
  const tableError = el("div", { class: "error", role: "alert", id: "toggle-error", hidden: true });

  // -- coach
  let cardButtons = toggles("Face-up cards", [], { name: "cards" });
  const cardsBox = el("div", { class: "row" });
  const xField = field("Die x", params.get("x") || "3", { id: "toggle-x", size: 2 });
  const yField = field("Die y", params.get("y") || "4", { id: "toggle-y", size: 2 });
  const box = answerBox();
  box.root.id = "toggle-answer";
  const coach = el("div", { id: "toggle-coach" },
    el("div", { class: "row" }, el("span", { class: "label", id: "toggle-up-label" }, "Face-up cards"), cardsBox,
      el("button", { type: "button", class: "link", id: "toggle-all", onclick: () => { cardButtons.set(cardsOf(2 ** table.rules.cards - 1)); update(); } }, "all"),
      el("button", { type: "button", class: "link", id: "toggle-none", onclick: () => { cardButtons.set([]); update(); } }, "none")),
    el("p", { class: "hint" }, "Press a card to turn it face up or face down. Leave both dice empty for the value alone."),
    el("div", { class: "row" }, xField.root, yField.root),
    xField.error, yField.error, box.root);

  // -- play
  const playCards = el("div", { class: "cards", id: "toggle-play-cards", role: "group", "aria-label": "Cards: press the one to turn" });
  const dice = el("div", { class: "dice", id: "toggle-dice", "aria-live": "polite" });
  const rollButton = el("button", { type: "button", class: "primary", id: "toggle-roll", title: "Roll the dice (R)", onclick: () => play.roll() }, "Roll ", el("kbd", {}, "R"));
  const hintButton = el("button", { type: "button", id: "toggle-hint", title: "Show the table's card (H)", onclick: () => play.hint() }, "Hint ", el("kbd", {}, "H"));
  const newButton = el("button", { type: "button", id: "toggle-new", title: "New game, new dice (N)", onclick: () => play.start(null) }, "New game");
  const message = el("p", { class: "message", id: "toggle-message", "aria-live": "assertive" });
  const feedback = el("p", { class: "feedback", id: "toggle-feedback", "aria-live": "polite" });
  const board = el("p", { class: "scoreboard", id: "toggle-board" });
  const log = el("ol", { class: "log", id: "toggle-log" });
  const playBox = el("div", { id: "toggle-play" },
    el("p", { class: "hint" }, "Turn every card face down. Roll, then press card x, card y or card x+y. Keys: R roll, H hint, N new game."),
    board, dice, playCards, el("div", { class: "row" }, rollButton, hintButton, newButton), message, feedback, log);

  section.append(
    el("div", { class: "row" }, el("div", { class: "group", role: "group", "aria-label": "Toggle mode" }, modeCoach, modePlay)),
    el("div", { class: "row" }, cardsField.root, sidesField.root), cardsField.error, sidesField.error, rulesNote, tableError,
    coach, playBox);

  // -- coach logic
  function readDice() {
    const tx = xField.input.value.trim(), ty = yField.input.value.trim();
    if (tx === "" && ty === "") { xField.show(""); yField.show(""); return [null, null]; }
    const sides = table.rules.sides;
    const die = (f, name) => f.read((t) => {
      const v = wholeNumber(t, name);
      if (v < 1 || v > sides) throw new InvalidQuestion(`${name} shows 1 to ${sides}, not ${v}`);
      return v;
    });
    let x = null, y = null, bad = false;
    try { x = die(xField, "die x"); } catch (e) { bad = true; }
    try { y = die(yField, "die y"); } catch (e) { bad = true; }
    if (bad) throw new InvalidQuestion("fix the dice");
    return [x, y];
  }

  function update() {
    if (!table) return;
    let x, y;
    try {
      [x, y] = readDice();
    } catch (e) {
      box.show({ value: null, move: null, error: "No answer until the dice are corrected." }, {});
      return;
    }
    const up = cardButtons.pressed().map(Number);
    const a = answer(table, { up, x, y });
    box.show(a, { value: `Expected further rolls (${up.length ? "cards " + up.join(",") : "none"} face up)`,
      move: `Turn card (dice ${x} and ${y})` });
  }
  xField.input.addEventListener("input", update);
  yField.input.addEventListener("input", update);

  // -- play logic
  const play = {
    state: null,
    start(seed) {
      if (!table) return;
      if (seed === null || seed === undefined) seed = Math.floor(Math.random() * 4294967296);
      const all = 2 ** table.rules.cards - 1;
      play.state = { seed, draw: mulberry32(seed), up: all, rolls: 0, dice: null, moves: [], cost: 0,
        start: table.arrays.rolls[all], over: false, hints: 0 };
      log.replaceChildren();
      message.textContent = "Roll the dice.";
      feedback.textContent = "";
      ctx.setParams({ seed: String(seed) });
      render();
    },
    roll() {
      const s = play.state;
      if (!s || s.over) { message.textContent = s && s.over ? "The game is over: press New game." : ""; return; }
      if (s.dice) { message.textContent = `First turn a card: ${choices(table.rules.cards, ...s.dice).join(", ")}.`; return; }
      const sides = table.rules.sides;
      s.dice = [1 + Math.floor(s.draw() * sides), 1 + Math.floor(s.draw() * sides)];
      s.rolls++;
      const can = choices(table.rules.cards, ...s.dice);
      if (!can.length) {
        message.textContent = `Dice ${s.dice[0]} and ${s.dice[1]}: no card to turn, the roll passes. Roll again.`;
        log.append(el("li", {}, `roll ${s.rolls}: ${s.dice.join(" ")}, passes`));
        s.dice = null;
        render();
        rollButton.focus();
        return;
      }
      message.textContent = `Dice ${s.dice[0]} and ${s.dice[1]}: turn card ${can.join(", card ")}.`;
      render();
      const first = playCards.querySelector(`[data-card="${can[0]}"]`);
      if (first) first.focus();
    },
    flip(card) {
      const s = play.state;
      if (!s || s.over) return;
      if (!s.dice) { message.textContent = "Roll the dice first (R)."; return; }
      const can = choices(table.rules.cards, ...s.dice);
      if (!can.includes(card)) {
        message.textContent = `Dice ${s.dice[0]} and ${s.dice[1]} let you turn card ${can.join(" or ")}, not card ${card}.`;
        return;
      }
      const sides = table.rules.sides, rolls = table.arrays.rolls;
      const best = table.arrays.flip[(s.up * sides + s.dice[0] - 1) * sides + s.dice[1] - 1];
      const after = s.up ^ bit(card);
      const cost = Math.max(0, rolls[after] - rolls[s.up ^ bit(best)]);
      const optimal = card === best || cost < 1e-10;
      s.moves.push({ dice: s.dice, card, best, cost, optimal });
      s.cost += optimal ? 0 : cost;
      s.up = after;
      feedback.textContent = optimal
        ? `Card ${card}: optimal.`
        : `Card ${card} costs ${cost.toFixed(6)} expected rolls; the table turns card ${best}.`;
      log.append(el("li", {}, `roll ${s.rolls}: ${s.dice.join(" ")}, card ${card}${optimal ? "" : ` (best ${best})`}`));
      s.dice = null;
      if (!s.up) {
        s.over = true;
        message.textContent = `Every card is face down after ${s.rolls} rolls. Optimal play expects ` +
          `${sixDecimals(s.start)} rolls from the start; your choices cost ${s.cost.toFixed(6)} expected rolls.`;
        render();
        newButton.focus();
        return;
      }
      message.textContent = `${sixDecimals(rolls[s.up])} expected rolls to go with best play. Roll again.`;
      render();
      rollButton.focus();
    },
    hint() {
      const s = play.state;
      if (!s || s.over) return;
      if (!s.dice) {
        message.textContent = `Before rolling: ${sixDecimals(table.arrays.rolls[s.up])} expected rolls to go with best play.`;
        return;
      }
      const sides = table.rules.sides;
      const best = table.arrays.flip[(s.up * sides + s.dice[0] - 1) * sides + s.dice[1] - 1];
      s.hints++;
      message.textContent = `Hint: turn card ${best} (then ${sixDecimals(table.arrays.rolls[s.up ^ bit(best)])} expected rolls to go).`;
    },
  };

  function render() {
    const s = play.state;
    if (!s || !table) return;
    const can = s.dice ? choices(table.rules.cards, ...s.dice) : [];
    playCards.replaceChildren(...Array.from({ length: table.rules.cards }, (_, i) => {
      const card = i + 1, up = (s.up & bit(card)) !== 0;
      return el("button", { type: "button", class: `card${up ? " up" : " down"}${can.includes(card) ? " can" : ""}`,
        "data-card": card, "data-up": up ? "1" : "0",
        "aria-label": `card ${card}, face ${up ? "up" : "down"}${can.includes(card) ? ", can be turned" : ""}`,
        onclick: () => play.flip(card) }, String(card));
    }));
    dice.replaceChildren(...(s.dice || []).map((d) => el("span", { class: "die", "aria-label": `die ${d}` }, String(d))));
    board.textContent = `Seed ${s.seed}. Rolls: ${s.rolls}. Face up: ${cardsOf(s.up).join(" ") || "none"}.`;
    rollButton.setAttribute("aria-disabled", s.over || s.dice ? "true" : "false");
    document.body.dataset.toggle = s.over ? "over" : s.dice ? "flip" : "roll";
  }

  function setMode(m) {
    mode = m;
    modeCoach.setAttribute("aria-pressed", m === "coach" ? "true" : "false");
    modePlay.setAttribute("aria-pressed", m === "play" ? "true" : "false");
    coach.hidden = m !== "coach";
    playBox.hidden = m !== "play";
    ctx.setParams({ mode: m });
    if (m === "play" && table && !play.state) play.start(seedParam());
  }

  function seedParam() {
    const text = params.get("seed");
    return text !== null && /^[0-9]{1,10}$/.test(text) && Number(text) < 4294967296 ? Number(text) : null;
  }

  async function loadRules() {
    let rules;
    const read = (f, name) => f.read((t) => wholeNumber(t, name));
    try {
      const cards = read(cardsField, "cards"), sides = read(sidesField, "sides");
      rules = checkRules(cards, sides);
      cardsField.show("");
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      if (!cardsField.error.textContent && !sidesField.error.textContent) cardsField.show(e.message);
      return;
    }
    table = await loadTable(ctx, tableSpec(rules), tableError, [coach, playBox]);
    if (!table) return;
    ctx.setParams({ cards: String(rules.cards), sides: String(rules.sides) });
    rulesNote.textContent = `Cards 1-${rules.cards}, two dice of ${rules.sides} sides: ${table.name}, ` +
      `values within ${table.header.error_bound} of the exact ones.`;
    const initial = params.get("up");
    cardButtons = toggles("Face-up cards", cardsOf(2 ** rules.cards - 1).map((c) => [c, String(c), `card ${c}`]),
      { name: "cards", onchange: update });
    cardButtons.root.setAttribute("aria-labelledby", "toggle-up-label");
    cardButtons.root.id = "toggle-cards-up";
    cardButtons.set(initial === null ? cardsOf(2 ** rules.cards - 1) : initial.split(",").filter(Boolean));
    cardsBox.replaceChildren(cardButtons.root);
    play.state = null;
    setMode(mode);
    update();
    ctx.ready();
  }
  cardsField.input.addEventListener("change", loadRules);
  sidesField.input.addEventListener("change", loadRules);

  function key(event) {
    if (mode !== "play" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement) return;
    const k = event.key.toLowerCase();
    if (k === "r") { event.preventDefault(); play.roll(); }
    else if (k === "h") { event.preventDefault(); play.hint(); }
    else if (k === "n") { event.preventDefault(); play.start(null); }
  }

  return {
    activate: loadRules,
    key,
    api: {
      answer: (q) => answer(table, q),
      answers: (qs) => qs.map((q) => { try { return answer(table, q); } catch (e) { return { error: e.message }; } }),
      table: () => table,
      play: { state: () => play.state && { ...play.state, draw: undefined }, start: (seed) => play.start(seed) },
    },
  };
}
