/* The browser assistant: coach, play and solo, answered from the table files.
 *
 * URL parameters: mode=coach|play|solo; coach: player=1|2, score, pos (open
 * tiles), roll; play: seed (fixes the dice), seat=1|2 (which player you are);
 * solo: seed, variant=standard|two-dice|two-tiles, objective=shut|score,
 * hints=1 (the ranked moves); table=URL (another two-player table file);
 * anim=0 (no dice animation, no pauses). A parameter the page cannot use is
 * named in a message (#link-problems), never replaced in silence.
 *
 * The tables are looked for beside index.html (`ShutTheBox serve`), then in
 * ../../data/ (an installed package: shutthebox/data/, this page being
 * shutthebox/web/static/) and ../../../data/ (a checkout served from its
 * root). The single-player tables solo-VARIANT.msgpack are looked for beside
 * the two-player table the page read first; each is read on first use.
 *
 * window.shutTheBox exposes the answers the page shows, for tests and for the
 * curious: coach(player, position, score, roll), play.state(), and
 * solo.load(variant) (a promise), solo.coach(variant, objective, position,
 * roll) and solo.state().
 */
(function () {
  "use strict";

  var STB = window.ShutTheBoxTable;
  var params = new URLSearchParams(location.search);
  var ANIMATE = params.get("anim") !== "0";
  // Where the tables may be, from this page (shutthebox/web/static/): served beside it, in the
  // installed package (shutthebox/data/), in a checkout's data/.
  var TABLE_FOLDERS = ["", "../../data/", "../../../data/"];
  var DEFAULT_TABLES = TABLE_FOLDERS.map(function (folder) { return folder + "standard.msgpack"; });
  var table = null;
  var tableUrl = null; // where the two-player table was found: the solo tables are looked for beside it

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (key === "text") node.textContent = attrs[key];
        else if (key === "className") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      });
    }
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function pct(value) { return (value * 100).toFixed(2) + "%"; }
  function exact(value) { return value.toFixed(6); }
  function points(loss) { return (loss * 100).toFixed(2) + " percentage points"; }
  function moveText(mask) { return STB.formatMove(STB.tilesOf(mask)); }

  function showError(message) {
    var box = $("error");
    box.textContent = message;
    box.hidden = false;
    $("status").hidden = true;
    document.body.setAttribute("data-state", "error");
  }

  window.addEventListener("error", function (event) {
    showError("Something went wrong in the page: " + event.message + ". Reload to start again.");
  });

  /** A whole number written plainly ("17"), from low to high; null for anything else ("2.5", "1e1", "-3", "46abc", ""). */
  function wholeNumber(text, low, high) {
    if (typeof text !== "string" || !/^[0-9]+$/.test(text)) return null;
    var n = Number(text);
    return n >= low && n <= high ? n : null;
  }

  // -- link parameters the page could not use: named in a message, never replaced in silence --

  var linkProblems = [];

  function badParam(name, why, instead) {
    linkProblems.push(name + "=" + params.get(name) + ": " + why + "; " + instead + ".");
  }

  function showLinkProblems() {
    var box = $("link-problems");
    box.textContent = "";
    if (!linkProblems.length) { box.hidden = true; return; }
    box.appendChild(el("p", { text: "This link has " + (linkProblems.length > 1 ? "parameters" : "a parameter") +
      " the page could not use:" }));
    box.appendChild(el("ul", null, linkProblems.map(function (text) { return el("li", { text: text }); })));
    var close = el("button", { type: "button", className: "small", text: "Dismiss" });
    close.addEventListener("click", function () { box.hidden = true; });
    box.appendChild(close);
    box.hidden = false;
  }

  /** The seed of the link (Play and Solo share it), or null; a bad one is named once. */
  var linkSeed = (function () {
    var read = false, seed = null;
    return function () {
      if (!read) {
        read = true;
        var text = params.get("seed");
        if (text !== null) {
          seed = wholeNumber(text, 0, 0xffffffff);
          if (seed === null) badParam("seed", "a seed is a whole number from 0 to 4294967295", "new dice were drawn instead");
        }
      }
      return seed;
    };
  })();

  /** A link parameter that must be one of `choices`: its value, or `fallback` with a message. */
  function choiceParam(name, choices, fallback, instead) {
    var value = params.get(name);
    if (value === null) return fallback;
    if (choices.indexOf(value) >= 0) return value;
    badParam(name, "choose " + choices.slice(0, -1).join(", ") + (choices.length > 1 ? " or " : "") + choices[choices.length - 1],
      instead);
    return fallback;
  }

  // -- keyboard: one tab stop per group of tiles or rolls, arrow keys within it (roving tabindex) --

  function groupItems(group) {
    return Array.prototype.filter.call(group.querySelectorAll("button"), function (b) { return !b.hidden; });
  }

  /** Make `item` the group's one tab stop. */
  function setStop(group, item) {
    groupItems(group).forEach(function (b) { b.tabIndex = b === item ? 0 : -1; });
  }

  /** After the group's buttons changed: keep one tab stop, the focused button, else the current stop, else `preferred`. */
  function syncStop(group, preferred) {
    var items = groupItems(group);
    if (!items.length) return;
    var focused = items.indexOf(document.activeElement) >= 0 ? document.activeElement : null;
    var current = items.filter(function (b) { return b.tabIndex === 0 && b.getAttribute("tabindex") === "0"; })[0];
    setStop(group, focused || current || preferred || items[0]);
  }

  function roving(group) {
    group.addEventListener("focusin", function (event) {
      var item = event.target.closest("button");
      if (item && group.contains(item)) setStop(group, item);
    });
    group.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      var step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
      var items = groupItems(group), at = items.indexOf(document.activeElement);
      if (at < 0 || (step === undefined && event.key !== "Home" && event.key !== "End")) return;
      var to = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1 : (at + step + items.length) % items.length;
      event.preventDefault();
      event.stopPropagation();
      setStop(group, items[to]);
      items[to].focus();
    });
  }

  // -- asking before a game in progress is thrown away (inside the page: a <dialog>, not window.confirm) --

  var asking = null;

  function askOpen() { return $("ask").open; }

  /** Ask `question`; `yes` runs only if the user confirms with the button labelled `yesText`. */
  function ask(question, yesText, yes) {
    var box = $("ask");
    if (box.open) return;
    $("ask-text").textContent = question;
    $("ask-yes").textContent = yesText;
    asking = yes;
    box.showModal();
    $("ask-no").focus(); // the safe answer: a second Enter keeps the game
  }

  function initAsk() {
    var box = $("ask");
    $("ask-yes").addEventListener("click", function () {
      var yes = asking;
      asking = null;
      box.close();
      if (yes) yes();
    });
    $("ask-no").addEventListener("click", function () { asking = null; box.close(); });
    box.addEventListener("close", function () { asking = null; });
  }

  /** Move the focus to `target` when the user is at the game (focus in `section` or lost), not elsewhere on the page. */
  function focusIn(section, target) {
    if (!target || mode !== section.id || askOpen()) return;
    var now = document.activeElement;
    if (now && now !== document.body && now !== target && !section.contains(now)) return;
    if (now !== target) target.focus();
  }

  // -- loading the table ------------------------------------------------------

  /** Fetch the first of `urls` that answers; a TableError naming them all and `fix` if none does. */
  function fetchTable(urls, tried, fix) {
    var url = urls[0];
    return fetch(url, { cache: "no-cache" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.arrayBuffer().then(function (buffer) { return { url: url, buffer: buffer }; });
    }, function (error) {
      throw new Error(location.protocol === "file:" ? "pages opened from a file cannot read files" : error.message);
    }).catch(function (error) {
      tried.push(url + " (" + error.message + ")");
      if (urls.length > 1) return fetchTable(urls.slice(1), tried, fix);
      throw new STB.TableError("The table file could not be loaded. Tried: " + tried.join("; ") + ".\n" + fix);
    });
  }

  function load() {
    if (!STB || !window.MessagePack) {
      showError("The msgpack decoder (vendor/msgpack.min.js) or the reader (table.js) did not load: " +
        "serve this folder whole, for example with `ShutTheBox serve`.");
      return;
    }
    var urls = params.get("table") ? [params.get("table")] : DEFAULT_TABLES;
    fetchTable(urls, [], "Start the page with `ShutTheBox serve`, or copy data/standard.msgpack next to index.html " +
        "when serving this folder yourself, or give its address as ?table=URL.").then(function (found) {
      table = STB.parse(new Uint8Array(found.buffer), window.MessagePack.decode, found.url, "two-player");
      tableUrl = found.url;
      start(found.url);
    }).catch(function (error) {
      showError(error instanceof STB.TableError ? error.message :
        "The table could not be read: " + error.message);
    });
  }

  function start(url) {
    $("status").hidden = true;
    var r = table.rules;
    $("table-info").textContent = "Table: " + url + " (" + table.size + " bytes, CRC-32 checked), " +
      STB.describeRules(r) + "; " + table.header.generator + ".";
    initAsk();
    coach.init();
    play.init();
    solo.init();
    var wanted = choiceParam("mode", ["coach", "play", "solo"], "coach", "Coach mode instead");
    choiceParam("anim", ["0", "1"], "1", "the dice are animated");
    setMode(wanted);
    showLinkProblems();
    document.addEventListener("keydown", onKey);
    document.body.setAttribute("data-state", "ready");
  }

  var mode = "coach";

  function setMode(name) {
    mode = name;
    $("coach").hidden = name !== "coach";
    $("play").hidden = name !== "play";
    $("solo").hidden = name !== "solo";
    $("tab-coach").setAttribute("aria-pressed", String(name === "coach"));
    $("tab-play").setAttribute("aria-pressed", String(name === "play"));
    $("tab-solo").setAttribute("aria-pressed", String(name === "solo"));
    document.body.setAttribute("data-mode", name);
    if (name === "play") play.showUrl(); else if (name === "solo") solo.show(); else coach.showUrl();
  }

  function setUrl(entries) {
    var query = new URLSearchParams();
    if (params.get("table")) query.set("table", params.get("table"));
    if (!ANIMATE) query.set("anim", "0");
    entries.forEach(function (pair) { if (pair[1] !== null && pair[1] !== undefined) query.set(pair[0], pair[1]); });
    history.replaceState(null, "", "?" + query.toString());
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || askOpen()) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    var key = event.key;
    // Enter and Space on a focused button press that button, as usual.
    if ((key === "Enter" || key === " ") && target && (target.tagName === "BUTTON" || target.tagName === "A")) return;
    if (key === "c" || key === "C") { setMode("coach"); event.preventDefault(); return; }
    if (key === "p" || key === "P") { setMode("play"); event.preventDefault(); return; }
    if (key === "s" || key === "S") { setMode("solo"); event.preventDefault(); return; }
    var handled = mode === "coach" ? coach.key(key, event) : mode === "play" ? play.key(key, event) : solo.key(key, event);
    if (handled) event.preventDefault();
  }

  /** The tile of a digit key: 1 to 9, and 0 for tile 10 when there is one; null otherwise. */
  function tileKey(key) {
    if (!/^[0-9]$/.test(key)) return null;
    var tile = key === "0" ? 10 : Number(key);
    return table && tile <= table.rules.tiles ? tile : null;
  }

  // -- roll probabilities -----------------------------------------------------

  function rollChances(dice, sides) {
    var counts = { 0: 1 };
    for (var d = 0; d < dice; d++) {
      var next = {};
      Object.keys(counts).forEach(function (total) {
        for (var face = 1; face <= sides; face++) {
          var t = Number(total) + face;
          next[t] = (next[t] || 0) + counts[total];
        }
      });
      counts = next;
    }
    var all = Math.pow(sides, dice);
    var chances = {};
    Object.keys(counts).forEach(function (t) { chances[t] = counts[t] / all; });
    return chances;
  }

  // -- coach ---------------------------------------------------------------------

  /**
   * Every legal move for a roll, ranked: the table's move first, then by the
   * mover's expected wins after it. player 1 or 2; score: player one's final
   * score (player two only); position: digits, tiles or bitmask.
   */
  function coachAnswer(player, position, score, roll) {
    var mask = table.position(position);
    var two = player === 2 || player === "2";
    var scoreArg = two ? score : null;
    if (two) table._checkScore(score);
    var answer = {
      player: two ? 2 : 1,
      position: STB.formatPosition(mask),
      score: two ? score : null,
      expect: two ? table.e2(mask, score) : table.e1(mask),
      roll: null, moves: [], best: null, turnEnds: false, endValue: null,
    };
    if (roll === null || roll === undefined) return answer;
    table._checkRoll(mask, roll);
    answer.roll = roll;
    var best = table.bestMove(mask, roll, scoreArg);
    var moves = table.legalMoves(mask, roll).map(function (move) {
      return { move: move, tiles: STB.tilesOf(move), after: STB.formatPosition(mask & ~move),
        value: table.valueAfter(mask, move, scoreArg), best: move === best };
    });
    if (!moves.length) {
      answer.turnEnds = true;
      answer.endValue = table.valueAfter(mask, 0, scoreArg);
      return answer;
    }
    moves.sort(function (a, b) {
      if (a.best !== b.best) return a.best ? -1 : 1;
      return b.value - a.value || b.move - a.move;
    });
    answer.moves = moves;
    answer.best = STB.tilesOf(best);
    return answer;
  }

  var coach = {
    player: 1, score: 20, mask: 0, roll: null, scoreProblem: null, rollRange: null,

    init: function () {
      var self = this, max = table.rules.maxScore;
      this.mask = table.allOpen;
      var pos = params.get("pos");
      if (pos !== null) {
        try { this.mask = pos === "" || pos === "0" ? 0 : table.position(pos); } catch (e) {
          badParam("pos", e.message, "all tiles open instead");
        }
      }
      this.player = Number(choiceParam("player", ["1", "2"], "1", "player one moves instead"));
      var score = params.get("score");
      if (score !== null) {
        var value = wholeNumber(score, 1, max);
        if (value === null) badParam("score", "the score to beat is a whole number from 1 to " + max, "the score to beat is " + this.score + " instead");
        else this.score = value;
      }
      var roll = params.get("roll");
      if (roll !== null && roll !== "") {
        var number = wholeNumber(roll, 0, 1000), range = this.mask ? table.rollRange(this.mask) : null;
        if (number === null) badParam("roll", "a roll is a whole number", "the best move for every roll instead");
        else if (!this.mask) badParam("roll", "the box is shut: there is nothing to roll for", "no roll instead");
        else if (number < range[0] || number > range[1]) {
          var dice = table.diceFor(this.mask);
          badParam("roll", "roll " + number + " is impossible at " + STB.formatPosition(this.mask) + ": the open tiles sum to " +
            STB.tileSum(this.mask) + ", so " + (dice === 1 ? "one die is" : dice + " dice are") + " thrown (" + range[0] +
            " to " + range[1] + ")", "the best move for every roll instead");
        } else this.roll = number;
      }
      var tiles = $("coach-tiles");
      for (var t = 1; t <= table.rules.tiles; t++) {
        tiles.appendChild(el("button", { type: "button", className: "tile", "data-tile": String(t), text: String(t) }));
      }
      roving(tiles);
      tiles.addEventListener("click", function (event) {
        var tile = event.target.closest("[data-tile]");
        if (tile) self.toggle(Number(tile.getAttribute("data-tile")));
      });
      roving($("coach-rolls"));
      $("coach-rolls").addEventListener("click", function (event) {
        var button = event.target.closest("[data-roll]");
        if (!button) return;
        var roll = button.getAttribute("data-roll");
        self.roll = roll === "" || Number(roll) === self.roll ? null : Number(roll);
        self.render();
      });
      $("coach-p1").addEventListener("click", function () { self.player = 1; self.render(); });
      $("coach-p2").addEventListener("click", function () { self.player = 2; self.render(); });
      $("coach-all").addEventListener("click", function () { self.mask = table.allOpen; self.render(); });
      $("coach-score-down").addEventListener("click", function () { self.stepScore(-1); });
      $("coach-score-up").addEventListener("click", function () { self.stepScore(1); });
      $("coach-score").addEventListener("input", function () { self.readScore(); });
      $("coach-score").addEventListener("keydown", function (event) {
        var step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
        if (step) { event.preventDefault(); self.stepScore(step); }
      });
      $("tab-coach").addEventListener("click", function () { setMode("coach"); });
      this.render();
    },

    toggle: function (tile) {
      this.mask ^= 1 << (tile - 1);
      this.render();
    },

    /** The score typed: answered only if it is a whole number in range, else a message and no answer. */
    readScore: function () {
      var text = $("coach-score").value.trim(), max = table.rules.maxScore;
      var value = wholeNumber(text, 1, max);
      if (value === null) {
        this.scoreProblem = (text === "" ? "Type the score to beat" : "\u201c" + text + "\u201d is not a score to beat") +
          ": a whole number from 1 to " + max + " (player one's final score).";
      } else {
        this.scoreProblem = null;
        this.score = value;
      }
      this.render(true);
    },

    /** − and + (and the arrow keys in the box): one step from the number shown, kept in range. */
    stepScore: function (step) {
      var shown = wholeNumber($("coach-score").value.trim(), 0, 1e6);
      this.setScore((shown === null ? this.score : shown) + step);
    },

    setScore: function (score) {
      this.score = Math.max(1, Math.min(table.rules.maxScore, score));
      this.scoreProblem = null;
      this.render();
    },

    key: function (key) {
      var tile = tileKey(key);
      if (tile) { this.toggle(tile); return true; }
      return false;
    },

    showUrl: function () {
      setUrl([["mode", "coach"], ["player", String(this.player)], ["score", this.player === 2 ? String(this.score) : null],
        ["pos", STB.formatPosition(this.mask) || "0"], ["roll", this.roll === null ? null : String(this.roll)]]);
    },

    /** The roll buttons: built again only when the dice change, so that the focus stays on the roll chosen. */
    renderRolls: function (range) {
      var rolls = $("coach-rolls"), self = this;
      var key = range ? range.join("-") : "";
      if (key !== this.rollRange) {
        var hadFocus = rolls.contains(document.activeElement) ? document.activeElement.getAttribute("data-roll") : null;
        this.rollRange = key;
        rolls.textContent = "";
        if (range) {
          for (var roll = range[0]; roll <= range[1]; roll++) {
            rolls.appendChild(el("button", { type: "button", "data-roll": String(roll), text: String(roll) }));
          }
          rolls.appendChild(el("button", { type: "button", "data-roll": "", text: "any", title: "Best move for every roll" }));
        }
        if (hadFocus !== null) {
          var same = rolls.querySelector("[data-roll='" + hadFocus + "']") || rolls.querySelector("[data-roll='']");
          if (same) same.focus();
          else if ($("coach-tiles").querySelector("[tabindex='0']")) $("coach-tiles").querySelector("[tabindex='0']").focus();
        }
      }
      var pressed = null;
      groupItems(rolls).forEach(function (button) {
        var roll = button.getAttribute("data-roll");
        var on = roll === "" ? self.roll === null : Number(roll) === self.roll;
        button.setAttribute("aria-pressed", String(on));
        if (on) pressed = button;
      });
      syncStop(rolls, pressed);
    },

    render: function (keepInput) {
      var self = this, mask = this.mask;
      $("coach-p1").setAttribute("aria-pressed", String(this.player === 1));
      $("coach-p2").setAttribute("aria-pressed", String(this.player === 2));
      $("coach-score-box").hidden = this.player !== 2;
      if (!keepInput) $("coach-score").value = String(this.score);
      var problem = this.player === 2 ? this.scoreProblem : null;
      $("coach-score").setAttribute("aria-invalid", String(!!problem));
      $("coach-score-error").textContent = problem || "";
      $("coach-score-error").hidden = !problem;
      Array.prototype.forEach.call($("coach-tiles").children, function (button) {
        var open = (mask >> (Number(button.getAttribute("data-tile")) - 1)) & 1;
        button.className = "tile" + (open ? "" : " shut");
        button.setAttribute("aria-pressed", String(!!open));
        button.setAttribute("aria-label", "tile " + button.textContent + (open ? ", open" : ", shut"));
      });
      syncStop($("coach-tiles"));
      var summary = $("coach-summary"), moves = $("coach-moves");
      moves.textContent = "";
      if (!mask) {
        this.roll = null;
        this.renderRolls(null);
        if (mode === "coach") this.showUrl();
        summary.textContent = "The box is shut: whoever shut it has won. Open some tiles.";
        return;
      }
      var range = table.rollRange(mask);
      if (this.roll !== null && (this.roll < range[0] || this.roll > range[1])) this.roll = null;
      this.renderRolls(range);
      if (problem) {
        // No answer for a score other than the one shown.
        summary.textContent = "No answer until the score to beat is a whole number from 1 to " + table.rules.maxScore + ".";
        moves.removeAttribute("data-roll");
        return;
      }
      if (mode === "coach") this.showUrl();
      var answer = coachAnswer(this.player, mask, this.score, this.roll);
      var who = this.player === 1 ? "Player one" : "Player two";
      var text = who + " at " + answer.position + ", before rolling: wins " + pct(answer.expect) +
        " (expected wins " + exact(answer.expect) + ").";
      if (this.player === 2) {
        text += " Score to beat: " + this.score + " (player two wins by ending below " + this.score +
          ", ties at " + this.score + "; the open tiles sum to " + STB.tileSum(mask) + ").";
      }
      if (this.roll !== null) {
        text += answer.turnEnds
          ? " Roll " + this.roll + ": no open tiles add up to it, the turn ends with score " + STB.tileSum(mask) +
            ": wins " + pct(answer.endValue) + "."
          : " Roll " + this.roll + ": best move " + STB.formatMove(answer.best) + ".";
      }
      summary.textContent = text;
      if (this.roll === null) this.renderAllRolls(mask, range);
      else if (!answer.turnEnds) this.renderMoves(answer);
      moves.setAttribute("data-roll", this.roll === null ? "" : String(this.roll));
      return self;
    },
    renderMoves: function (answer) {
      var moves = $("coach-moves");
      var top = answer.moves[0].value;
      moves.appendChild(el("caption", { className: "hint", text: answer.moves.length + " legal move" +
        (answer.moves.length > 1 ? "s" : "") + " for roll " + answer.roll + ", best first" }));
      moves.appendChild(el("tr", null, [el("th", { text: "Close" }), el("th", { text: "Leaves", className: "hide-narrow" }),
        el("th", { className: "num", text: "Wins" }), el("th", { className: "num", text: "Expected wins" }),
        el("th", { className: "num", text: "vs best (points)" })]));
      answer.moves.forEach(function (m) {
        var loss = top - m.value;
        var row = el("tr", { className: m.best ? "best" : "", "data-move": m.tiles.join("") }, [
          el("td", { text: STB.formatMove(m.tiles) }),
          el("td", { text: m.after || "shut!", className: "hide-narrow" }),
          el("td", { className: "num" }, [pct(m.value), el("span", { className: "bar", style: "width:" + (m.value * 3).toFixed(2) + "rem" })]),
          el("td", { className: "num", "data-value": String(m.value), text: exact(m.value) }),
          el("td", { className: "num" + (loss > 0 ? " loss" : ""), text: m.best ? "best" : loss > 0 ? "\u2212" + (loss * 100).toFixed(2) : "equal" }),
        ]);
        moves.appendChild(row);
      });
    },

    renderAllRolls: function (mask, range) {
      var moves = $("coach-moves");
      var chances = rollChances(table.diceFor(mask), table.rules.sides);
      var scoreArg = this.player === 2 ? this.score : null;
      moves.appendChild(el("caption", { className: "hint", text: "Best move for every roll (press a roll to see all its moves)" }));
      moves.appendChild(el("tr", null, [el("th", { text: "Roll" }), el("th", { className: "num", text: "Chance" }),
        el("th", { text: "Best move" }), el("th", { className: "num", text: "Wins" })]));
      for (var roll = range[0]; roll <= range[1]; roll++) {
        var best = table.bestMove(mask, roll, scoreArg);
        var value = table.valueAfter(mask, best, scoreArg);
        moves.appendChild(el("tr", null, [el("td", { text: String(roll) }),
          el("td", { className: "num", text: pct(chances[roll]) }),
          el("td", { text: best ? moveText(best) : "none: turn ends" }),
          el("td", { className: "num", text: pct(value) })]));
      }
    },
  };

  // -- play ----------------------------------------------------------------------

  /** mulberry32: a small seeded PRNG, so that a seed fixes every die. */
  function mulberry32(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function newSeed() {
    if (window.crypto && crypto.getRandomValues) return crypto.getRandomValues(new Uint32Array(1))[0] % 1000000000;
    return Math.floor(Math.random() * 1000000000);
  }

  function wait(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ANIMATE ? ms : 0); });
  }

  /** Throw `count` dice from a seeded stream: one draw per die. */
  function drawDice(rng, count, sides) {
    var dice = [];
    for (var i = 0; i < count; i++) dice.push(1 + Math.floor(rng() * sides));
    return dice;
  }

  /** Tumble dice in `box` (unless anim=0); resolves when they settle, the caller then shows `dice`. */
  function animateDice(box, dice, sides) {
    if (!ANIMATE) return Promise.resolve();
    box.textContent = "";
    var faces = dice.map(function () {
      var die = dieNode(1 + Math.floor(Math.random() * sides));
      die.classList.add("rolling");
      box.appendChild(die);
      return die;
    });
    return new Promise(function (resolve) {
      var ticks = 0;
      var timer = setInterval(function () {
        ticks += 1;
        faces.forEach(function (die) { die.setAttribute("data-face", String(1 + Math.floor(Math.random() * sides))); });
        if (ticks >= 7) {
          clearInterval(timer);
          resolve();
        }
      }, 80);
    });
  }

  /** Why adding `tile` to the chosen tiles is refused, in the player's words; null if it is fine. */
  function pickProblem(mask, chosen, tile, roll, limit) {
    var bit = 1 << (tile - 1);
    if (!(mask & bit)) return "Tile " + tile + " is already shut: choose open tiles.";
    var tiles = STB.tilesOf(chosen | bit);
    var total = STB.tileSum(chosen | bit);
    if (limit !== null && tiles.length > limit) return "At most " + limit + " tiles may be closed per roll.";
    if (total > roll) return tilesText(tiles) + (tiles.length === 1 ? " makes " : " make ") + total + ": more than the roll of " + roll + ".";
    return null;
  }

  /** "Tile 8", "Tiles 3 + 5". */
  function tilesText(tiles) { return (tiles.length === 1 ? "Tile " : "Tiles ") + tiles.join(" + "); }

  /** What to say once the chosen tiles changed. */
  function chosenText(chosen, roll) {
    var tiles = STB.tilesOf(chosen), total = STB.tileSum(chosen);
    if (!chosen) return "";
    return total === roll ? tilesText(tiles) + " = " + total + ": press Close tiles (Enter)." :
      "Chosen " + tiles.join(" + ") + " = " + total + "; " + (roll - total) + " more to make " + roll + ".";
  }

  /** Why the chosen tiles cannot be closed for this roll; null if they can. */
  function confirmProblem(chosen, roll) {
    var total = STB.tileSum(chosen);
    if (!chosen) return "Choose open tiles that add up to " + roll + " first.";
    if (total !== roll) return "Your tiles add up to " + total + ", but they must add up to the roll, " + roll + ".";
    return null;
  }

  var play = {
    seat: 1, seed: 0, rng: null, player: 1, mask: 0, roll: null, dice: [], chosen: 0,
    score1: null, score2: null, over: false, awaiting: "none", busy: false, game: 0,
    points: [], mistakes: [], moves: 0, optimal: 0, lost: 0, rolled: 0, engaged: false, focusState: null,

    init: function () {
      var self = this;
      var tiles = $("play-tiles");
      for (var t = 1; t <= table.rules.tiles; t++) {
        tiles.appendChild(el("button", { type: "button", className: "tile", "data-tile": String(t), text: String(t) }));
      }
      roving(tiles);
      tiles.addEventListener("click", function (event) {
        var tile = event.target.closest("[data-tile]");
        if (tile) self.pick(Number(tile.getAttribute("data-tile")));
      });
      // Once the user acts in the game, the focus follows it (Roll, Close tiles, New game).
      $("play").addEventListener("click", function () { self.engaged = true; }, true);
      $("roll").addEventListener("click", function () { self.humanRoll(); });
      $("confirm").addEventListener("click", function () { self.confirm(); });
      $("clear").addEventListener("click", function () { self.chosen = 0; self.say(""); self.render(); });
      $("seat-1").addEventListener("click", function () {
        self.restart(self.seed, 1, "Start again as player one, with the same dice?", "Start as player one");
      });
      $("seat-2").addEventListener("click", function () {
        self.restart(self.seed, 2, "Start again as player two, with the same dice?", "Start as player two");
      });
      $("new-game").addEventListener("click", function () { self.askNewGame(); });
      $("replay").addEventListener("click", function () {
        self.restart(self.seed, self.seat, "Replay seed " + self.seed + " from the start?", "Replay seed");
      });
      $("tab-play").addEventListener("click", function () { setMode("play"); });
      var seed = linkSeed();
      var seat = Number(choiceParam("seat", ["1", "2"], "1", "you are player one instead"));
      this.newGame(seed !== null ? seed : newSeed(), seat);
    },

    /** A game the user has rolled in and not finished. */
    inProgress: function () { return !this.over && this.rolled > 0; },

    /** A new game, once the user confirms if that throws away a game in progress. */
    restart: function (seed, seat, question, yesText) {
      var self = this;
      if (!this.inProgress()) { this.newGame(seed, seat); return; }
      ask(question + " The game in progress will be lost.", yesText, function () { self.newGame(seed, seat); });
    },

    askNewGame: function () {
      var self = this;
      if (!this.inProgress()) { this.newGame(newSeed(), this.seat); return; }
      ask("Start a new game with new dice? The game in progress will be lost.", "New game",
        function () { self.newGame(newSeed(), self.seat); });
    },

    /** After the game moved on: the focus goes to what comes next, if the user is at the game. */
    focusNext: function () {
      var now = this.over ? "over" : this.human() ? this.awaiting : "computer";
      if (now === this.focusState) return;
      this.focusState = now;
      if (!this.engaged) return;
      focusIn($("play"), { over: $("new-game"), roll: $("roll"), move: $("confirm") }[now]);
    },

    showUrl: function () {
      setUrl([["mode", "play"], ["seed", String(this.seed)], ["seat", String(this.seat)]]);
      $("seed-link").textContent = String(this.seed);
      $("seed-link").href = location.href;
    },

    key: function (key) {
      var tile = tileKey(key);
      if (tile || /^[rRnN]$/.test(key) || key === "Enter" || key === "Escape") this.engaged = true;
      if (tile) { this.pick(tile); return true; }
      if (key === "r" || key === "R") { this.humanRoll(); return true; }
      if (key === "Enter" && this.awaiting === "move") { this.confirm(); return true; }
      if (key === "Escape") { this.chosen = 0; this.say(""); this.render(); return true; }
      if (key === "n" || key === "N") { this.askNewGame(); return true; }
      return false;
    },

    newGame: function (seed, seat) {
      this.game += 1;
      this.seed = seed >>> 0;
      this.seat = seat;
      this.rng = mulberry32(this.seed);
      this.player = 1;
      this.mask = table.allOpen;
      this.roll = null; this.dice = []; this.chosen = 0;
      this.score1 = null; this.score2 = null; this.over = false; this.busy = false; this.awaiting = "none";
      this.points = []; this.mistakes = []; this.moves = 0; this.optimal = 0; this.lost = 0; this.rolled = 0;
      this.focusState = null;
      $("log").textContent = "";
      $("summary").hidden = true;
      $("feedback").textContent = "";
      $("feedback").className = "feedback";
      $("seat-1").setAttribute("aria-pressed", String(seat === 1));
      $("seat-2").setAttribute("aria-pressed", String(seat === 2));
      this.say("");
      this.addPoint("start", false);
      if (mode === "play") this.showUrl();
      this.next();
    },

    human: function () { return this.player === this.seat; },
    scoreArg: function () { return this.player === 2 ? this.score1 : null; },

    /** Player one's chance of winning, before the current player rolls. */
    p1Chance: function () {
      if (this.over) return this.result;
      if (this.player === 1) return this.mask ? table.e1(this.mask) : 1;
      return this.mask ? 1 - table.e2(this.mask, this.score1) : 0;
    },

    youChance: function (p1) { return this.seat === 1 ? p1 : 1 - p1; },

    addPoint: function (kind, mistake) {
      this.points.push({ chance: this.youChance(this.p1Chance()), kind: kind, mistake: mistake, player: this.player });
      this.renderChart();
    },

    say: function (text, refused) {
      var box = $("play-message");
      box.textContent = text;
      box.className = "message" + (refused ? " refused" : "");
      box.setAttribute("data-refused", refused ? "true" : "false");
    },

    log: function (text, mine) {
      $("log").appendChild(el("li", { className: mine ? "you" : "", text: text }));
    },

    who: function (player) {
      return player === this.seat ? "You (player " + (player === 1 ? "one" : "two") + ")" :
        "Computer (player " + (player === 1 ? "one" : "two") + ")";
    },

    /** Decide what happens next: wait for the human, or let the computer act. */
    next: function () {
      this.render();
      if (this.over) return;
      if (this.human()) {
        this.awaiting = this.roll === null ? "roll" : "move";
        if (this.awaiting === "roll" && !$("play-message").textContent) this.say("Your turn: press Roll (R).");
        this.render();
        return;
      }
      this.awaiting = "computer";
      this.render();
      var self = this, game = this.game;
      this.busy = true;
      wait(450).then(function () {
        if (game !== self.game) return null;
        return self.throwDice();
      }).then(function (rolled) {
        if (!rolled || game !== self.game) return null;
        if (!self.afterRoll()) return null;
        return wait(650).then(function () {
          if (game !== self.game) return;
          var best = table.bestMove(self.mask, self.roll, self.scoreArg());
          self.chosen = best;
          self.render();
          return wait(450).then(function () {
            if (game !== self.game) return;
            self.applyMove(best, false);
          });
        });
      }).then(function () {
        if (game !== self.game) return;
        self.busy = false;
        if (!self.over) self.next();
      });
    },

    humanRoll: function () {
      if (this.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return; }
      if (!this.human() || this.busy) { this.say("Wait: it is the computer's turn.", true); return; }
      if (this.awaiting !== "roll") {
        this.say("You have rolled " + this.roll + " already: close tiles that add up to it.", true);
        return;
      }
      var self = this, game = this.game;
      this.busy = true;
      this.rolled += 1;
      this.awaiting = "rolling";
      this.say("");
      $("feedback").textContent = "";
      this.render();
      this.throwDice().then(function () {
        if (game !== self.game) return;
        self.busy = false;
        if (self.afterRoll()) { self.awaiting = "move"; self.render(); } else if (!self.over) self.next();
      });
    },

    /** Throw the dice from the seeded stream (animated); resolves when they settle. */
    throwDice: function () {
      var dice = drawDice(this.rng, table.diceFor(this.mask), table.rules.sides);
      this.dice = dice;
      this.roll = null;
      var self = this;
      return animateDice($("dice"), dice, table.rules.sides).then(function () {
        self.roll = sum(dice);
        self.render();
        return true;
      });
    },

    /** After a roll: true if a move must be chosen, false if the turn ended. */
    afterRoll: function () {
      var best = table.bestMove(this.mask, this.roll, this.scoreArg());
      var text = this.who(this.player) + " rolled " + this.roll + (this.dice.length > 1 ? " (" + this.dice.join(" + ") + ")" : "");
      if (!best) {
        this.log(text + ": no open tiles add up to it.", this.human());
        this.endTurn();
        return false;
      }
      // The chance with best play from here: shows the luck of the roll.
      var value = table.valueAfter(this.mask, best, this.scoreArg());
      var p1 = this.player === 1 ? value : 1 - value;
      this.points.push({ chance: this.youChance(p1), kind: "roll", mistake: false, player: this.player });
      this.renderChart();
      this.pendingLog = text;
      return true;
    },

    pick: function (tile) {
      if (this.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return; }
      if (this.awaiting === "rolling") return;
      if (!this.human() || this.awaiting === "computer") { this.say("Wait: it is the computer's turn.", true); return; }
      if (this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return; }
      if (this.awaiting !== "move") return;
      var bit = 1 << (tile - 1);
      if (this.chosen & bit) { this.chosen ^= bit; this.say(""); this.render(); return; }
      var problem = pickProblem(this.mask, this.chosen, tile, this.roll, table.rules.maxMoveTiles);
      if (problem) { this.say(problem, true); return; }
      this.chosen |= bit;
      this.say(chosenText(this.chosen, this.roll));
      this.render();
    },

    confirm: function () {
      if (this.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return; }
      if (!this.human() || this.awaiting === "computer") { this.say("Wait: it is the computer's turn.", true); return; }
      if (this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return; }
      if (this.awaiting !== "move") return;
      var problem = confirmProblem(this.chosen, this.roll);
      if (problem) { this.say(problem, true); return; }
      var closed = STB.tilesOf(this.chosen);
      this.applyMove(this.chosen, true);
      if (this.over) return;
      this.say("Closed " + closed.join(" + ") + ". Press Roll (R) for your next throw.");
      this.next();
    },

    applyMove: function (move, mine) {
      var scoreArg = this.scoreArg();
      var best = table.bestMove(this.mask, this.roll, scoreArg);
      var value = table.valueAfter(this.mask, move, scoreArg);
      var bestValue = table.valueAfter(this.mask, best, scoreArg);
      var loss = Math.max(0, bestValue - value);
      var entry = (this.pendingLog || "") + ": closed " + moveText(move);
      var mistake = false;
      if (mine) {
        this.moves += 1;
        var fb = $("feedback");
        if (move === best || loss === 0) {
          this.optimal += 1;
          fb.textContent = "Optimal: " + moveText(move) + (move === best ? "" : " is exactly as good as the table's " + moveText(best)) +
            ". Your chance of winning: " + pct(value) + ".";
          fb.className = "feedback optimal";
          entry += ", optimal.";
        } else {
          mistake = true;
          this.lost += loss;
          this.mistakes.push({ position: STB.formatPosition(this.mask), roll: this.roll, move: move, best: best, loss: loss });
          fb.textContent = "Not optimal: " + moveText(best) + " was best (" + pct(bestValue) + "); " + moveText(move) +
            " leaves you " + pct(value) + ", giving away " + points(loss) + ".";
          fb.className = "feedback mistake";
          entry += ", gave away " + points(loss) + " (best " + moveText(best) + ").";
        }
        fb.setAttribute("data-loss", String(loss));
      } else {
        entry += ".";
      }
      this.log(entry, mine);
      this.mask &= ~move;
      this.chosen = 0;
      this.roll = null;
      this.pendingLog = null;
      if (!this.mask) {
        this.log(this.who(this.player) + " shut the box!", mine);
        this.finish(this.player === 1 ? 1 : 0);
        return;
      }
      this.addPoint("move", mistake);
      this.render();
    },

    endTurn: function () {
      var score = STB.tileSum(this.mask);
      this.roll = null;
      if (this.player === 1) {
        this.score1 = score;
        this.log(this.who(1) + " finished with score " + score + ". " + this.who(2) + " must end below " + score + " to win.", this.seat === 1);
        this.say("Player one finished with " + score + ". Player two's turn: the score to beat is " + score + "." +
          (this.seat === 2 ? " Press Roll (R)." : ""));
        this.player = 2;
        this.mask = table.allOpen;
        this.addPoint("turn", false);
      } else {
        this.score2 = score;
        this.log(this.who(2) + " finished with score " + score + ".", this.seat === 2);
        this.finish(score < this.score1 ? 0 : score === this.score1 ? 0.5 : 1);
      }
    },

    finish: function (p1Result) {
      this.over = true;
      this.result = p1Result;
      this.awaiting = "over";
      this.addPoint("end", false);
      var mine = this.youChance(p1Result);
      var head = mine === 1 ? "You win!" : mine === 0 ? "The computer wins." : "A tie: half a win each.";
      var scores = this.score1 === null ? "Player one shut the box." :
        this.score2 === null && this.player === 2 && !this.mask ? "Player two shut the box (player one scored " + this.score1 + ")." :
        "Player one scored " + this.score1 + ", player two " + this.score2 + ".";
      var summary = $("summary");
      summary.textContent = "";
      summary.appendChild(el("h2", { text: head }));
      summary.appendChild(el("p", { text: scores + " Your chance of winning at the start was " + pct(this.points[0].chance) + "." }));
      var moves = this.moves ? "Your moves: " + this.moves + ", optimal " + this.optimal + "." : "You made no move: the dice decided.";
      var lost = this.mistakes.length
        ? " You gave away " + points(this.lost) + " of winning chance in all; the largest: " + worst(this.mistakes) + "."
        : this.moves ? " You gave away no winning chance: perfect play." : "";
      summary.appendChild(el("p", { text: moves + lost }));
      summary.appendChild(el("p", { className: "hint", text: "Seed " + this.seed + ": Replay seed plays the same dice again." }));
      summary.hidden = false;
      this.say(head);
      this.render();
    },

    render: function () {
      var self = this;
      var board = $("scoreboard");
      board.textContent = "";
      var turn = this.over ? "Game over" : (this.human() ? "Your turn" : "Computer's turn") +
        " (player " + (this.player === 1 ? "one" : "two") + ")";
      board.appendChild(el("span", { className: "turn", text: turn }));
      board.appendChild(el("span", { text: "Player one: " + (this.score1 === null ? (this.player === 1 && !this.over ? "playing" : "shut the box") : this.score1) }));
      board.appendChild(el("span", { text: "Player two: " + (this.score2 !== null ? this.score2 : this.player === 2 && this.over ? "shut the box" :
        this.player === 2 ? "playing" : this.over ? "did not play" : "waiting") }));
      if (this.player === 2 && this.score1 !== null) board.appendChild(el("span", { text: "Score to beat: " + this.score1 }));
      var chance = this.points.length ? this.points[this.points.length - 1].chance : 0.5;
      board.appendChild(el("span", { text: "Your chance: " + pct(chance) }));
      Array.prototype.forEach.call($("play-tiles").children, function (button) {
        var bit = 1 << (Number(button.getAttribute("data-tile")) - 1);
        var open = self.mask & bit;
        button.className = "tile" + (open ? "" : " shut") + (self.chosen & bit ? " chosen" : "");
        button.setAttribute("aria-pressed", String(!!(self.chosen & bit)));
        button.setAttribute("aria-label", "tile " + button.textContent + (open ? self.chosen & bit ? ", chosen" : ", open" : ", shut"));
      });
      var box = $("dice");
      if (this.roll !== null || !this.dice.length || this.awaiting !== "rolling") {
        box.textContent = "";
        this.dice.forEach(function (face) { box.appendChild(dieNode(face)); });
        if (this.roll !== null) box.appendChild(el("span", { className: "total", text: "= " + this.roll }));
        box.setAttribute("aria-label", this.roll === null ? "no roll" : "roll " + this.roll);
      }
      // aria-disabled, not disabled: a focused button keeps the focus through the computer's turn (and says why it waits).
      $("roll").setAttribute("aria-disabled", String(this.over || !this.human() || this.awaiting !== "roll"));
      $("confirm").setAttribute("aria-disabled", String(this.over || !this.human() || this.awaiting !== "move"));
      syncStop($("play-tiles"));
      document.body.setAttribute("data-play", this.over ? "over" : this.awaiting);
      this.focusNext();
    },

    renderChart: function () {
      var svg = $("chart");
      var W = 600, H = 200, L = 44, R = 12, T = 12, B = 24;
      var n = this.points.length;
      var x = function (i) { return L + (n > 1 ? (i * (W - L - R)) / (n - 1) : 0); };
      var y = function (v) { return T + (1 - v) * (H - T - B); };
      var parts = [];
      [0, 0.5, 1].forEach(function (v) {
        parts.push('<line class="' + (v === 0.5 ? "half" : "axis") + '" x1="' + L + '" x2="' + (W - R) + '" y1="' + y(v) + '" y2="' + y(v) + '"/>');
        parts.push('<text x="' + (L - 6) + '" y="' + (y(v) + 4) + '" text-anchor="end">' + v * 100 + "%</text>");
      });
      var line = [];
      this.points.forEach(function (p, i) {
        if (i && p.kind === "turn") {
          parts.push('<line class="turn-line" x1="' + x(i) + '" x2="' + x(i) + '" y1="' + T + '" y2="' + (H - B) + '"/>');
          // Beside the line, on its left when there is no room on its right (the label is about 64 units wide).
          var left = x(i) + 4 + 70 > W - R;
          parts.push('<text x="' + (left ? x(i) - 4 : x(i) + 4) + '" y="' + (H - 8) + '"' + (left ? ' text-anchor="end"' : "") +
            ">player two</text>");
        }
        line.push(x(i).toFixed(1) + "," + y(p.chance).toFixed(1));
      });
      parts.push('<polyline points="' + line.join(" ") + '"/>');
      var self = this;
      this.points.forEach(function (p, i) {
        if (p.kind === "move" && p.player === self.seat) {
          parts.push('<circle class="' + (p.mistake ? "mistake" : "move") + '" cx="' + x(i).toFixed(1) + '" cy="' + y(p.chance).toFixed(1) + '" r="' + (p.mistake ? 5 : 3.5) + '"><title>' + pct(p.chance) + "</title></circle>");
        }
      });
      parts.push('<text x="' + L + '" y="' + (H - 8) + '">start</text>');
      svg.innerHTML = parts.join("");
      svg.setAttribute("data-points", String(n));
    },

    state: function () {
      return {
        seed: this.seed, seat: this.seat, player: this.player, position: STB.formatPosition(this.mask),
        roll: this.roll, dice: this.dice.slice(), chosen: STB.tilesOf(this.chosen), score1: this.score1,
        score2: this.score2, over: this.over, awaiting: this.awaiting, result: this.over ? this.youChance(this.result) : null,
        chances: this.points.map(function (p) { return p.chance; }), moves: this.moves, optimal: this.optimal, lost: this.lost,
      };
    },
  };

  // -- solo ----------------------------------------------------------------------

  var VARIANT_NAMES = { "standard": "Standard", "two-dice": "Two dice", "two-tiles": "Two tiles" };
  var GOALS = { shut: "shut the box", score: "lowest score" };
  var soloLoads = {}; // variant -> promise of its SoloTable
  var soloTables = {}; // variant -> SoloTable, once read

  /** Where solo-VARIANT.msgpack may be: beside the two-player table read, then in TABLE_FOLDERS. */
  function soloUrls(variant) {
    var name = "solo-" + variant + ".msgpack";
    var cut = tableUrl ? tableUrl.split(/[?#]/)[0].lastIndexOf("/") : -1;
    var candidates = [cut >= 0 ? tableUrl.slice(0, cut + 1) + name : name].concat(
      TABLE_FOLDERS.map(function (folder) { return folder + name; }));
    var urls = [], seen = {};
    candidates.forEach(function (url) {
      var key = new URL(url, location.href).href;
      if (!seen[key]) { seen[key] = true; urls.push(url); }
    });
    return urls;
  }

  /** Read, verify and keep the single-player table of a variant: a promise of its SoloTable. */
  function loadSolo(variant) {
    if (STB.SOLO_VARIANTS.indexOf(variant) < 0) {
      return Promise.reject(new STB.InvalidQuery("unknown variant '" + variant + "' (choose " + STB.SOLO_VARIANTS.join(", ") + ")"));
    }
    if (!soloLoads[variant]) {
      var name = "solo-" + variant + ".msgpack";
      soloLoads[variant] = fetchTable(soloUrls(variant), [], "Start the page with `ShutTheBox serve`, or copy data/" + name +
          " next to index.html (or next to the two-player table) when serving the page yourself; `make tables` builds it.")
        .then(function (found) {
          var loaded = STB.parse(new Uint8Array(found.buffer), window.MessagePack.decode, found.url, "one-player");
          if (loaded.variant !== variant) {
            throw new STB.TableError("The table " + found.url + " holds " + (loaded.variant ? "the " + loaded.variant + " rules" :
              STB.describeRules(loaded.rules)) + ", not the " + variant + " rules; rebuild it with `make tables`.");
          }
          loaded.url = found.url;
          soloTables[variant] = loaded;
          return loaded;
        });
      soloLoads[variant].catch(function () { delete soloLoads[variant]; }); // a later try may find it
    }
    return soloLoads[variant];
  }

  function checkObjective(objective) {
    if (STB.OBJECTIVES.indexOf(objective) < 0) throw new STB.InvalidQuery("unknown objective '" + objective + "' (choose shut or score)");
    return objective;
  }

  /** Tiles in words: "tile 4", "tiles 1 and 5", "tiles 2, 8 and 9". */
  function tileList(mask) {
    var tiles = STB.tilesOf(mask);
    return tiles.length === 1 ? "tile " + tiles[0] : "tiles " + tiles.slice(0, -1).join(", ") + " and " + tiles[tiles.length - 1];
  }

  /** A value in words: a chance to shut, or an expected final score. */
  function valueText(value, objective) { return objective === "score" ? value.toFixed(3) : pct(value); }

  /** A small amount without rounding it away: 0.0012 stays visible. */
  function amount(x, digits) { return x === 0 || x >= Math.pow(10, -digits) ? x.toFixed(digits) : x.toPrecision(2); }

  /** What a move cost: chance of shutting lost, or expected final score added. */
  function costText(cost, objective) {
    return objective === "score" ? amount(cost, 3) + " to the expected final score" :
      amount(cost * 100, 2) + " percentage points of shutting chance";
  }

  /**
   * The solo coach: every legal move for a roll, the table's move first, then
   * by the objective's exact value after it (higher chance to shut, or lower
   * expected final score), each with its cost against the best. Without a roll,
   * only the value before rolling.
   */
  function soloAnswer(solo, objective, position, roll) {
    objective = checkObjective(objective === undefined ? "shut" : objective);
    var mask = solo.position(position);
    var answer = {
      variant: solo.variant, objective: objective, position: STB.formatPosition(mask), expect: solo.value(mask, objective),
      roll: null, moves: [], best: null, turnEnds: false, endValue: null,
    };
    if (roll === null || roll === undefined) return answer;
    solo._checkRoll(mask, roll);
    answer.roll = roll;
    var best = solo.bestMove(mask, roll, objective);
    var bestValue = solo.valueAfter(mask, best, objective);
    var moves = solo.legalMoves(mask, roll).map(function (move) {
      var value = solo.valueAfter(mask, move, objective);
      return { move: move, tiles: STB.tilesOf(move), after: STB.formatPosition(mask & ~move), value: value,
        best: move === best, cost: solo.cost(bestValue, value, objective) };
    });
    if (!moves.length) {
      answer.turnEnds = true;
      answer.endValue = solo.valueAfter(mask, 0, objective);
      return answer;
    }
    moves.sort(function (a, b) {
      if (a.best !== b.best) return a.best ? -1 : 1;
      if (a.value !== b.value) return solo.better(a.value, b.value, objective) ? -1 : 1;
      return b.move - a.move;
    });
    answer.moves = moves;
    answer.best = STB.tilesOf(best);
    return answer;
  }

  /** One player, one turn, with the seeded dice of Play mode and the chosen objective. */
  var solo = {
    variant: "standard", objective: "shut", hints: false, seed: 0, rng: null, table: null, started: false,
    mask: 0, roll: null, dice: [], chosen: 0, over: false, awaiting: "loading", game: 0,
    moves: 0, optimal: 0, cost: 0, costs: [], mistakes: [], values: [], start: null, bestAfterRoll: null,
    rolls: 0, engaged: false, focusState: null,

    init: function () {
      var self = this;
      this.variant = choiceParam("variant", STB.SOLO_VARIANTS, "standard", "the standard rules instead");
      this.objective = choiceParam("objective", STB.OBJECTIVES, "shut", "the goal is to shut the box instead");
      this.hints = choiceParam("hints", ["0", "1"], "0", "no hints instead") === "1";
      var seed = linkSeed();
      this.seed = seed !== null ? seed : newSeed();
      roving($("solo-tiles"));
      $("solo-tiles").addEventListener("click", function (event) {
        var tile = event.target.closest("[data-tile]");
        if (tile) self.pick(Number(tile.getAttribute("data-tile")));
      });
      $("solo").addEventListener("click", function () { self.engaged = true; }, true);
      $("solo-variants").addEventListener("click", function (event) {
        var button = event.target.closest("[data-variant]");
        if (!button) return;
        var variant = button.getAttribute("data-variant");
        self.restart("Switch to the " + VARIANT_NAMES[variant].toLowerCase() + " rules and start again with the same dice?",
          "Switch rules", function () { self.variant = variant; self.newGame(self.seed); });
      });
      $("solo-objectives").addEventListener("click", function (event) {
        var button = event.target.closest("[data-objective]");
        if (!button) return;
        var objective = button.getAttribute("data-objective");
        self.restart("Play for " + GOALS[objective] + " and start again with the same dice?", "Change the goal",
          function () { self.objective = objective; self.newGame(self.seed); });
      });
      $("solo-roll").addEventListener("click", function () { self.throwDice(); });
      $("solo-confirm").addEventListener("click", function () { self.confirm(); });
      $("solo-clear").addEventListener("click", function () { self.clear(); });
      $("solo-new").addEventListener("click", function () { self.askNewGame(); });
      $("solo-replay").addEventListener("click", function () {
        self.restart("Replay seed " + self.seed + " from the start?", "Replay seed", function () { self.newGame(self.seed); });
      });
      $("solo-hints").addEventListener("click", function () { self.toggleHints(); });
      $("tab-solo").addEventListener("click", function () { setMode("solo"); });
    },

    /** A turn the user has rolled in and not finished. */
    inProgress: function () { return !this.over && this.rolls > 0 && this.awaiting !== "error"; },

    /** Run `start` (a new game), once the user confirms if that throws away a turn in progress. */
    restart: function (question, yesText, start) {
      if (!this.inProgress()) { start(); return; }
      ask(question + " The game in progress will be lost.", yesText, start);
    },

    askNewGame: function () {
      var self = this;
      this.restart("Start a new game with new dice?", "New game", function () { self.newGame(newSeed()); });
    },

    /** After the game moved on: the focus goes to what comes next, if the user is at the game. */
    focusNext: function () {
      var now = this.over ? "over" : this.awaiting;
      if (now === this.focusState) return;
      this.focusState = now;
      if (!this.engaged) return;
      focusIn($("solo"), { over: $("solo-new"), roll: $("solo-roll"), move: $("solo-confirm") }[now]);
    },

    /** Entering Solo mode: the first time, read the table and start the seeded game. */
    show: function () {
      if (!this.started) { this.started = true; this.newGame(this.seed); } else this.showUrl();
    },

    showUrl: function () {
      setUrl([["mode", "solo"], ["seed", String(this.seed)], ["variant", this.variant], ["objective", this.objective],
        ["hints", this.hints ? "1" : null]]);
      $("solo-seed-link").textContent = String(this.seed);
      $("solo-seed-link").href = location.href;
    },

    key: function (key) {
      if (/^[0-9]$/.test(key) || /^[rRnN]$/.test(key) || key === "Enter" || key === "Escape") this.engaged = true;
      if (/^[0-9]$/.test(key)) { this.pick(key === "0" ? 10 : Number(key)); return true; }
      if (key === "r" || key === "R") { this.throwDice(); return true; }
      if (key === "Enter" && this.awaiting === "move") { this.confirm(); return true; }
      if (key === "Escape") { this.clear(); return true; }
      if (key === "n" || key === "N") { this.askNewGame(); return true; }
      if (key === "h" || key === "H") { this.toggleHints(); return true; }
      return false;
    },

    toggleHints: function () {
      this.hints = !this.hints;
      if (mode === "solo") this.showUrl();
      this.render();
    },

    clear: function () {
      this.chosen = 0;
      this.say("");
      this.render();
    },

    newGame: function (seed) {
      var self = this, game = ++this.game;
      this.seed = seed >>> 0;
      this.rng = mulberry32(this.seed);
      this.table = soloTables[this.variant] || null;
      this.mask = 0; this.roll = null; this.dice = []; this.chosen = 0; this.over = false;
      this.moves = 0; this.optimal = 0; this.cost = 0; this.costs = []; this.mistakes = []; this.values = [];
      this.start = null; this.bestAfterRoll = null; this.rolls = 0; this.focusState = null;
      this.awaiting = "loading";
      $("solo-log").textContent = "";
      $("solo-summary").hidden = true;
      $("solo-feedback").textContent = "";
      $("solo-feedback").className = "feedback";
      $("solo-error").hidden = true;
      this.say("");
      if (mode === "solo") this.showUrl();
      this.render();
      loadSolo(this.variant).then(function (loaded) {
        if (game !== self.game) return;
        self.table = loaded;
        self.buildTiles();
        self.mask = loaded.allOpen;
        self.start = loaded.value(self.mask, self.objective);
        self.values.push(self.start);
        self.awaiting = "roll";
        self.say("Your turn: press Roll (R).");
        self.render();
      }, function (error) {
        if (game !== self.game) return;
        self.awaiting = "error";
        self.table = null;
        var box = $("solo-error");
        box.textContent = (error instanceof STB.TableError ? "" : "The single-player table could not be read: ") +
          error.message + "\nThe other modes still work.";
        box.hidden = false;
        self.render();
      });
    },

    buildTiles: function () {
      var tiles = $("solo-tiles");
      if (tiles.children.length === this.table.rules.tiles) return;
      tiles.textContent = "";
      for (var t = 1; t <= this.table.rules.tiles; t++) {
        tiles.appendChild(el("button", { type: "button", className: "tile", "data-tile": String(t), text: String(t) }));
      }
    },

    say: function (text, refused) {
      var box = $("solo-message");
      box.textContent = text;
      box.className = "message" + (refused ? " refused" : "");
      box.setAttribute("data-refused", refused ? "true" : "false");
    },

    log: function (text) { $("solo-log").appendChild(el("li", { text: text })); },

    /** Refuse an action the game's state does not allow; true if refused. */
    refuse: function (action) {
      if (this.awaiting === "loading" || this.awaiting === "rolling") return true;
      if (this.awaiting === "error") { this.say("The table for these rules could not be read: see the message above.", true); return true; }
      if (this.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return true; }
      if (action !== "roll" && this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return true; }
      if (action === "roll" && this.awaiting === "move") {
        this.say("You have rolled " + this.roll + " already: close tiles that add up to it.", true);
        return true;
      }
      return false;
    },

    throwDice: function () {
      if (this.refuse("roll")) return;
      var self = this, game = this.game, t = this.table;
      var dice = drawDice(this.rng, t.diceFor(this.mask), t.rules.sides);
      this.dice = dice;
      this.roll = null;
      this.rolls += 1;
      this.awaiting = "rolling";
      this.say("");
      $("solo-feedback").textContent = "";
      this.render();
      animateDice($("solo-dice"), dice, t.rules.sides).then(function () {
        if (game !== self.game) return;
        self.roll = sum(dice);
        self.afterRoll();
      });
    },

    /** After a roll: wait for a move, or end the turn when no open tiles make the roll. */
    afterRoll: function () {
      var t = this.table, best = t.bestMove(this.mask, this.roll, this.objective);
      var text = "Rolled " + this.roll + (this.dice.length > 1 ? " (" + this.dice.join(" + ") + ")" : "");
      if (!best) {
        var limit = t.rules.maxMoveTiles;
        this.log(text + ": no " + (limit ? limit + " or fewer " : "") + "open tiles add up to it.");
        this.finish();
        return;
      }
      this.bestAfterRoll = t.valueAfter(this.mask, best, this.objective); // the luck of the roll
      this.values.push(this.bestAfterRoll);
      this.pendingLog = text;
      this.awaiting = "move";
      this.say("Rolled " + this.roll + ": choose open tiles that add up to it, then Close tiles (Enter).");
      this.render();
    },

    pick: function (tile) {
      if (!this.table || tile > this.table.rules.tiles || this.refuse("pick")) return;
      var bit = 1 << (tile - 1);
      if (this.chosen & bit) { this.chosen ^= bit; this.say(chosenText(this.chosen, this.roll)); this.render(); return; }
      var problem = pickProblem(this.mask, this.chosen, tile, this.roll, this.table.rules.maxMoveTiles);
      if (problem) {
        if (/^At most/.test(problem)) problem = problem.replace(".", " under the " + this.variant + " rules.");
        this.say(problem, true);
        return;
      }
      this.chosen |= bit;
      this.say(chosenText(this.chosen, this.roll));
      this.render();
    },

    confirm: function () {
      if (this.refuse("confirm")) return;
      var problem = confirmProblem(this.chosen, this.roll);
      if (problem) { this.say(problem, true); return; }
      this.applyMove(this.chosen);
    },

    applyMove: function (move) {
      var t = this.table, objective = this.objective;
      var best = t.bestMove(this.mask, this.roll, objective);
      var value = t.valueAfter(this.mask, move, objective);
      var bestValue = t.valueAfter(this.mask, best, objective);
      var cost = t.cost(bestValue, value, objective);
      var what = objective === "score" ? "expected final score" : "chance of shutting the box";
      var fb = $("solo-feedback"), entry = this.pendingLog + ": closed " + moveText(move);
      this.moves += 1;
      if (cost === 0) {
        this.optimal += 1;
        fb.textContent = "Optimal: " + moveText(move) + (move === best ? "" : " is exactly as good as the table's " + moveText(best)) +
          ". Your " + what + ": " + valueText(value, objective) + ".";
        fb.className = "feedback optimal";
        entry += ", optimal.";
      } else {
        this.cost += cost;
        this.mistakes.push({ position: STB.formatPosition(this.mask), roll: this.roll, move: move, best: best, cost: cost });
        fb.textContent = "Not optimal: " + moveText(best) + " was best (" + what + " " + valueText(bestValue, objective) + "); " +
          moveText(move) + " leaves " + valueText(value, objective) + ", costing " + costText(cost, objective) + ".";
        fb.className = "feedback mistake";
        entry += ", cost " + costText(cost, objective) + " (best " + moveText(best) + ").";
      }
      fb.setAttribute("data-cost", String(cost));
      this.costs.push(cost);
      this.values.push(value);
      this.log(entry);
      this.mask &= ~move;
      this.chosen = 0;
      this.roll = null;
      this.pendingLog = null;
      if (!this.mask) { this.finish(); return; }
      this.awaiting = "roll";
      this.say("Press Roll (R) for the next throw.");
      this.render();
    },

    finish: function () {
      var t = this.table, objective = this.objective, shut = !this.mask, score = STB.tileSum(this.mask);
      this.over = true;
      this.awaiting = "over";
      var result = objective === "score" ? score : shut ? 1 : 0;
      this.values.push(result);
      var head = shut ? "You shut the box!" + (objective === "score" ? " Final score 0." : "") :
        "Final score " + score + ": " + tileList(this.mask) + " left open.";
      this.log(shut ? "Box shut!" : "The turn ends with score " + score + ".");
      var start = objective === "score"
        ? "With optimal play the expected final score from the start is " + valueText(this.start, objective) + " (lower is better)."
        : "With optimal play the chance of shutting the box from the start is " + valueText(this.start, objective) + ".";
      var moves = this.moves ? "Your moves: " + this.moves + ", optimal " + this.optimal + "." : "You made no move: the dice decided.";
      var lost = this.mistakes.length
        ? " Your moves cost " + costText(this.cost, objective) + " in all; the largest: " + this.worstText() + "."
        : this.moves ? " They cost nothing: perfect play." : "";
      // outcome = optimal expectation at the start + what the moves cost + what the dice did, shown in
      // hundredths (of a point of score, or of a percentage point) that add up exactly: the dice's part is
      // what is left once the shown start and cost are taken from the outcome.
      var sign = objective === "score" ? 1 : -1, unit = objective === "score" ? 1 : 100;
      var hundredths = function (x) { return Math.round(Number((x * unit).toFixed(2)) * 100); }; // as shown
      var startH = hundredths(this.start), costH = hundredths(this.cost);
      var luckH = hundredths(result) - startH - sign * costH;
      var fmt = function (h) { return (Math.abs(h) / 100).toFixed(2) + (objective === "score" ? "" : " points"); };
      var split = objective === "score"
        ? "Final score " + score + " = " + (startH / 100).toFixed(2) + " expected at the start + " + fmt(costH) +
          " from your moves " + (luckH < 0 ? "\u2212 " : "+ ") + fmt(luckH) + " from the dice."
        : "Outcome " + (shut ? "100%" : "0%") + " = " + (startH / 100).toFixed(2) + "% at the start \u2212 " + fmt(costH) +
          " from your moves " + (luckH < 0 ? "\u2212 " : "+ ") + fmt(luckH) + " from the dice.";
      var summary = $("solo-summary");
      summary.textContent = "";
      summary.appendChild(el("h2", { text: head }));
      summary.appendChild(el("p", { text: start }));
      summary.appendChild(el("p", { text: moves + lost }));
      summary.appendChild(el("p", { text: split }));
      summary.appendChild(el("p", { className: "hint", text: "Seed " + this.seed + ", " + VARIANT_NAMES[this.variant] +
        " rules, goal: " + GOALS[objective] + ". Replay seed plays the same dice again." }));
      summary.hidden = false;
      this.say(head);
      this.render();
    },

    worstText: function () {
      var m = this.mistakes.reduce(function (a, b) { return b.cost > a.cost ? b : a; });
      return costText(m.cost, this.objective) + " at " + m.position + " with roll " + m.roll + ": you closed " +
        moveText(m.move) + ", best " + moveText(m.best);
    },

    render: function () {
      var self = this, t = this.table, objective = this.objective;
      Array.prototype.forEach.call($("solo-variants").children, function (button) {
        button.setAttribute("aria-pressed", String(button.getAttribute("data-variant") === self.variant));
      });
      Array.prototype.forEach.call($("solo-objectives").children, function (button) {
        button.setAttribute("aria-pressed", String(button.getAttribute("data-objective") === objective));
      });
      $("solo-hints").setAttribute("aria-pressed", String(this.hints));
      $("solo-rules").textContent = VARIANT_NAMES[this.variant] + " rules" + (t ? " (from the table): " + STB.describeRules(t.rules) : "") +
        ". Goal: " + (objective === "score" ? "the lowest final score, the sum of the tiles left open (0 when shut)." :
          "shut the box, closing every tile.");
      $("solo-info").textContent = t ? "Solo table: " + t.url + " (" + t.size + " bytes, CRC-32 checked); " + t.header.generator + "." : "";
      var board = $("solo-board");
      board.textContent = "";
      var status = { loading: "Reading the table\u2026", error: "No table", roll: "Roll the dice", rolling: "Rolling\u2026",
        move: "Close tiles making " + this.roll, over: "Game over" }[this.awaiting];
      board.appendChild(el("span", { className: "turn", text: status }));
      if (t && this.mask && !this.over) {
        var now = this.awaiting === "move" ? this.bestAfterRoll : t.value(this.mask, objective);
        board.appendChild(el("span", { "data-value": String(now), text: (objective === "score" ? "Expected final score: " :
          "Chance to shut: ") + valueText(now, objective) }));
      }
      if (t) board.appendChild(el("span", { text: "Open: " + (STB.tilesOf(this.mask).join(" ") || "none") + " (sum " + STB.tileSum(this.mask) + ")" }));
      board.appendChild(el("span", { text: "Moves: " + this.moves + (this.moves ? ", optimal " + this.optimal : "") }));
      Array.prototype.forEach.call($("solo-tiles").children, function (button) {
        var bit = 1 << (Number(button.getAttribute("data-tile")) - 1);
        var open = self.mask & bit;
        button.className = "tile" + (open ? "" : " shut") + (self.chosen & bit ? " chosen" : "");
        button.setAttribute("aria-pressed", String(!!(self.chosen & bit)));
        button.setAttribute("aria-label", "tile " + button.textContent + (open ? self.chosen & bit ? ", chosen" : ", open" : ", shut"));
      });
      var box = $("solo-dice");
      if (this.awaiting !== "rolling") {
        box.textContent = "";
        this.dice.forEach(function (face) { box.appendChild(dieNode(face)); });
        if (this.roll !== null) box.appendChild(el("span", { className: "total", text: "= " + this.roll }));
        box.setAttribute("aria-label", this.roll === null ? "no roll" : "roll " + this.roll);
      }
      // aria-disabled, not disabled: a focused button keeps the focus (and pressing it says why it waits).
      $("solo-roll").setAttribute("aria-disabled", String(this.awaiting !== "roll"));
      $("solo-confirm").setAttribute("aria-disabled", String(this.awaiting !== "move"));
      syncStop($("solo-tiles"));
      this.renderHints();
      document.body.setAttribute("data-solo", this.awaiting);
      this.focusNext();
    },

    /** The solo coach: the legal moves ranked by the objective's exact value, or the best move for every roll. */
    renderHints: function () {
      var moves = $("solo-moves"), t = this.table, objective = this.objective;
      moves.textContent = "";
      moves.hidden = !this.hints || !t || !this.mask || this.over || this.awaiting === "rolling";
      if (moves.hidden) return;
      var head = objective === "score" ? "Expected score" : "Chance to shut";
      var vs = objective === "score" ? "vs best (score)" : "vs best (points)";
      if (this.awaiting === "move") {
        var answer = soloAnswer(t, objective, this.mask, this.roll);
        moves.appendChild(el("caption", { className: "hint", text: answer.moves.length + " legal move" +
          (answer.moves.length > 1 ? "s" : "") + " for roll " + answer.roll + ", best first" }));
        moves.appendChild(el("tr", null, [el("th", { text: "Close" }), el("th", { text: "Leaves", className: "hide-narrow" }),
          el("th", { className: "num", text: head }), el("th", { className: "num", text: vs })]));
        answer.moves.forEach(function (m) {
          moves.appendChild(el("tr", { className: m.best ? "best" : "", "data-move": m.tiles.join("") }, [
            el("td", { text: STB.formatMove(m.tiles) }),
            el("td", { text: m.after || "shut!", className: "hide-narrow" }),
            el("td", { className: "num", "data-value": String(m.value), text: valueText(m.value, objective) }),
            el("td", { className: "num" + (m.cost > 0 ? " loss" : ""), text: m.best ? "best" : m.cost > 0 ?
              (objective === "score" ? "+" + amount(m.cost, 3) : "\u2212" + amount(m.cost * 100, 2)) : "equal" }),
          ]));
        });
        return;
      }
      var range = t.rollRange(this.mask), chances = rollChances(t.diceFor(this.mask), t.rules.sides);
      moves.appendChild(el("caption", { className: "hint", text: "Best move for every roll, before rolling" }));
      moves.appendChild(el("tr", null, [el("th", { text: "Roll" }), el("th", { className: "num", text: "Chance" }),
        el("th", { text: "Best move" }), el("th", { className: "num", text: head })]));
      for (var roll = range[0]; roll <= range[1]; roll++) {
        var best = t.bestMove(this.mask, roll, objective);
        moves.appendChild(el("tr", { "data-roll": String(roll) }, [el("td", { text: String(roll) }),
          el("td", { className: "num", text: pct(chances[roll]) }),
          el("td", { text: best ? moveText(best) : "none: turn ends" }),
          el("td", { className: "num", text: valueText(t.valueAfter(this.mask, best, objective), objective) })]));
      }
    },

    state: function () {
      var t = this.table;
      return {
        variant: this.variant, objective: this.objective, seed: this.seed, position: STB.formatPosition(this.mask),
        roll: this.roll, dice: this.dice.slice(), chosen: STB.tilesOf(this.chosen), over: this.over, awaiting: this.awaiting,
        moves: this.moves, optimal: this.optimal, cost: this.cost, costs: this.costs.slice(), values: this.values.slice(),
        start: this.start, score: this.over ? STB.tileSum(this.mask) : null, shut: this.over ? this.mask === 0 : null,
        rules: t ? t.rules : null,
      };
    },
  };

  function sum(values) { return values.reduce(function (a, b) { return a + b; }, 0); }

  function worst(mistakes) {
    var m = mistakes.reduce(function (a, b) { return b.loss > a.loss ? b : a; });
    return points(m.loss) + " at " + m.position + " with roll " + m.roll + ": you closed " + moveText(m.move) +
      ", best " + moveText(m.best);
  }

  function dieNode(face) {
    var die = el("span", { className: "die", "data-face": String(face), role: "img", "aria-label": "die showing " + face });
    for (var i = 0; i < 9; i++) die.appendChild(document.createElement("i"));
    return die;
  }

  window.ShutTheBoxApp = true;
  window.shutTheBox = {
    coach: function (player, position, score, roll) { return coachAnswer(player, position, score, roll); },
    play: { state: function () { return play.state(); } },
    solo: {
      /** Read the table of a variant: a promise of true (rejected with the reason when it cannot be read). */
      load: function (variant) { return loadSolo(variant).then(function () { return true; }); },
      /** The solo coach's answer (the variant's table must have been read). */
      coach: function (variant, objective, position, roll) {
        var loaded = soloTables[variant];
        if (!loaded) throw new STB.InvalidQuery("the " + variant + " table has not been read: call solo.load('" + variant + "') first");
        return soloAnswer(loaded, objective, position, roll);
      },
      state: function () { return solo.state(); },
    },
    table: function () { return table; },
  };
  load();
})();
