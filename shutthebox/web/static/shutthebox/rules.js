/* The one registry of Shut the Box rule sets: their limits, words, rules keys and table file
 * names, exactly as shutthebox/games/shutthebox/rules.py (`Rules.key()`, `Rules.describe()`,
 * `Rules.as_dict()`) and table.py (`table_name(rules, players)`) say them.
 *
 * A rule set here is a frozen object in the page's words:
 *   { tiles, sides, dice, oneDieAtMost (null: never), maxMoveTiles (null: any), oneDieOptional, oneDieHighShut }
 */

import { InvalidQuestion, shorten } from "../lib/notation.js";

/** The limits the command line's game options accept (rules.py LIMITS). */
export const LIMITS = { tiles: [1, 12], dice: [1, 4], sides: [2, 20], maxMoveTiles: [1, 12], players: [2, 8] };
const OPTION = { tiles: "--tiles", dice: "--dice", sides: "--sides", maxMoveTiles: "--max-move-tiles", players: "--players" };

export const ONE_DIE_HELP = "never, K (when the open tiles sum to K or less), high (once every tile above 6 is shut), " +
  "K,high (either), each optionally prefixed optional: (the player may throw one die or all)";

const DEFAULTS = { tiles: 9, sides: 6, dice: 2, oneDieAtMost: 6, maxMoveTiles: null, oneDieOptional: false, oneDieHighShut: false };

const whole = (v) => typeof v === "number" && Number.isInteger(v);

/** A rule set, checked as Python's Rules() checks it; InvalidQuestion in the command line's words. */
export function makeRules(fields = {}) {
  const r = { ...DEFAULTS, ...fields };
  const check = (name, value, low, high) => {
    if (!whole(value) || value < low || value > high) {
      throw new InvalidQuestion(`these rules do not make a game: ${name} must be a whole number from ${low} to ${high}, not ${value}`);
    }
  };
  check("tiles", r.tiles, 1, 16);
  check("sides", r.sides, ...LIMITS.sides);
  check("dice", r.dice, ...LIMITS.dice);
  if ((r.oneDieAtMost !== null || r.oneDieHighShut) && r.dice === 1) {
    throw new InvalidQuestion("these rules do not make a game: a one-die rule needs a game of more than one die");
  }
  if (r.oneDieAtMost !== null) check("one_die_at_most", r.oneDieAtMost, 0, 10000);
  else if (r.oneDieOptional && !r.oneDieHighShut) {
    throw new InvalidQuestion("these rules do not make a game: an optional one die needs a rule for when it may be thrown");
  }
  if (r.maxMoveTiles !== null) check("max_move_tiles", r.maxMoveTiles, 1, r.tiles);
  return Object.freeze({
    tiles: r.tiles, sides: r.sides, dice: r.dice, oneDieAtMost: r.oneDieAtMost, maxMoveTiles: r.maxMoveTiles,
    oneDieOptional: !!r.oneDieOptional, oneDieHighShut: !!r.oneDieHighShut,
    maxScore: (r.tiles * (r.tiles + 1)) / 2, maxRoll: r.dice * r.sides,
  });
}

export const STANDARD = makeRules();

/** The rules as a table file stores them (Rules.as_dict: the later one-die options only when set). */
export function fileRules(r) {
  const fields = { tiles: r.tiles, sides: r.sides, dice: r.dice, one_die_at_most: r.oneDieAtMost, max_move_tiles: r.maxMoveTiles };
  if (r.oneDieOptional) fields.one_die_optional = true;
  if (r.oneDieHighShut) fields.one_die_high_shut = true;
  return fields;
}

/** Every rules key a table file may hold (FORMAT.md section 6). */
export const RULE_KEYS = ["tiles", "sides", "dice", "one_die_at_most", "max_move_tiles", "one_die_optional", "one_die_high_shut"];

/** The rules of a table file's `rules` map (keys already known); null if malformed. */
export function rulesOfFile(f) {
  const ok = whole(f.tiles) && f.tiles >= 1 && f.tiles <= 16 && whole(f.sides) && f.sides >= 2 && whole(f.dice) && f.dice >= 1 &&
    (f.one_die_at_most == null || whole(f.one_die_at_most)) && (f.max_move_tiles == null || whole(f.max_move_tiles)) &&
    (f.one_die_optional == null || typeof f.one_die_optional === "boolean") &&
    (f.one_die_high_shut == null || typeof f.one_die_high_shut === "boolean");
  if (!ok) return null;
  try {
    return makeRules({ tiles: f.tiles, sides: f.sides, dice: f.dice, oneDieAtMost: f.one_die_at_most ?? null,
      maxMoveTiles: f.max_move_tiles ?? null, oneDieOptional: f.one_die_optional === true, oneDieHighShut: f.one_die_high_shut === true });
  } catch (e) {
    return null;
  }
}

/** Rules.key(): "t9-2d6-one6", "t12-2d6-opt6-high-max2". */
export function ruleKey(r) {
  const parts = [`t${r.tiles}`, `${r.dice}d${r.sides}`];
  const when = [];
  if (r.oneDieAtMost !== null) when.push(String(r.oneDieAtMost));
  if (r.oneDieHighShut) when.push("high");
  if (when.length) parts.push((r.oneDieOptional ? "opt" : "one") + when.join("-"));
  if (r.maxMoveTiles !== null) parts.push(`max${r.maxMoveTiles}`);
  return parts.join("-");
}

export const sameRules = (a, b) => ruleKey(a) === ruleKey(b);

/** table_name(rules, players): "standard.msgpack" for the assignment's game, else "<key>-p<players>.msgpack". */
export function tableName(r, players = 2) {
  return sameRules(r, STANDARD) && players === 2 ? "standard.msgpack" : `${ruleKey(r)}-p${players}.msgpack`;
}

