/* The Rules control of Coach and Play: tiles, dice, sides, the one-die rule, the tiles per move and
 * the players, as the command line's game options take them (their limits and refusal words),
 * named presets from rules.js, and the link's parameters for them. A table not shipped is solved
 * by the server on first use, its progress shown. */

import { InvalidQuestion, unlessInvalid } from "../lib/notation.js";
import { askDiscard, badParam, el, field } from "../lib/ui.js";
import {
  PRESETS, STANDARD, LIMITS, makeRules, optionNumber, parseOneDie, rulesFromOptions, oneDieText, presetOf, sameRules, describeRules, tableName,
} from "./rules.js";
import { loadPlayersTable, loadSoloRulesTable } from "./tables.js";
import { cancelButton, solveQuestion } from "../solve.js";
import { $, params } from "./view.js";

// The link's parameter of each option, and its rules field.
const LINK = [["tiles", "tiles"], ["dice", "dice"], ["sides", "sides"], ["one_die", "oneDie"], ["max_move_tiles", "maxMoveTiles"]];
/** The link's parameters of the rules (not the players): a preset, then the options. */
export const RULE_PARAMS = ["rules", ...LINK.map(([name]) => name)];

/**
 * The rules and players the link asks for, or null when it asks for none (the table's own). A bad
 * parameter is named in #link-problems and the rules the page uses instead are said.
 */
export function rulesFromLink() {
  const given = ["rules", "players", ...LINK.map(([name]) => name)].filter((name) => params.get(name) !== null);
  if (!given.length) return null;
  let base = STANDARD;
  const preset = params.get("rules");
  if (preset !== null) {
    const found = PRESETS.find((p) => p.id === preset);
    if (found) base = found.rules;
    else badParam(params, "rules", `choose ${PRESETS.map((p) => p.id).join(", ")}`, "the standard rules instead");
  }
  const options = {};
  for (const [name, key] of [...LINK, ["players", "players"]]) if (params.get(name) !== null) options[key] = params.get(name);
  const nameOf = (key) => (LINK.find(([, k]) => k === key) || [key])[0];
  const onBad = (key, e) => badParam(params, nameOf(key), e.message,
    key === "players" ? "2 players instead" : "the rule's default instead");
  try {
    return { ...rulesFromOptions(options, { base, onBad }), param: given[0] };
  } catch (e) {
    if (!(e instanceof InvalidQuestion)) throw e;
    badParam(params, given.find((n) => n !== "players") || given[0], e.message, "the table's own rules instead");
    return null;
  }
}

/** The link's parameters of a table's rules and players: each option not at its default, as the command line's. */
export function rulesEntries(table) {
  const entries = ruleEntries(table.rules);
  if (table.players !== 2) entries.push(["players", String(table.players)]);
  return entries;
}

/** The link's parameters of a rule set (Solo's too): each option not at its default. */
export function ruleEntries(r) {
  const entries = [];
  if (r.tiles !== STANDARD.tiles) entries.push(["tiles", String(r.tiles)]);
  if (r.dice !== STANDARD.dice) entries.push(["dice", String(r.dice)]);
  if (r.sides !== STANDARD.sides) entries.push(["sides", String(r.sides)]);
  if (oneDieText(r) !== oneDieText(STANDARD)) entries.push(["one_die", oneDieText(r)]);
  if (r.maxMoveTiles !== null) entries.push(["max_move_tiles", String(r.maxMoveTiles)]);
  return entries;
}

export class RulesControl {
  constructor(app) {
    this.app = app;
    // One load at a time per purpose: Coach and Play's table, Solo's table. A new load aborts only the
    // earlier one of its own purpose (no longer wanted), never the other's solve.
    this.aborts = { players: null, solo: null };
  }

