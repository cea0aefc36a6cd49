/* Coach and Play, the two modes of every game's panel. Play's modules (lib/play.js and the game's part, most
 * of a page's code) come after Coach's first answer, which a phone would otherwise wait for; a link to Play
 * preloads them (games.html) and is ready once its game is shown. */

import { askDiscard, choiceParam, el } from "../lib/ui.js";
import { modeSwitch } from "./ui.js";

const MODES = ["coach", "play"];

/**
 * coachAndPlay(ctx, { id, title, coach, load, ready, start }) -> a game's modes.
 *   id, title: the game's; coach: Coach's panel; load(): a promise of Play's shell (lib/play.js's createPlay);
 *   ready(): the table is there (Play starts no game before); start(): the arguments of a game Play starts of
 *   its own accord (shown with none: the link's seed the first time, as the mount keeps it)
 * -> { root: the mode buttons and Share, buttons, play (playLater's),
 *      show(m = mode): that mode shown (and Play's game started if it has none),
 *      restore(): a history entry's mode, key(event): Play's keys, mayChange(what): may new rules end the game?,
 *      ready(): once the last start asked is made, the page said ready and Play's modules fetched,
 *      api: { play: { state(), start(seed, options) -> a promise of state() }, mode(m) } }
 */
export function coachAndPlay(ctx, { id, title, coach, load, ready, start }) {
  let mode = choiceParam(ctx.params, "mode", MODES, "coach", "showing Coach");
  let asking = false;
  const play = playLater(load, `${id}-play`);
  const buttons = modeSwitch(id, title, (m) => show(m), ctx);
  if (mode === "play") play.prefetch(); // beside the table, not after it

  function show(m = mode) {
    mode = m;
    buttons.set(m, { coach, play: play.root });
    if (m === "play" && ready() && !play.started) play.start(...start());
  }

  return {
    root: buttons.root,
    buttons: buttons.buttons,
    play,
    show,
    restore() { mode = MODES.includes(ctx.params.get("mode")) ? ctx.params.get("mode") : "coach"; },
    key(event) { if (mode === "play") play.key(event); },
    /** Whether new rules may end Play's game: true with none in progress, else the player's answer to "what"
     * (a promise); null while that question is open (a field's own change event as the dialog takes the focus). */
    async mayChange(what, detail = "The game in progress is played with the old rules: it will be lost.") {
      if (!play.inProgress) return true;
      if (asking) return null;
      asking = true;
      const yes = await askDiscard(what, detail);
      asking = false;
      return yes;
    },
    async ready() {
      await play.settled(); // a link to Play is ready once its game is shown
      ctx.ready();
      play.prefetch(); // Play's modules, while the player reads Coach's first answer
    },
    api: {
      play: {
        state: () => play.snapshot(),
        start: async (seed, options) => { show("play"); await play.start(seed ?? null, options); return play.snapshot(); },
      },
      mode: (m) => show(m),
    },
  };
}

/** Play before and after its modules come: load() -> a promise of its shell (asked once; again after a
 * failure), whose root takes the place of an empty one of that id. `started`: a game is on or waits for the
 * modules; start(...) -> a promise of the shell's start (in the order asked; null: Play could not load);
 * settled() -> a promise of the last start asked. */
function playLater(load, id) {
  let root = el("div", { id });
  let shell = null, coming = null, waiting = 0, last = Promise.resolve(null);
  const loaded = () => (coming ??= load().then((made) => {
    shell = made;
    made.root.hidden = root.hidden;
    root.replaceWith(made.root);
    root = made.root;
    return made;
  }, (error) => {
    coming = null; // asked again at the next start (the network may be back)
    throw error;
  }));
  return {
    get root() { return root; },
    get shell() { return shell; },
    get state() { return shell ? shell.game() : null; },
    get started() { return waiting > 0 || Boolean(shell?.game()); },
    get inProgress() { return Boolean(shell?.inProgress()); },
    start(...args) {
      waiting += 1;
      last = loaded().catch((error) => {
        root.replaceChildren(el("p", { class: "error", role: "alert" },
          `Play could not be loaded (${error.message}): check the connection and press Play again.`));
        return null;
      }).then((made) => {
        waiting -= 1;
        return made && made.start(...args);
      });
      return last;
    },
    settled: () => last,
    prefetch: () => { loaded().catch(() => {}); }, // a failure is said at the next start
    key: (event) => Boolean(shell?.key(event)),
    clear: () => shell?.clear(),
    snapshot: () => (shell ? shell.snapshot() : null),
  };
}