/** Rules.describe(): "tiles 1-9, 2 dice with 6 sides, one die once the open tiles sum to 6 or less". */
export function describeRules(r) {
  let text = `tiles 1-${r.tiles}, ${r.dice} ${r.dice === 1 ? "die" : "dice"} with ${r.sides} sides`;
  const when = [];
  if (r.oneDieAtMost !== null) when.push(`the open tiles sum to ${r.oneDieAtMost} or less`);
  if (r.oneDieHighShut) when.push("every tile above 6 is shut");
  if (when.length) text += `, ${r.oneDieOptional ? "one die allowed" : "one die"} once ${when.join(" or ")}`;
  if (r.maxMoveTiles !== null) text += `, at most ${r.maxMoveTiles} tiles closed per roll`;
  return text;
}

/** The one-die rule as the command line writes it (--one-die): "6", "never", "optional:6,high". */
export function oneDieText(r) {
  const when = [];
  if (r.oneDieAtMost !== null) when.push(String(r.oneDieAtMost));
  if (r.oneDieHighShut) when.push("high");
  if (!when.length) return "never";
  return (r.oneDieOptional ? "optional:" : "") + when.join(",");
}


/** parse_one_die: "optional:6,high" -> the rules fields; InvalidQuestion in the command line's words. */
export function parseOneDie(text) {
  const optional = text.startsWith("optional:");
  const when = optional ? text.slice("optional:".length) : text;
  const fields = { oneDieAtMost: null, oneDieOptional: optional, oneDieHighShut: false };
  if (when === "never" && !optional) return fields;
  for (const part of when.split(",")) {
    if (part === "high" && !fields.oneDieHighShut) fields.oneDieHighShut = true;
    else if (/^[0-9]{1,5}$/.test(part) && fields.oneDieAtMost === null) fields.oneDieAtMost = Number(part);
    else throw new InvalidQuestion(`--one-die '${shorten(text)}' is not a one-die rule; use ${ONE_DIE_HELP}`);
  }
  return fields;
}

/** One whole-number game option (`tiles`, `dice`, `sides`, `maxMoveTiles`, `players`) as typed. */
export function optionNumber(name, text) {
  const [low, high] = LIMITS[name];
  const t = String(text);
  if (!/^[0-9]{1,6}$/.test(t) || Number(t) < low || Number(t) > high) {
    throw new InvalidQuestion(`${OPTION[name]} must be a whole number from ${low} to ${high}, not '${shorten(t)}'`);
  }
  return Number(t);
}

/**
 * rules_from_options: the rules and players of the game options as typed, { tiles, dice, sides,
 * oneDie, maxMoveTiles, players } (each a string; absent = the default), checked in the command
 * line's order and words. -> { rules, players }. `base`: the rules the options change (a preset).
 * `onBad(key, error)`: a refused option; by default it throws, else the option keeps its default.
 */
export function rulesFromOptions(options, { base = STANDARD, onBad = (key, error) => { throw error; } } = {}) {
  const given = (k) => options[k] !== undefined && options[k] !== null;
  const read = (k, parse) => {
    try {
      return parse(String(options[k]));
    } catch (e) {
      if (!(e instanceof InvalidQuestion)) throw e;
      onBad(k, e);
      return null;
    }
  };
  const fields = { ...base };
  for (const k of ["tiles", "dice", "sides", "maxMoveTiles"]) {
    const value = given(k) ? read(k, (text) => optionNumber(k, text)) : null;
    if (value !== null) fields[k] = value;
  }
  if (given("oneDie")) Object.assign(fields, read("oneDie", parseOneDie));
  else if (given("dice") && fields.dice === 1) fields.oneDieAtMost = null; // one die already: the rule has nothing to do
  const players = (given("players") && read("players", (text) => optionNumber("players", text))) || 2;
  return { rules: makeRules(fields), players };
}

/** Named rule sets for the Rules control and `?rules=NAME`. */
export const PRESETS = [
  { id: "standard", title: "Standard", rules: STANDARD },
  { id: "ten", title: "10 tiles", rules: makeRules({ tiles: 10 }) },
  { id: "twelve", title: "12 tiles", rules: makeRules({ tiles: 12 }) },
  { id: "two-dice", title: "Two dice", rules: makeRules({ oneDieAtMost: null }) },
  { id: "two-tiles", title: "Two tiles", rules: makeRules({ maxMoveTiles: 2 }) },
  { id: "small", title: "6 tiles", rules: makeRules({ tiles: 6 }) },
];

export const presetOf = (r) => PRESETS.find((p) => sameRules(p.rules, r)) || null;

/** The single-player rule sets by name (shutthebox/games/shutthebox/solo/table.py VARIANTS): files solo-NAME.msgpack. */
export const SOLO_VARIANTS = {
  "standard": { title: "Standard", rules: STANDARD },
  "two-dice": { title: "Two dice", rules: makeRules({ oneDieAtMost: null }) },
  "two-tiles": { title: "Two tiles", rules: makeRules({ maxMoveTiles: 2 }) },
};
export const soloTableName = (variant) => `solo-${variant}.msgpack`;

/** The single-player table of any rules: solo-NAME.msgpack for a named set, else solo-<rules key>.msgpack. */
export const soloName = (r) => soloTableName(variantOf(r) || ruleKey(r));

/** The name of the single-player variant with exactly these rules, or null. */
export function variantOf(r) {
  return Object.keys(SOLO_VARIANTS).find((name) => sameRules(SOLO_VARIANTS[name].rules, r)) || null;
}

export const OBJECTIVES = ["shut", "score"];
