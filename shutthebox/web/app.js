/* The browser assistant: coach and play, answered from the table file.
 *
 * URL parameters: mode=coach|play; coach: player=1|2, score, pos (open tiles),
 * roll; play: seed (fixes the dice), seat=1|2 (which player you are);
 * table=URL (another table file); anim=0 (no dice animation, no pauses).
 *
 * window.shutTheBox exposes the answers the page shows, for tests and for the
 * curious: coach(player, position, score, roll) and play.state().
 */
(function () {
  "use strict";

  var STB = window.ShutTheBoxTable;
  var params = new URLSearchParams(location.search);
  var ANIMATE = params.get("anim") !== "0";
  var DEFAULT_TABLES = ["standard.msgpack", "../data/standard.msgpack", "../../data/standard.msgpack"];
  var table = null;

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

  // -- loading the table ------------------------------------------------------

  function fetchTable(urls, tried) {
    var url = urls[0];
    return fetch(url, { cache: "no-cache" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.arrayBuffer().then(function (buffer) { return { url: url, buffer: buffer }; });
    }, function (error) {
      throw new Error(location.protocol === "file:" ? "pages opened from a file cannot read files" : error.message);
    }).catch(function (error) {
      tried.push(url + " (" + error.message + ")");
      if (urls.length > 1) return fetchTable(urls.slice(1), tried);
      throw new STB.TableError(
        "The table file could not be loaded. Tried: " + tried.join("; ") + ".\n" +
        "Start the page with `ShutTheBox serve`, or copy data/standard.msgpack next to index.html " +
        "when serving this folder yourself, or give its address as ?table=URL.");
    });
  }

  function load() {
    if (!STB || !window.MessagePack) {
      showError("The msgpack decoder (vendor/msgpack.min.js) or the reader (table.js) did not load: " +
        "serve this folder whole, for example with `ShutTheBox serve`.");
      return;
    }
    var urls = params.get("table") ? [params.get("table")] : DEFAULT_TABLES;
    fetchTable(urls, []).then(function (found) {
      table = STB.parse(new Uint8Array(found.buffer), window.MessagePack.decode, found.url);
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
      "tiles 1-" + r.tiles + ", " + r.dice + " dice of " + r.sides + " sides" +
      (r.oneDieAtMost !== null ? ", one die once the open tiles sum to " + r.oneDieAtMost + " or less" : "") +
      "; " + table.header.generator + ".";
    $("coach-score").max = String(r.maxScore);
    coach.init();
    play.init();
    setMode(params.get("mode") === "play" ? "play" : "coach");
    document.addEventListener("keydown", onKey);
    document.body.setAttribute("data-state", "ready");
  }

  var mode = "coach";

  function setMode(name) {
    mode = name;
    $("coach").hidden = name !== "coach";
    $("play").hidden = name !== "play";
    $("tab-coach").setAttribute("aria-pressed", String(name === "coach"));
    $("tab-play").setAttribute("aria-pressed", String(name === "play"));
    document.body.setAttribute("data-mode", name);
    if (name === "play") play.showUrl(); else coach.showUrl();
  }

  function setUrl(entries) {
    var query = new URLSearchParams();
    if (params.get("table")) query.set("table", params.get("table"));
    if (!ANIMATE) query.set("anim", "0");
    entries.forEach(function (pair) { if (pair[1] !== null && pair[1] !== undefined) query.set(pair[0], pair[1]); });
    history.replaceState(null, "", "?" + query.toString());
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    var key = event.key;
    // Enter and Space on a focused button press that button, as usual.
    if ((key === "Enter" || key === " ") && target && (target.tagName === "BUTTON" || target.tagName === "A")) return;
    if (key === "c" || key === "C") { setMode("coach"); event.preventDefault(); return; }
    if (key === "p" || key === "P") { setMode("play"); event.preventDefault(); return; }
    var handled = mode === "coach" ? coach.key(key, event) : play.key(key, event);
    if (handled) event.preventDefault();
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
    player: 1, score: 20, mask: 0, roll: null,

    init: function () {
      var self = this;
      this.mask = table.allOpen;
      var pos = params.get("pos");
      if (pos !== null) {
        try { this.mask = pos === "" || pos === "0" ? 0 : table.position(pos); } catch (e) { /* keep all open */ }
      }
      if (params.get("player") === "2") this.player = 2;
      var score = parseInt(params.get("score"), 10);
      if (score >= 1 && score <= table.rules.maxScore) this.score = score;
      var roll = parseInt(params.get("roll"), 10);
      if (!isNaN(roll)) this.roll = roll;
      var tiles = $("coach-tiles");
      for (var t = 1; t <= table.rules.tiles; t++) {
        tiles.appendChild(el("button", { type: "button", className: "tile", "data-tile": String(t), text: String(t) }));
      }
      tiles.addEventListener("click", function (event) {
        var tile = event.target.closest("[data-tile]");
        if (tile) self.toggle(Number(tile.getAttribute("data-tile")));
      });
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
      $("coach-score-down").addEventListener("click", function () { self.setScore(self.score - 1); });
      $("coach-score-up").addEventListener("click", function () { self.setScore(self.score + 1); });
      $("coach-score").addEventListener("input", function () {
        var value = parseInt($("coach-score").value, 10);
        if (value >= 1 && value <= table.rules.maxScore) { self.score = value; self.render(true); }
      });
      $("tab-coach").addEventListener("click", function () { setMode("coach"); });
      this.render();
    },

    toggle: function (tile) {
      this.mask ^= 1 << (tile - 1);
      this.render();
    },

    setScore: function (score) {
      this.score = Math.max(1, Math.min(table.rules.maxScore, score));
      this.render();
    },

    key: function (key) {
      if (/^[1-9]$/.test(key) && Number(key) <= table.rules.tiles) { this.toggle(Number(key)); return true; }
      return false;
    },

    showUrl: function () {
      setUrl([["mode", "coach"], ["player", String(this.player)], ["score", this.player === 2 ? String(this.score) : null],
        ["pos", STB.formatPosition(this.mask) || "0"], ["roll", this.roll === null ? null : String(this.roll)]]);
    },

    render: function (keepInput) {
      var self = this, mask = this.mask;
      $("coach-p1").setAttribute("aria-pressed", String(this.player === 1));
      $("coach-p2").setAttribute("aria-pressed", String(this.player === 2));
      $("coach-score-box").hidden = this.player !== 2;
      if (!keepInput) $("coach-score").value = String(this.score);
      Array.prototype.forEach.call($("coach-tiles").children, function (button) {
        var open = (mask >> (Number(button.getAttribute("data-tile")) - 1)) & 1;
        button.className = "tile" + (open ? "" : " shut");
        button.setAttribute("aria-pressed", String(!!open));
        button.setAttribute("aria-label", "tile " + button.textContent + (open ? ", open" : ", shut"));
      });
      var rolls = $("coach-rolls");
      rolls.textContent = "";
      var summary = $("coach-summary"), moves = $("coach-moves");
      moves.textContent = "";
      if (mode === "coach") this.showUrl();
      if (!mask) {
        this.roll = null;
        summary.textContent = "The box is shut: whoever shut it has won. Open some tiles.";
        return;
      }
      var range = table.rollRange(mask);
      if (this.roll !== null && (this.roll < range[0] || this.roll > range[1])) this.roll = null;
      for (var roll = range[0]; roll <= range[1]; roll++) {
        rolls.appendChild(el("button", { type: "button", "data-roll": String(roll), text: String(roll),
          "aria-pressed": String(roll === this.roll) }));
      }
      rolls.appendChild(el("button", { type: "button", "data-roll": "", text: "any",
        title: "Best move for every roll", "aria-pressed": String(this.roll === null) }));
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

  var play = {
    seat: 1, seed: 0, rng: null, player: 1, mask: 0, roll: null, dice: [], chosen: 0,
    score1: null, score2: null, over: false, awaiting: "none", busy: false, game: 0,
    points: [], mistakes: [], moves: 0, optimal: 0, lost: 0,

    init: function () {
      var self = this;
      var tiles = $("play-tiles");
      for (var t = 1; t <= table.rules.tiles; t++) {
        tiles.appendChild(el("button", { type: "button", className: "tile", "data-tile": String(t), text: String(t) }));
      }
      tiles.addEventListener("click", function (event) {
        var tile = event.target.closest("[data-tile]");
        if (tile) self.pick(Number(tile.getAttribute("data-tile")));
      });
      $("roll").addEventListener("click", function () { self.humanRoll(); });
      $("confirm").addEventListener("click", function () { self.confirm(); });
      $("clear").addEventListener("click", function () { self.chosen = 0; self.say(""); self.render(); });
      $("seat-1").addEventListener("click", function () { self.newGame(self.seed, 1); });
      $("seat-2").addEventListener("click", function () { self.newGame(self.seed, 2); });
      $("new-game").addEventListener("click", function () { self.newGame(newSeed(), self.seat); });
      $("replay").addEventListener("click", function () { self.newGame(self.seed, self.seat); });
      $("tab-play").addEventListener("click", function () { setMode("play"); });
      var seed = parseInt(params.get("seed"), 10);
      this.newGame(seed >= 0 && seed <= 0xffffffff ? seed : newSeed(), params.get("seat") === "2" ? 2 : 1);
    },

    showUrl: function () {
      setUrl([["mode", "play"], ["seed", String(this.seed)], ["seat", String(this.seat)]]);
      $("seed-link").textContent = String(this.seed);
      $("seed-link").href = location.href;
    },

    key: function (key) {
      if (/^[1-9]$/.test(key) && Number(key) <= table.rules.tiles) { this.pick(Number(key)); return true; }
      if (key === "r" || key === "R") { this.humanRoll(); return true; }
      if (key === "Enter" && this.awaiting === "move") { this.confirm(); return true; }
      if (key === "Escape") { this.chosen = 0; this.say(""); this.render(); return true; }
      if (key === "n" || key === "N") { this.newGame(newSeed(), this.seat); return true; }
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
      this.score1 = null; this.score2 = null; this.over = false; this.busy = false;
      this.points = []; this.mistakes = []; this.moves = 0; this.optimal = 0; this.lost = 0;
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
      var count = table.diceFor(this.mask);
      var dice = [];
      for (var i = 0; i < count; i++) dice.push(1 + Math.floor(this.rng() * table.rules.sides));
      this.dice = dice;
      this.roll = null;
      var self = this, box = $("dice");
      if (!ANIMATE) { this.roll = sum(dice); this.render(); return Promise.resolve(true); }
      box.textContent = "";
      var faces = dice.map(function () {
        var die = dieNode(1 + Math.floor(Math.random() * table.rules.sides));
        die.classList.add("rolling");
        box.appendChild(die);
        return die;
      });
      return new Promise(function (resolve) {
        var ticks = 0;
        var timer = setInterval(function () {
          ticks += 1;
          faces.forEach(function (die) { die.setAttribute("data-face", String(1 + Math.floor(Math.random() * table.rules.sides))); });
          if (ticks >= 7) {
            clearInterval(timer);
            self.roll = sum(dice);
            self.render();
            resolve(true);
          }
        }, 80);
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
      if (!(this.mask & bit)) { this.say("Tile " + tile + " is already shut: choose open tiles.", true); return; }
      if (this.chosen & bit) { this.chosen ^= bit; this.say(""); this.render(); return; }
      var tiles = STB.tilesOf(this.chosen | bit);
      var total = STB.tileSum(this.chosen | bit);
      var limit = table.rules.maxMoveTiles;
      if (limit !== null && tiles.length > limit) {
        this.say("At most " + limit + " tiles may be closed per roll.", true);
        return;
      }
      if (total > this.roll) {
        this.say("Tiles " + tiles.join(" + ") + " make " + total + ": more than the roll of " + this.roll + ".", true);
        return;
      }
      this.chosen |= bit;
      this.say(total === this.roll ? "Tiles " + tiles.join(" + ") + " = " + total + ": press Close tiles (Enter)." :
        "Chosen " + tiles.join(" + ") + " = " + total + "; " + (this.roll - total) + " more to make " + this.roll + ".");
      this.render();
    },

    confirm: function () {
      if (this.over) { this.say("The game is over: press New game (N) or Replay seed.", true); return; }
      if (!this.human() || this.awaiting === "computer") { this.say("Wait: it is the computer's turn.", true); return; }
      if (this.awaiting === "roll") { this.say("Roll the dice first (R).", true); return; }
      if (this.awaiting !== "move") return;
      var total = STB.tileSum(this.chosen);
      if (!this.chosen) { this.say("Choose open tiles that add up to " + this.roll + " first.", true); return; }
      if (total !== this.roll) {
        this.say("Your tiles add up to " + total + ", but they must add up to the roll, " + this.roll + ".", true);
        return;
      }
      this.applyMove(this.chosen, true);
      if (!this.over) this.next();
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
        this.say("Player one finished with " + score + ". Player two's turn: the score to beat is " + score + ".");
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
      board.appendChild(el("span", { text: "Player two: " + (this.score2 !== null ? this.score2 : this.player === 2 && this.over ? "shut the box" : this.player === 2 ? "playing" : "waiting") }));
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
      $("roll").disabled = this.over || !this.human() || this.awaiting !== "roll";
      $("confirm").disabled = this.over || !this.human() || this.awaiting !== "move";
      document.body.setAttribute("data-play", this.over ? "over" : this.awaiting);
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
          parts.push('<text x="' + (x(i) + 4) + '" y="' + (H - 8) + '">player two</text>');
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
    table: function () { return table; },
  };
  load();
})();
