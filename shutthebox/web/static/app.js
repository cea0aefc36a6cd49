/* The Shut the Box page: Coach, Play and Solo, answered from the table files (ES modules,
 * shutthebox/*.js; docs/WEB.md).
 *
 * URL parameters: mode=coach|play|solo; coach: player, score (two players: the score to beat) or
 * scores (more players: the scores posted before), pos (open tiles), roll; play: seed, seat, moves;
 * solo: seed, moves, variant (a named rule set) or the rules' options, objective, hints=1; the rules
 * of Coach and Play: rules=PRESET or tiles, dice, sides, one_die, max_move_tiles, and players (2 to
 * 8); table=URL (another two-player table file); anim=0 (no dice animation, no pauses). A parameter
 * the page cannot use is named in a message (#link-problems), never replaced in silence. A change
 * of mode and each move of Play and Solo is a history entry: Back steps back (popstate).
 *
 * window.shutTheBox exposes the answers the page shows, for tests and for the curious:
 * coach(player, position, score, roll) (two players), coachScores(scores, position, roll) (any
 * number), play.state(), solo.load(variant) (a promise), solo.coach(variant, objective, position,
 * roll), solo.state(), table(), rules.load(options) (a promise: another table, solved on first use).
 */

import { once, TableError } from "./lib/format.js";
import { InvalidQuestion } from "./lib/notation.js";
import { asking, badParam, choiceParam, showError } from "./lib/ui.js";
import { ITEM_KEYS, typing } from "./lib/play.js";
import { SOLO_VARIANTS, describeRules, sameRules, soloName, soloTableName, tableName } from "./shutthebox/rules.js";
import { Coach, coachAnswer } from "./shutthebox/coach.js";
import { Play } from "./shutthebox/play.js";
import { Solo, soloAnswer } from "./shutthebox/solo.js";
import { RulesControl, rulesFromLink, rulesEntries } from "./shutthebox/rulesform.js";
import { TABLE_FOLDERS, fetchFirst } from "./shutthebox/tables.js";
import { parseTable } from "./shutthebox/table.js";
import { gamesNav } from "./shutthebox/nav.js";
import { $, params, ANIMATE } from "./shutthebox/view.js";
import { Unreachable } from "./lib/remote.js";
import { failedAtLoad, keepControl, register, unreachable, watch } from "./lib/offline.js";

const MODES = ["coach", "play", "solo"];

window.addEventListener("error", (event) => {
  if (event.error instanceof Unreachable) { // the network went away: the banner says so, the page goes on
    event.preventDefault();
    unreachable(event.error);
    return;
  }
  showError(`Something went wrong in the page: ${event.message}. Reload to start again.`);
});
watch();
register();

class App {
  constructor() {
    this.table = null; // the table of Coach and Play (two to eight players)
    this.mainUrl = null; // where the first table was found: the others are looked for beside it
    this.mode = "coach";
    this.soloTables = new Map(); // file name -> the single-player table read
    this.soloLoads = new Map(); // file name -> the promise of its table
    this.coach = new Coach(this);
    this.play = new Play(this);
    this.solo = new Solo(this);
    this.rulesControl = new RulesControl(this);
  }

  async load() {
    const urls = params.get("table") ? [params.get("table")] : TABLE_FOLDERS.map((folder) => `${folder}standard.msgpack`);
    let main;
    try {
      const found = await fetchFirst(urls, "Start the page with `ShutTheBox serve`, or copy data/standard.msgpack next to index.html " +
        "when serving this folder yourself, or give its address as ?table=URL.");
      main = Object.assign(parseTable(found.opened, { name: found.url, game: "players" }), { url: found.url });
    } catch (error) {
      showError(error instanceof TableError ? error.message : `The table could not be read: ${error.message}`);
      failedAtLoad(error);
      return;
    }
    this.mainUrl = main.url;
    this.table = main;
    // In Solo the link's rules are Solo's own (solo.js); Coach and Play keep the first table.
    const wanted = params.get("mode") === "solo" ? null : rulesFromLink(main);
    if (wanted && !(sameRules(wanted.rules, main.rules) && wanted.players === main.players)) {
      try {
        // A table not solved yet is solved only when the player presses Solve: meanwhile the page is asking.
        this.table = await this.rulesControl.fetch(wanted.rules, wanted.players,
          (asking) => { document.body.dataset.state = asking ? "asking" : "loading"; });
      } catch (error) {
        badParam(params, wanted.param, `the table of these rules could not be had (${error.message})`,
          `the rules of ${main.url} instead (${describeRules(main.rules)}, ${main.players} players)`);
        this.table = main;
      }
    }
    this.start();
  }

  start() {
    $("status").hidden = true;
    this.showTableInfo();
    this.coach.init();
    this.play.init();
    this.solo.init();
    this.rulesControl.init();
    for (const mode of MODES) $(`tab-${mode}`).addEventListener("click", () => this.setMode(mode, true));
    const wanted = choiceParam(params, "mode", MODES, "coach", "Coach mode instead");
    choiceParam(params, "anim", ["0", "1"], "1", "the dice are animated");
    this.setMode(wanted);
    document.addEventListener("keydown", (event) => this.onKey(event));
    window.addEventListener("popstate", () => this.restore());
    document.body.dataset.state = "ready";
    gamesNav($("games-nav"));
    // Keep for offline: Coach and Play's table, and in Solo the single-player tables read
    this.keep = keepControl($("keep"), () => [this.table, ...(this.mode === "solo" ? this.soloTables.values() : [])]);
  }

