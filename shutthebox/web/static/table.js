/* A reader of ShutTheBox table files (docs/FORMAT.md, format 1.x), written
 * from that document alone. Runs in the browser (a plain <script>, defines
 * window.ShutTheBoxTable) and in Node.js (require), with the msgpack decoder
 * passed in: `ShutTheBoxTable.parse(bytes, MessagePack.decode)`.
 *
 * Reads the games "two-player" (section 6.1: a Table) and "one-player"
 * (section 6.2: a SoloTable, both objectives); `parse(bytes, decode, name,
 * game)` refuses a file of another game than `game` ("two-player" by
 * default, "one-player", or "any").
 *
 * Integrity (section 4): the header checksum `header_crc32` (format 1.1) is
 * verified before the header is decoded, then the whole-file CRC-32, then the
 * checksums of every array used (its `crc32` and each block's, both seeded
 * with the CRC-32 of the bytes before "arrays"). A file that fails any of them
 * is refused: no answer comes from bytes not verified.
 *
 * Positions and moves are bitmasks (bit i set = tile i + 1); the helpers
 * convert from and to the players' digits ("146789", [3, 9]).
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.ShutTheBoxTable = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var MAGIC = "ShutTheBox table";
  var FORMAT_MAJOR = 1;
  var GAME = "two-player";
  var SOLO_GAME = "one-player";
  var ITEMSIZE = { "<f8": 8, "<u2": 2 };
  var BLOCK_SIZE = 65536; // FORMAT.md section 5: the block length of `block_crc32`
  // Every key FORMAT.md section 6 defines; a file with another must be refused.
  var RULE_KEYS = ["tiles", "sides", "dice", "one_die_at_most", "max_move_tiles", "one_die_high_shut", "one_die_optional"];
  // The single-player rule sets by name (shutthebox/games/solo/table.py VARIANTS): files solo-NAME.msgpack.
  var SOLO_VARIANTS = {
    "standard": { tiles: 9, sides: 6, dice: 2, oneDieAtMost: 6, maxMoveTiles: null, oneDieHighShut: false },
    "two-dice": { tiles: 9, sides: 6, dice: 2, oneDieAtMost: null, maxMoveTiles: null, oneDieHighShut: false },
    "two-tiles": { tiles: 9, sides: 6, dice: 2, oneDieAtMost: 6, maxMoveTiles: 2, oneDieHighShut: false },
  };
  var OBJECTIVES = ["shut", "score"];
  var REBUILD = "rebuild it with `make tables`";

  /** The table is missing, damaged, or of an unknown version: never answer from it. */
  function TableError(message) {
    this.name = "TableError";
    this.message = message;
    this.stack = new Error(message).stack;
  }
  TableError.prototype = Object.create(Error.prototype);
  TableError.prototype.constructor = TableError;

  /** A question with no answer (bad position, impossible roll, no move), in the player's words. */
  function InvalidQuery(message) {
    this.name = "InvalidQuery";
    this.message = message;
    this.stack = new Error(message).stack;
  }
  InvalidQuery.prototype = Object.create(Error.prototype);
  InvalidQuery.prototype.constructor = InvalidQuery;

  // -- CRC-32 (zlib's: polynomial 0x04C11DB7 reflected, init and final xor ~0)

  var CRC_TABLE = (function () {
    var table = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
    return table;
  })();

  /**
   * The CRC-32 of bytes[start, end), continued from the CRC-32 value `seed`
   * (zlib's crc32(data, seed); 0 or omitted: a fresh CRC-32).
   */
  function crc32(bytes, start, end, seed) {
    var crc = (seed || 0) ^ 0xffffffff;
    for (var i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  }

  // -- tiles and bitmasks

  function tilesOf(mask) {
    var tiles = [];
    for (var tile = 1; mask; tile++, mask >>>= 1) if (mask & 1) tiles.push(tile);
    return tiles;
  }

  function maskOf(tiles) {
    var mask = 0;
    for (var i = 0; i < tiles.length; i++) mask |= 1 << (tiles[i] - 1);
    return mask;
  }

  function tileSum(mask) {
    var sum = 0;
    for (var tile = 1; mask; tile++, mask >>>= 1) if (mask & 1) sum += tile;
    return sum;
  }

  function formatPosition(mask) {
    var tiles = tilesOf(mask);
    return tiles.length && tiles[tiles.length - 1] > 9 ? tiles.join(",") : tiles.join("");
  }

  function formatMove(tiles) {
    return "[" + tiles.join(", ") + "]";
  }

  // -- reading a file

  function ascii(bytes, start, end) {
    var text = "";
    for (var i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }

  function damaged(name, what) {
    return new TableError("The table " + name + " " + what + "; " + REBUILD + ".");
  }

  // The file starts with: map header, "magic" (a5 + 5 bytes), MAGIC (b0 + 16 bytes),
  // then "format" (a6 + 6 bytes) and [major, minor], both small ints in practice.
  var MAGIC_KEY = [0xa5].concat(Array.prototype.map.call("magic", function (c) { return c.charCodeAt(0); }),
    [0xb0], Array.prototype.map.call(MAGIC, function (c) { return c.charCodeAt(0); }));
  var CRC_TAIL = [0xa5, 0x63, 0x72, 0x63, 0x33, 0x32, 0xce]; // "crc32" then uint32

  function checkVersionEarly(bytes, name) {
    // Refuse an unknown major version before anything else, as FORMAT.md asks;
    // if the header is not laid out as expected the full decode checks it later.
    var at = 1 + MAGIC_KEY.length;
    if (bytes.length > at + 9 && bytes[at] === 0xa6 && ascii(bytes, at + 1, at + 7) === "format" &&
        bytes[at + 7] === 0x92 && bytes[at + 8] < 0x80) {
      var major = bytes[at + 8];
      if (major !== FORMAT_MAJOR) throw unknownVersion(name, major, bytes[at + 9]);
    }
  }

  function unknownVersion(name, major, minor) {
    return new TableError("The table " + name + " has format version " + major + "." + (minor < 0x80 ? minor : "?") +
      "; this page reads version " + FORMAT_MAJOR + ".x only: get the table that came with this page, or " +
      REBUILD + ".");
  }

  function uint32At(bytes, at) {
    return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
  }

  /**
   * Where the header's checksum and the arrays are, without decoding any value:
   * walks the top-level map's keys (short strings) and skips their values.
   * -> { headerCrcAt: offset of the key "header_crc32" (-1: none, format 1.0),
   *      headerCrc: its uint32 value, arraysAt: offset of the key "arrays" }.
   * Throws a TableError for bytes that are not a msgpack map of such keys.
   */
  function layoutOf(bytes, name) {
    var n = bytes.length;
    var at = 0;
    function need(count) {
      if (at + count > n) throw damaged(name, "cannot be decoded (its header ends early)");
    }
    function length(size) {
      need(size);
      var value = 0;
      for (var i = 0; i < size; i++) value = value * 256 + bytes[at + i];
      at += size;
      return value;
    }
    // Skip one msgpack value (and everything inside it).
    function skip() {
      var pending = 1;
      while (pending > 0) {
        pending--;
        need(1);
        var b = bytes[at++];
        if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) continue;
        if (b <= 0x8f) { pending += 2 * (b & 0x0f); continue; }
        if (b <= 0x9f) { pending += b & 0x0f; continue; }
        if (b <= 0xbf) { need(b & 0x1f); at += b & 0x1f; continue; }
        switch (b) {
          case 0xc4: case 0xd9: at += length(1); break; // bin 8, str 8
          case 0xc5: case 0xda: at += length(2); break; // bin 16, str 16
          case 0xc6: case 0xdb: at += length(4); break; // bin 32, str 32
          case 0xc7: at += length(1) + 1; break; // ext 8
          case 0xc8: at += length(2) + 1; break; // ext 16
          case 0xc9: at += length(4) + 1; break; // ext 32
          case 0xcc: case 0xd0: at += 1; break;
          case 0xcd: case 0xd1: at += 2; break;
          case 0xca: case 0xce: case 0xd2: at += 4; break;
          case 0xcb: case 0xcf: case 0xd3: at += 8; break;
          case 0xd4: at += 2; break; case 0xd5: at += 3; break; case 0xd6: at += 5; break;
          case 0xd7: at += 9; break; case 0xd8: at += 17; break; // fixext 1, 2, 4, 8, 16
          case 0xdc: pending += length(2); break; // array 16
          case 0xdd: pending += length(4); break; // array 32
          case 0xde: pending += 2 * length(2); break; // map 16
          case 0xdf: pending += 2 * length(4); break; // map 32
          default: throw damaged(name, "cannot be decoded (byte 0x" + b.toString(16) + " at offset " + (at - 1) + ")");
        }
        need(0);
      }
    }
    function key() {
      need(1);
      var b = bytes[at];
      var size;
      if (b >= 0xa0 && b <= 0xbf) { at += 1; size = b & 0x1f; }
      else if (b === 0xd9) { at += 1; size = length(1); }
      else throw damaged(name, "cannot be decoded (a header key at offset " + at + " is not a short string)");
      need(size);
      at += size;
      return ascii(bytes, at - size, at);
    }
    // The map header: one byte for every table so far (FORMAT.md section 3), but any is accepted.
    var first = bytes[at++];
    var count = first >= 0x80 && first <= 0x8f ? first & 0x0f : first === 0xde ? length(2) : first === 0xdf ? length(4) : -1;
    if (count < 0) throw damaged(name, "cannot be decoded (it is not a msgpack map)");
    var layout = { headerCrcAt: -1, headerCrc: null, arraysAt: -1 };
    for (var i = 0; i < count; i++) {
      var keyAt = at;
      var k = key();
      if (k === "arrays") {
        layout.arraysAt = keyAt;
        return layout;
      }
      if (k === "header_crc32") {
        // Always a msgpack uint32 (FORMAT.md section 4): 0xce and 4 big-endian bytes.
        need(5);
        if (bytes[at] !== 0xce) throw damaged(name, "has a malformed header_crc32 (not a uint32)");
        layout.headerCrcAt = keyAt;
        layout.headerCrc = uint32At(bytes, at + 1);
        at += 5;
        continue;
      }
      skip();
    }
    throw damaged(name, "has no arrays");
  }

  /**
   * Verify and decode a table file (a Uint8Array or ArrayBuffer) -> Table
   * (game "two-player") or SoloTable (game "one-player"). `game` is the game
   * wanted: "two-player" (the default), "one-player" or "any".
   * Throws TableError naming `name` and saying what is wrong.
   */
  function parse(input, decode, name, game) {
    name = name || "file";
    game = game || GAME;
    var bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    if (bytes.length === 0) throw damaged(name, "is empty");
    for (var i = 0; i < MAGIC_KEY.length; i++) {
      if (bytes[1 + i] !== MAGIC_KEY[i]) throw damaged(name, "is not a ShutTheBox table (wrong magic)");
    }
    checkVersionEarly(bytes, name);
    var tail = bytes.length - 4 - CRC_TAIL.length;
    if (bytes.length < 64) throw damaged(name, "is truncated (no checksum at its end)");
    for (i = 0; i < CRC_TAIL.length; i++) {
      if (bytes[tail + i] !== CRC_TAIL[i]) throw damaged(name, "is truncated (no checksum at its end)");
    }
    var n = bytes.length;
    function checkWhole() {
      if (crc32(bytes, 0, n - 4) !== uint32At(bytes, n - 4)) throw damaged(name, "is damaged (checksum mismatch)");
    }
    // The header first (format 1.1: header_crc32 covers every byte before its key),
    // then the whole file: a format 1.0 file (no header_crc32) is verified whole
    // before any field of its header is used.
    var layout;
    try {
      layout = layoutOf(bytes, name);
    } catch (error) {
      checkWhole(); // a header that cannot be walked: say "damaged" if the file is
      throw error;
    }
    if (layout.headerCrcAt >= 0 && crc32(bytes, 0, layout.headerCrcAt) !== layout.headerCrc) {
      throw damaged(name, "is damaged (header checksum mismatch)");
    }
    checkWhole();
    var fields;
    try {
      fields = decode(bytes);
    } catch (error) {
      throw damaged(name, "cannot be decoded (" + error.message + ")");
    }
    if (fields && typeof fields === "object" && layout.headerCrcAt >= 0 && fields.header_crc32 !== layout.headerCrc) {
      throw damaged(name, "cannot be decoded (its header_crc32 is not where it was found)");
    }
    // Arrays' checksums are seeded with the CRC-32 of every byte before the key "arrays".
    var parsed = checkFields(fields, name, game, crc32(bytes, 0, layout.arraysAt));
    return parsed.game === SOLO_GAME ? new SoloTable(parsed, name, n) : new Table(parsed, name, n);
  }

  function isInt(value) {
    return typeof value === "number" && Math.floor(value) === value;
  }

  /**
   * Check an array's checksums (FORMAT.md section 4): `crc32` is the CRC-32 of
   * its data continued from `seed`, and `block_crc32` holds one little-endian
   * uint32 per block of `block_size` bytes, each continued from `seed` too.
   */
  function checkArray(a, key, seed, name) {
    var data = a.data;
    var blocks = a.block_crc32;
    var count = Math.ceil(data.length / BLOCK_SIZE);
    if (a.block_size !== BLOCK_SIZE || !(blocks instanceof Uint8Array) || blocks.length !== 4 * count ||
        !isInt(a.crc32) || a.crc32 < 0 || a.crc32 > 0xffffffff) {
      throw damaged(name, "has no checksums for its array " + key);
    }
    for (var block = 0; block < count; block++) {
      var start = block * BLOCK_SIZE;
      var stored = (blocks[4 * block] | (blocks[4 * block + 1] << 8) | (blocks[4 * block + 2] << 16) |
        (blocks[4 * block + 3] << 24)) >>> 0;
      if (crc32(data, start, Math.min(start + BLOCK_SIZE, data.length), seed) !== stored) {
        throw damaged(name, "is damaged (checksum mismatch in array " + key + ", block " + block + ")");
      }
    }
    if (crc32(data, 0, data.length, seed) !== a.crc32) {
      throw damaged(name, "is damaged (checksum mismatch in array " + key + ")");
    }
  }

  function checkFields(fields, name, wanted, arraysSeed) {
    if (!fields || typeof fields !== "object" || fields.magic !== MAGIC) throw damaged(name, "is not a ShutTheBox table");
    var format = fields.format;
    if (!Array.isArray(format) || !isInt(format[0])) throw damaged(name, "has no format version");
    if (format[0] !== FORMAT_MAJOR) throw unknownVersion(name, format[0], format[1]);
    var game = fields.game;
    var known = game === GAME || game === SOLO_GAME;
    if (!known || (wanted !== "any" && game !== wanted)) {
      var want = wanted === "any" ? "'" + GAME + "' or '" + SOLO_GAME + "'" : "'" + wanted + "'";
      throw new TableError("The table " + name + " answers the game '" + game + "', not " + want +
        (wanted === SOLO_GAME ? ": give a single-player table (solo-NAME.msgpack)." :
          wanted === GAME ? ": give a two-player table (standard.msgpack)." : "."));
    }
    var r = fields.rules;
    if (!r || typeof r !== "object" || Array.isArray(r)) throw damaged(name, "has malformed rules");
    Object.keys(r).forEach(function (key) {
      if (RULE_KEYS.indexOf(key) < 0) {
        throw new TableError("The table " + name + " has the rule '" + key + "', which this page does not know: " +
          "it would misread the dice. Use the page that came with the table.");
      }
    });
    var ok = isInt(r.tiles) && r.tiles >= 1 && r.tiles <= 16 && isInt(r.sides) && r.sides >= 2 &&
      isInt(r.dice) && r.dice >= 1 && (r.one_die_at_most == null || isInt(r.one_die_at_most)) &&
      (r.max_move_tiles == null || isInt(r.max_move_tiles)) &&
      (r.one_die_high_shut == null || typeof r.one_die_high_shut === "boolean") &&
      (r.one_die_optional == null || typeof r.one_die_optional === "boolean");
    if (!ok) throw damaged(name, "has malformed rules");
    if (r.one_die_optional) {
      throw new TableError("The table " + name + " lets the player choose one die or two; this page does not " +
        "read such tables (use the command line for them).");
    }
    var rules = {
      tiles: r.tiles, sides: r.sides, dice: r.dice,
      oneDieAtMost: r.one_die_at_most == null ? null : r.one_die_at_most,
      maxMoveTiles: r.max_move_tiles == null ? null : r.max_move_tiles,
      oneDieHighShut: r.one_die_high_shut === true,
    };
    rules.maxScore = (rules.tiles * (rules.tiles + 1)) / 2;
    rules.maxRoll = rules.dice * rules.sides;
    if (fields.max_score !== rules.maxScore || fields.max_roll !== rules.maxRoll) {
      throw damaged(name, "has max_score or max_roll inconsistent with its rules");
    }
    var P = 1 << rules.tiles, S = rules.maxScore + 1, R = rules.maxRoll + 1;
    var want = game === GAME
      ? { e1: ["<f8", [P]], m1: ["<u2", [P, R]], e2: ["<f8", [P, S]], m2: ["<u2", [P, S, R]] }
      : { shut: ["<f8", [P]], shut_move: ["<u2", [P, R]], score: ["<f8", [P]], score_move: ["<u2", [P, R]] };
    var arrays = {};
    var given = fields.arrays || {};
    Object.keys(want).forEach(function (key) {
      var a = given[key];
      var dtype = want[key][0], shape = want[key][1];
      if (!a || a.dtype !== dtype || !Array.isArray(a.shape) || a.shape.join() !== shape.join()) {
        throw damaged(name, "has no array " + key + " of type " + dtype + " and shape [" + shape.join(", ") + "]");
      }
      var count = shape.reduce(function (x, y) { return x * y; }, 1);
      if (!(a.data instanceof Uint8Array) || a.data.length !== count * ITEMSIZE[dtype]) {
        throw damaged(name, "has an array " + key + " of the wrong length");
      }
      checkArray(a, key, arraysSeed, name);
      // bin data may start at any offset: read through a little-endian DataView.
      arrays[key] = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    });
    return { game: game, header: fields, rules: rules, arrays: arrays, S: S, R: R };
  }

  /** The name of the single-player variant with exactly these rules, or null. */
  function variantOf(rules) {
    var names = Object.keys(SOLO_VARIANTS);
    for (var i = 0; i < names.length; i++) {
      var v = SOLO_VARIANTS[names[i]];
      if (Object.keys(v).every(function (key) { return rules[key] === v[key]; })) return names[i];
    }
    return null;
  }

  /** The rules in words: "tiles 1-9, 2 dice of 6 sides, one die once the open tiles sum to 6 or less". */
  function describeRules(r) {
    return "tiles 1-" + r.tiles + ", " + r.dice + " dice of " + r.sides + " sides" +
      (r.oneDieAtMost !== null ? ", one die once the open tiles sum to " + r.oneDieAtMost + " or less" : "") +
      (r.oneDieHighShut ? ", one die once every tile above 6 is shut" : "") +
      (r.maxMoveTiles !== null ? ", at most " + r.maxMoveTiles + " tile" + (r.maxMoveTiles > 1 ? "s" : "") + " per move" : "");
  }

  function extend(base, methods) {
    var proto = Object.create(base);
    Object.keys(methods).forEach(function (key) { proto[key] = methods[key]; });
    return proto;
  }

  /** What both games share: positions, dice, rolls and moves. */
  var Board = {
    /** Bitmask of a position given as digits ("146789"), "1,4,10", an array of tiles, or a bitmask number. */
    position: function (position) {
      var tiles = this.rules.tiles;
      if (typeof position === "number") {
        if (!isInt(position) || position <= 0 || position > this.allOpen) {
          throw new InvalidQuery("position " + position + " is not a set of tiles 1 to " + tiles);
        }
        return position;
      }
      var numbers;
      if (typeof position === "string") {
        var text = position.trim();
        var parts = /[, ]/.test(text) ? text.split(/[, ]+/).filter(Boolean) : text.split("");
        numbers = parts.map(function (part) {
          if (!/^[0-9]+$/.test(part)) throw new InvalidQuery("position '" + position + "': '" + part + "' is not a tile");
          return parseInt(part, 10);
        });
      } else if (Array.isArray(position)) {
        numbers = position;
      } else {
        throw new InvalidQuery("a position is a string of tiles like '146789' or a list of tiles");
      }
      if (!numbers.length) throw new InvalidQuery("the position is empty: with no tile open the box is already shut");
      var mask = 0;
      numbers.forEach(function (tile) {
        if (!isInt(tile) || tile < 1 || tile > tiles) {
          throw new InvalidQuery("position '" + position + "': there is no tile " + tile + " (the tiles are 1 to " + tiles + ")");
        }
        var bit = 1 << (tile - 1);
        if (mask & bit) throw new InvalidQuery("position '" + position + "': tile " + tile + " is listed twice");
        mask |= bit;
      });
      return mask;
    },

    /** How many dice are thrown at a position (bitmask). */
    diceFor: function (mask) {
      var r = this.rules;
      return (r.oneDieAtMost !== null && tileSum(mask) <= r.oneDieAtMost) || (r.oneDieHighShut && mask >>> 6 === 0)
        ? 1 : r.dice;
    },

    /** [lowest, highest] roll the dice can show at a position (bitmask). */
    rollRange: function (mask) {
      var dice = this.diceFor(mask);
      return [dice, dice * this.rules.sides];
    },

    /** Every legal move (bitmask) for a roll, highest tiles first (the tie-break order). */
    legalMoves: function (mask, roll) {
      var moves = [];
      var limit = this.rules.maxMoveTiles;
      for (var move = mask; move; move = (move - 1) & mask) {
        if (tileSum(move) === roll && (limit === null || tilesOf(move).length <= limit)) moves.push(move);
      }
      return moves;
    },

    _checkRoll: function (mask, roll) {
      var range = this.rollRange(mask);
      if (!isInt(roll)) throw new InvalidQuery("the roll must be a whole number, not " + roll);
      if (roll < range[0] || roll > range[1]) {
        var dice = this.diceFor(mask);
        throw new InvalidQuery("roll " + roll + " is impossible" + (this.variant ? " under the " + this.variant + " rules" : "") +
          ": the open tiles " + formatPosition(mask) + " sum to " + tileSum(mask) + ", so " +
          (dice === 1 ? "one die is" : dice + " dice are") + " thrown (" + range[0] + " to " + range[1] + ")");
      }
    },

    _moveTiles: function (mask, roll, move) {
      if (!move) {
        var limit = this.rules.maxMoveTiles;
        throw new InvalidQuery("no " + (limit ? limit + " or fewer " : "") + "open tiles of " + formatPosition(mask) +
          " add up to " + roll + ": the turn ends there, scoring " + tileSum(mask));
      }
      return tilesOf(move);
    },
  };

  /** Exact answers for one rule set of the two-player game. */
  function Table(parsed, name, size) {
    this.name = name;
    this.size = size;
    this.header = parsed.header;
    this.rules = parsed.rules;
    this.allOpen = (1 << parsed.rules.tiles) - 1;
    this._a = parsed.arrays;
    this._S = parsed.S;
    this._R = parsed.R;
  }

  Table.prototype = extend(Board, {
    _checkScore: function (score) {
      if (score === 0) throw new InvalidQuery("score 0 means player one shut the box and won: player two does not play");
      if (!isInt(score) || score < 1 || score > this.rules.maxScore) {
        throw new InvalidQuery("player one's score must be a whole number from 1 to " + this.rules.maxScore + ", not " + score);
      }
    },

    // -- raw lookups on bitmasks (no validation) ---------------------------

    e1: function (mask) { return this._a.e1.getFloat64(mask * 8, true); },
    m1: function (mask, roll) { return this._a.m1.getUint16((mask * this._R + roll) * 2, true); },
    e2: function (mask, score) { return this._a.e2.getFloat64((mask * this._S + score) * 8, true); },
    m2: function (mask, score, roll) { return this._a.m2.getUint16(((mask * this._S + score) * this._R + roll) * 2, true); },

    // -- the four questions, as the Python API and the command line ask them

    /** Player one's expected wins at a position, before rolling. */
    expectOne: function (position) {
      return this.e1(this.position(position));
    },

    /** Player one's optimal move: the tiles to close, increasing. InvalidQuery if the turn ends. */
    moveOne: function (position, roll) {
      var mask = this.position(position);
      this._checkRoll(mask, roll);
      return this._moveTiles(mask, roll, this.m1(mask, roll));
    },

    /** Player two's expected wins at a position, player one having scored `score`. */
    expectTwo: function (position, score) {
      var mask = this.position(position);
      this._checkScore(score);
      return this.e2(mask, score);
    },

    /** Player two's optimal move, player one having scored `score`. */
    moveTwo: function (position, score, roll) {
      var mask = this.position(position);
      this._checkScore(score);
      this._checkRoll(mask, roll);
      return this._moveTiles(mask, roll, this.m2(mask, score, roll));
    },

    // -- values of moves, for coaching ---------------------------------------

    /**
     * The mover's expected wins after a move (bitmask; 0 = no move: the turn ends).
     * `score` is null for player one, else player one's final score.
     */
    valueAfter: function (mask, move, score) {
      var after = mask & ~move;
      if (score === null || score === undefined) {
        if (after === 0) return 1;
        return move ? this.e1(after) : 1 - this.e2(this.allOpen, tileSum(mask));
      }
      if (after === 0) return 1;
      if (!move) {
        var mine = tileSum(mask);
        return mine < score ? 1 : mine === score ? 0.5 : 0;
      }
      return this.e2(after, score);
    },

    /** The table's move (bitmask, 0 = none) for player one (score null) or two. */
    bestMove: function (mask, roll, score) {
      return score === null || score === undefined ? this.m1(mask, roll) : this.m2(mask, score, roll);
    },
  });


  function checkObjective(objective) {
    if (OBJECTIVES.indexOf(objective) < 0) {
      throw new InvalidQuery("unknown objective '" + objective + "' (choose shut or score)");
    }
    return objective;
  }

  /**
   * Exact single-player answers for one rule set (FORMAT.md section 6.2), for
   * both objectives: "shut" (the highest probability of shutting the box) and
   * "score" (the lowest expected final score: the open tiles' sum when the
   * turn ends, 0 when shut; lower is better).
   */
  function SoloTable(parsed, name, size) {
    this.name = name;
    this.size = size;
    this.header = parsed.header;
    this.rules = parsed.rules;
    this.variant = variantOf(parsed.rules);
    this.allOpen = (1 << parsed.rules.tiles) - 1;
    this._a = parsed.arrays;
    this._R = parsed.R;
  }

  SoloTable.prototype = extend(Board, {
    // -- raw lookups on bitmasks (no validation) ---------------------------

    /** The objective's value before rolling: shut probability, or lowest expected final score. */
    value: function (mask, objective) {
      return this._a[objective === "score" ? "score" : "shut"].getFloat64(mask * 8, true);
    },

    /** The table's move (bitmask, 0 = none) for the objective. */
    bestMove: function (mask, roll, objective) {
      return this._a[objective === "score" ? "score_move" : "shut_move"].getUint16((mask * this._R + roll) * 2, true);
    },

    // -- the questions, as the Python API (shutthebox.load_solo) asks them

    /** Probability of shutting the box from a position (before rolling), playing for it. */
    shutProbability: function (position) {
      return this.value(this.position(position), "shut");
    },

    /** Lowest expected final score from a position (before rolling). */
    expectedScore: function (position) {
      return this.value(this.position(position), "score");
    },

    /** shutProbability or expectedScore, by objective. */
    expect: function (position, objective) {
      checkObjective(objective === undefined ? "shut" : objective);
      return this.value(this.position(position), objective);
    },

    /** The optimal move for a roll and objective: the tiles to close, increasing. InvalidQuery if the turn ends. */
    move: function (position, roll, objective) {
      objective = checkObjective(objective === undefined ? "shut" : objective);
      var mask = this.position(position);
      this._checkRoll(mask, roll);
      return this._moveTiles(mask, roll, this.bestMove(mask, roll, objective));
    },

    // -- values of moves, for coaching ---------------------------------------

    /**
     * The objective's value after a move (bitmask; 0 = no move: the turn ends
     * with the open tiles' sum): "shut": the chance to shut the box (1 once shut,
     * 0 when the turn ends); "score": the expected final score (0 once shut).
     */
    valueAfter: function (mask, move, objective) {
      var after = mask & ~move;
      var shut = objective !== "score";
      if (!move) return shut ? (mask ? 0 : 1) : tileSum(mask);
      if (!after) return shut ? 1 : 0;
      return this.value(after, objective);
    },

    /** True if value a is better than b for the objective (higher chance, lower score). */
    better: function (a, b, objective) {
      return objective === "score" ? a < b : a > b;
    },

    /** What a move of value `value` costs against the best one's: chance lost, or expected score added (>= 0). */
    cost: function (bestValue, value, objective) {
      return Math.max(0, objective === "score" ? value - bestValue : bestValue - value);
    },
  });

  return {
    parse: parse,
    Table: Table,
    SoloTable: SoloTable,
    SOLO_VARIANTS: Object.keys(SOLO_VARIANTS),
    OBJECTIVES: OBJECTIVES.slice(),
    variantOf: variantOf,
    describeRules: describeRules,
    TableError: TableError,
    InvalidQuery: InvalidQuery,
    crc32: crc32,
    tilesOf: tilesOf,
    maskOf: maskOf,
    tileSum: tileSum,
    formatPosition: formatPosition,
    formatMove: formatMove,
    FORMAT_MAJOR: FORMAT_MAJOR,
  };
});