  init() {
    const panel = $("rules-form");
    const hint = (name) => `${LIMITS[name][0]} to ${LIMITS[name][1]}`;
    this.fields = {
      tiles: field("Tiles", "", { id: "rules-tiles", size: 3, hint: hint("tiles") }),
      dice: field("Dice", "", { id: "rules-dice", size: 3, hint: hint("dice") }),
      sides: field("Sides", "", { id: "rules-sides", size: 3, hint: hint("sides") }),
      oneDie: field("One die", "", { id: "rules-one-die", size: 12, numeric: false, hint: "never, K, high, K,high; optional:…" }),
      maxMoveTiles: field("Tiles per move", "", { id: "rules-max-move", size: 3, hint: "at most; empty: any" }),
      players: field("Players", "", { id: "rules-players", size: 3, hint: hint("players") }),
    };
    this.preset = el("select", { id: "rules-preset", onchange: () => this.choosePreset() },
      ...PRESETS.map((p) => el("option", { value: p.id, text: `${p.title}: ${describeRules(p.rules)}` })),
      el("option", { value: "", text: "Custom" }));
    panel.textContent = "";
    panel.append(el("p", { class: "row" }, el("label", { for: "rules-preset", text: "Rule set" }), this.preset),
      el("div", { class: "rules-fields" }, ...Object.values(this.fields).map((f) => f.root)),
      ...Object.values(this.fields).map((f) => f.error),
      el("p", { class: "row" }, el("button", { type: "button", id: "rules-apply", class: "primary", text: "Use these rules",
        onclick: () => this.apply() }), el("span", { id: "rules-message", class: "hint", role: "status" })));
    for (const f of Object.values(this.fields)) {
      f.input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); this.apply(); } });
      f.input.addEventListener("input", () => this.edited(f));
    }
    this.show();
  }

  /** A field was edited: one die has no one-die rule (never, chosen for you, the earlier rule given back
   * with more dice), and the menu names the preset the fields now make, else Custom. */
  edited(f) {
    const dice = this.fields.dice.input.value.trim(), oneDie = this.fields.oneDie.input;
    if (f === this.fields.dice && dice === "1" && oneDie.value.trim() !== "never") {
      this.oneDieBefore = oneDie.value;
      oneDie.value = "never";
      this.fields.oneDie.show("");
    } else if (f === this.fields.dice && dice !== "1" && this.oneDieBefore !== undefined && oneDie.value.trim() === "never") {
      oneDie.value = this.oneDieBefore;
    }
    if (f === this.fields.oneDie) this.oneDieBefore = undefined;
    this.preset.value = this.typedPreset();
  }

  /** The preset whose rules the fields hold, "" (Custom) when none or the fields do not make rules. */
  typedPreset() {
    const f = this.fields;
    try {
      const fields = {
        tiles: optionNumber("tiles", f.tiles.input.value.trim()), dice: optionNumber("dice", f.dice.input.value.trim()),
        sides: optionNumber("sides", f.sides.input.value.trim()), ...parseOneDie(f.oneDie.input.value.trim()),
        maxMoveTiles: f.maxMoveTiles.input.value.trim() === "" ? null : optionNumber("maxMoveTiles", f.maxMoveTiles.input.value.trim()),
      };
      return presetOf(makeRules(fields))?.id ?? "";
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      return "";
    }
  }

  /** Solo's rules are its own: the form shows and sets them in Solo mode, the table's in Coach and Play. */
  get solo() { return this.app.mode === "solo"; }

  /** The fields and the summary from the rules in use (the table's, or Solo's). */
  show() {
    if (!this.fields) return;
    const t = this.app.table, r = this.solo ? this.app.solo.rules : t.rules;
    const values = { tiles: r.tiles, dice: r.dice, sides: r.sides, oneDie: oneDieText(r), maxMoveTiles: r.maxMoveTiles ?? "", players: t.players };
    for (const [key, f] of Object.entries(this.fields)) { f.input.value = String(values[key]); f.show(""); }
    this.fields.players.root.hidden = this.solo;
    this.oneDieBefore = undefined;
    const preset = presetOf(r);
    this.preset.value = preset ? preset.id : "";
    $("rules-summary").textContent = `Rules: ${preset ? preset.title : "custom"}, ${this.solo ? "one player (Solo)" : `${t.players} players`}`;
  }

  choosePreset() {
    const preset = PRESETS.find((p) => p.id === this.preset.value);
    if (!preset) return;
    const r = preset.rules;
    const values = { tiles: r.tiles, dice: r.dice, sides: r.sides, oneDie: oneDieText(r), maxMoveTiles: r.maxMoveTiles ?? "" };
    for (const [key, value] of Object.entries(values)) { this.fields[key].input.value = String(value); this.fields[key].show(""); }
    this.oneDieBefore = undefined;
  }

  /** The rules and players typed, or null (each bad field says why, beside it). */
  read() {
    const f = this.fields;
    let ok = true;
    const take = (key, parse) => unlessInvalid(() => f[key].read(parse), () => { ok = false; return null; });
    const number = (key) => (text) => optionNumber(key, text.trim());
    const fields = {
      tiles: take("tiles", number("tiles")), dice: take("dice", number("dice")), sides: take("sides", number("sides")),
      ...take("oneDie", (text) => parseOneDie(text.trim())),
      maxMoveTiles: take("maxMoveTiles", (text) => (text.trim() === "" ? null : optionNumber("maxMoveTiles", text.trim()))),
    };
    const players = this.solo ? 1 : take("players", number("players"));
    if (!ok) return null;
    if (fields.maxMoveTiles !== null && fields.maxMoveTiles > fields.tiles) {
      f.maxMoveTiles.show(`Tiles per move must be at most the tiles, ${fields.tiles}, not ${fields.maxMoveTiles}`);
      return null;
    }
    if (fields.dice === 1 && (fields.oneDieAtMost !== null || fields.oneDieHighShut)) {
      f.oneDie.show("With 1 die the one-die rule is never: it needs a game of more than one die");
      return null;
    }
    try {
      return { rules: makeRules(fields), players };
    } catch (e) {
      f.oneDie.show(e.message); // what is left: the one-die rule (an optional one die with no rule for when)
      return null;
    }
  }

  /** Use the rules typed: a new table (fetched, or solved first), after asking if a game is in progress. */
  apply() {
    const wanted = this.read();
    const message = $("rules-message");
    message.textContent = "";
    if (!wanted) { message.textContent = "Not changed: correct the rules marked."; return; }
    if (this.solo) {
      if (sameRules(wanted.rules, this.app.solo.rules) && this.app.solo.awaiting !== "error") { message.textContent = "These are the rules in use."; return; }
      this.app.solo.useRules(wanted.rules);
      return;
    }
    const t = this.app.table;
    if (sameRules(wanted.rules, t.rules) && wanted.players === t.players) { message.textContent = "These are the rules in use."; return; }
    // a refusal is shown in the page (#rules-error) by switchTo; only the page's hook (load) is given it thrown
    const go = () => this.switchTo(wanted.rules, wanted.players).catch(() => {});
    if (!this.app.play.inProgress()) go();
    else askDiscard("Change the rules", "New rules start a new game.").then((yes) => yes && go());
  }

  /** For the page's hook: rules from options as typed ({tiles, dice, sides, oneDie, maxMoveTiles, players}); resolves to the table's name. */
  async load(options) {
    for (const [key, value] of Object.entries(options)) if (this.fields[key]) this.fields[key].input.value = String(value ?? "");
    if (String(options.dice) === "1" && options.oneDie === undefined) this.fields.oneDie.input.value = "never";
    const wanted = this.read();
    if (!wanted) throw new InvalidQuestion(Object.values(this.fields).map((f) => f.error.textContent).filter(Boolean).join("; "));
    await this.switchTo(wanted.rules, wanted.players);
    return tableName(this.app.table.rules, this.app.table.players);
  }

  async switchTo(rules, players) {
    const message = $("rules-message");
    try {
      const table = await this.fetch(rules, players);
      this.app.setTable(table);
      message.textContent = `Now: ${describeRules(table.rules)}, ${table.players} players.`;
    } catch (error) {
      if (error.name === "AbortError") {  // Cancel, or other rules asked for meanwhile (the newer load is theirs)
        if (!this.aborts.players) message.textContent = "Not changed: the table of these rules was not solved.";
        return;
      }
      message.textContent = "";
      const box = $("rules-error");
      box.textContent = error.message;
      box.hidden = false;
      throw error;
    }
  }

  /** The table of these rules and players (null: Solo's single-player table), solved by the server first if need be: once the player presses
   * Solve after seeing what it costs, with its progress and a Cancel button shown (#solve-status for Coach and
   * Play, #solo-solve-status for Solo). `onAsk(asking)` is told when the question is shown (true) and answered (false). */
  async fetch(rules, players, onAsk = null) {
    const slot = players === null ? "solo" : "players";
    this.aborts[slot]?.abort();
    const abort = this.aborts[slot] = new AbortController();
    const [status, text, bar] = (slot === "solo" ? ["solo-solve-status", "solo-solve-text", "solo-solve-progress"] :
      ["solve-status", "solve-text", "solve-progress"]).map($);
    const flag = slot === "solo" ? "soloSolve" : "solve"; // body's data-solve (Coach, Play) or data-solo-solve
    if (slot === "players") $("rules-error").hidden = true;
    document.body.dataset[flag] = "loading";
    let removeCancel = null;
    const ask = async (answer) => {
      text.hidden = bar.hidden = true;
      onAsk?.(true);
      const yes = await solveQuestion(status, answer, { signal: abort.signal, prefix: slot === "solo" ? "solo-solve" : "solve", flag,
        what: `${describeRules(rules)}, ${players === null ? "one player" : `${players} players`}` });
      onAsk?.(false);
      text.hidden = bar.hidden = false;
      if (!yes) status.hidden = true;
      return yes;
    };
    try {
      const load = players === null ? (...a) => loadSoloRulesTable(rules, ...a) : (...a) => loadPlayersTable(rules, players, ...a);
      const table = await load(this.app.mainUrl, ({ state, done, total, name }) => {
        status.hidden = false;
        removeCancel ??= cancelButton(status, abort, slot === "solo" ? "solo-solve" : "solve");
        document.body.dataset[flag] = "solving";
        if (total > 0) {
          bar.max = total;
          bar.value = done;
          text.textContent = `Solving ${name}: ${Math.floor((100 * done) / total)}%`;
        } else {
          bar.removeAttribute("value");
          text.textContent = `Solving ${name}${state === "queued" ? " (waiting for another solve)" : ""}…`;
        }
      }, abort.signal, ask);
      document.body.dataset[flag] = "done";
      return table;
    } catch (error) {
      document.body.dataset[flag] = error.name === "AbortError" ? "cancelled" : "error";
      throw error;
    } finally {
      removeCancel?.();
      status.hidden = true;
      if (this.aborts[slot] === abort) this.aborts[slot] = null;
    }
  }
}