  showTableInfo() {
    const t = this.table;
    $("table-info").textContent = `Table: ${t.url} (${t.size} bytes, CRC-32 checked), ${describeRules(t.rules)}, ` +
      `${t.players} players; ${t.header.generator}.`;
  }

  /** Coach and Play now answer from `table` (other rules or players). */
  setTable(table) {
    this.table = table;
    this.showTableInfo();
    this.coach.build();
    this.play.rebuild();
    this.rulesControl.show();
    if (this.mode !== "solo") this.setMode(this.mode);
    this.keep?.refresh();
  }

  /** Show a mode; `push`: a new history entry (a tab pressed), so that Back returns to the mode left. */
  setMode(name, push = false) {
    if (push && name !== this.mode) history.pushState(null, "", location.href);
    this.mode = name;
    for (const mode of MODES) {
      $(mode).hidden = name !== mode;
      $(`tab-${mode}`).setAttribute("aria-pressed", String(name === mode));
    }
    document.body.dataset.mode = name;
    $("rules-panel").hidden = false; // Coach and Play: the table's rules; Solo: its own
    this.rulesControl.show();
    if (name === "play") this.play.showUrl(); else if (name === "solo") this.solo.show(); else this.coach.showUrl();
    this.keep?.refresh();
  }

  /** Back or Forward: the mode of that entry, and its Coach question or the game of Play or Solo at that point
   * (replayed from the link). */
  restore() {
    const now = new URLSearchParams(location.search);
    for (const key of [...params.keys()]) params.delete(key);
    for (const [key, value] of now) params.set(key, value);
    const mode = MODES.includes(now.get("mode")) ? now.get("mode") : "coach";
    if (mode === "coach") this.coach.fromLink();
    else if (mode === "play") this.play.fromLink();
    else if (mode === "solo") this.solo.fromLink();
    this.setMode(mode);
  }

  setUrl(entries) {
    const query = new URLSearchParams();
    if (params.get("table")) query.set("table", params.get("table"));
    if (!ANIMATE) query.set("anim", "0");
    const mode = entries.find(([key]) => key === "mode");
    const all = mode && mode[1] !== "solo" ? [...entries, ...rulesEntries(this.table)] : entries;
    for (const [key, value] of all) if (value !== null && value !== undefined) query.set(key, value);
    if (`?${query}` !== location.search) history.replaceState(null, "", `?${query}`);
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || asking()) return;
    const target = event.target;
    if (typing(target)) return;
    const key = event.key;
    // Enter and Space on a focused button press that button, as usual; but Enter on a tile of Play or
    // Solo closes the chosen tiles (or rolls), as the page says, instead of un-choosing that tile.
    const gameTile = target?.closest?.("#play-tiles [data-tile], #solo-tiles [data-tile]");
    if ((key === "Enter" || key === " ") && !(key === "Enter" && gameTile) && target &&
      (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "SUMMARY")) return;
    const mode = { c: "coach", p: "play", s: "solo" }[key.toLowerCase()];
    if (mode && key.length === 1) { this.setMode(mode, true); event.preventDefault(); return; }
    if (this[this.mode].key(key, event)) event.preventDefault();
  }

  /** The tile of a key on `board` (the table's by default): 1-9, then 0, - and = for tiles 10, 11 and 12; null otherwise. */
  tileKey(key, board = this.table) {
    const at = ITEM_KEYS.indexOf(key);
    if (key.length !== 1 || at < 0) return null;
    return board && at + 1 <= board.rules.tiles ? at + 1 : null;
  }

  /** Read, verify and keep the single-player table of any rules (solved by the server on first use, once
   * the player presses Solve): a promise of its SoloTable. */
  loadSoloRules(rules) {
    const name = soloName(rules);
    return once(this.soloLoads, name, () => this.rulesControl.fetch(rules, null).then((table) => {
      this.soloTables.set(name, table);
      this.keep?.refresh();
      return table;
    }));
  }

  /** The table of a named single-player rule set. */
  loadSolo(variant) {
    if (!SOLO_VARIANTS[variant]) return Promise.reject(new InvalidQuestion(`unknown rule set '${variant}' (choose ${Object.keys(SOLO_VARIANTS).join(", ")})`));
    return this.loadSoloRules(SOLO_VARIANTS[variant].rules);
  }
}

const app = new App();

window.ShutTheBoxApp = true;
window.shutTheBox = {
  /** The coach's answer for two players: player 1 or 2, score = player one's score (player two only). */
  coach(player, position, score, roll) {
    const two = player === 2 || player === "2";
    if (two) app.table.checkScoreToBeat(score);
    return coachAnswer(app.table, two ? [score] : [], position, roll);
  },
  /** The coach's answer for the player after `scores` were posted (any number of players). */
  coachScores(scores, position, roll) { return coachAnswer(app.table, scores, position, roll); },
  play: { state: () => app.play.state() },
  solo: {
    /** Read the table of a variant: a promise of true (rejected with the reason when it cannot be read). */
    load: (variant) => app.loadSolo(variant).then(() => true),
    /** The solo coach's answer (the variant's table must have been read). */
    coach(variant, objective, position, roll) {
      const table = app.soloTables.get(soloTableName(variant));
      if (!table) throw new InvalidQuestion(`the ${variant} table has not been read: call solo.load('${variant}') first`);
      return soloAnswer(table, objective, position, roll);
    },
    state: () => app.solo.state(),
  },
  table: () => app.table,
  tableName: () => tableName(app.table.rules, app.table.players),
  /** Coach and Play from the table of other rules or players (solved on first use): a promise of its name. */
  rules: { load: (options) => app.rulesControl.load(options) },
};
app.load();
