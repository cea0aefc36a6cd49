/* Play's modules fetched after Coach's first answer, not before it: a game's Play (the Play shell lib/play.js
 * and the game's part, some 20 kB gzipped for Yahtzee) is most of its page's code, and a phone on a slow
 * network waits for every module a page imports before it answers. A link to Play waits for them. */

import { el } from "./ui.js";

/**
 * playLater(load, id) -> Play as a mount uses it, before and after its modules come. load() -> a promise of the
 * Play shell (lib/play.js's createPlay `play`), asked once, at the first start (again after a failure); id: the
 * shell root's id, which its place holds until then.
 *
 *   root           Play's element: its place, then the shell's panel, which takes the place's `hidden`
 *   shell          the shell, null until it comes
 *   state          its game, null before one
 *   started        a game is on, or its start waits for the modules: a mount starts Play once
 *   inProgress     a game is on that a player would not want to lose
 *   start(...args) -> a promise of the shell's start(...args), made in the order asked (null: Play could not load)
 *   settled()      -> a promise of the last start asked (at once: none was)
 *   prefetch()     fetch the modules now, without a game (after Coach's first answer, while the player reads it)
 *   key(event)     the shell's, false while there is no shell; clear(); snapshot() (null before a game)
 */
export function playLater(load, id) {
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
