/* The command line's words in JavaScript, shared by every game's command module: engine/command.py's
 * split_options and one_question, engine/text.py's looks_like_option and wrong_count, and the "did you mean" of
 * a mistyped option (difflib's get_close_matches), ported so that web/answer.mjs and the pages read a question's
 * words, or refuse them, word for word as the command line does. No DOM. */

import { InvalidQuestion, shownText } from "./notation.js";

const MAX_DIGITS = 11; // a number longer than this is refused before it is read (engine/text.py)

/** A whole number in a question (engine/text.py's whole): "the score I must be a whole number, not 'x'". */
export function whole(name, text) {
  const t = String(text);
  if (/^-?[0-9]+$/.test(t)) {
    if (t.length <= MAX_DIGITS) return parseInt(t, 10) + 0; // + 0: "-0" is 0
    throw new InvalidQuestion(`the ${name} ${shownText(t)} is far out of range`);
  }
  throw new InvalidQuestion(`the ${name} must be a whole number, not '${shownText(t)}'`);
}

/** A game option's whole number within its limits (engine/text.py's whole_in): "--goal must be a whole number
 * from 2 to 200, not 'x'". */
export function wholeIn(flag, text, low, high) {
  const t = String(text);
  if (!/^[0-9]+$/.test(t) || t.length > MAX_DIGITS || Number(t) < low || Number(t) > high) {
    throw new InvalidQuestion(`${flag} must be a whole number from ${low} to ${high}, not '${shownText(t)}'`);
  }
  return Number(t);
}

export const FLAGS = ["--batch", "--rules", "--version", "--help", "-h", "--allow-large"];

// Python's str.isspace() (str.split() splits a batch line at these) and str.isdigit(): the decimal digits and
// the other digits of Unicode's Numeric_Type=Digit (superscripts, subscripts, circled and Ethiopic digits, ...).
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SPACES = new RegExp(`[${SPACE}]+`);
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");
const DIGIT = "\\p{Nd}\\u00b2\\u00b3\\u00b9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468" +
  "\\u2474-\\u247c\\u2488-\\u2490\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792" +
  "\\u{10a40}-\\u{10a43}\\u{10e60}-\\u{10e68}\\u{11052}-\\u{1105a}\\u{1f100}-\\u{1f10a}";
const DIGITS = new RegExp(`^[${DIGIT}]+$`, "u");

/** A line's words as Python's str.split() makes them. */
export const words = (line) => line.replace(EDGES, "").split(SPACES).filter(Boolean);

/** An option, not a negative number (engine/text.py's looks_like_option). */
export const looksLikeOption = (token) => token.startsWith("-") && !DIGITS.test(token.slice(1));

// -- "did you mean": difflib.get_close_matches(word, choices, n=1, cutoff=0.6), ported

/** The number of matching characters SequenceMatcher(None, a, b) finds (its get_matching_blocks). */
function matchingCharacters(a, b) {
  const b2j = new Map();
  b.forEach((c, j) => { if (!b2j.has(c)) b2j.set(c, []); b2j.get(c).push(j); });
  if (b.length >= 200) { // autojunk: the popular characters of a long b are not indexed
    const most = Math.floor(b.length / 100) + 1;
    for (const [c, at] of [...b2j]) if (at.length > most) b2j.delete(c);
  }
  const longest = (alo, ahi, blo, bhi) => {
    let besti = alo, bestj = blo, size = 0, lengths = new Map();
    for (let i = alo; i < ahi; i++) {
      const next = new Map();
      for (const j of b2j.get(a[i]) || []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (lengths.get(j - 1) || 0) + 1;
        next.set(j, k);
        if (k > size) { besti = i - k + 1; bestj = j - k + 1; size = k; }
      }
      lengths = next;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; size++; }
    while (besti + size < ahi && bestj + size < bhi && a[besti + size] === b[bestj + size]) size++;
    return [besti, bestj, size];
  };
  let matches = 0;
  const queue = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop();
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (!k) continue;
    matches += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return matches;
}

/** The choice nearest a mistyped `word`, case and leading dashes aside (engine/command.py's nearest), or null. */
export function nearest(word, choices) {
  const key = (text) => text.split("=")[0].replace(/^-+/, "").toLowerCase();
  const byKey = new Map();
  for (const choice of choices) if (key(choice)) byKey.set(key(choice), choice);
  const b = Array.from(key(word));
  let best = null;
  for (const x of byKey.keys()) {
    const a = Array.from(x);
    const ratio = a.length + b.length ? (2.0 * matchingCharacters(a, b)) / (a.length + b.length) : 1.0;
    if (ratio >= 0.6 && (!best || ratio > best[0] || (ratio === best[0] && x > best[1]))) best = [ratio, x];
  }
  return best ? byKey.get(best[1]) : null;
}

// -- the command line's words

/**
 * The options of a command line (split_options): `--table PATH`, the flags and the game options (`--goal 50` or
 * `--goal=50`, those of `gameOptions`) pulled out, the rest the question's words.
 * -> { table, flags: { batch: true, ... }, game, tokens }.
 */
export function splitOptions(argv, gameOptions) {
  const out = { table: null, flags: {}, game: {}, tokens: [] };
  for (let n = 0; n < argv.length; n++) {
    const word = argv[n];
    const cut = word.indexOf("=");
    const [name, value] = cut < 0 ? [word, ""] : [word.slice(0, cut), word.slice(cut + 1)];
    if (word === "--table") {
      out.table = argv[++n] ?? null;
      if (!out.table) throw new InvalidQuestion("--table needs the path of a table file");
    } else if (name === "--table") {
      if (!value) throw new InvalidQuestion("--table needs the path of a table file");
      out.table = value;
    } else if (gameOptions.includes(name)) {
      let text = value;
      if (cut < 0) {
        text = argv[n + 1];
        if (text === undefined || looksLikeOption(text)) throw new InvalidQuestion(`${name} needs a value (see --help)`);
        n++;
      }
      if (Object.hasOwn(out.game, name)) throw new InvalidQuestion(`${name} is given twice`);
      out.game[name] = text;
    } else if (FLAGS.includes(word)) out.flags[word.replace(/^-+/, "")] = true;
    else out.tokens.push(word);
  }
  return out;
}

/** A named game's question (one_question): exactly one of the words `forms`, the other tokens its arguments;
 * any other option refused, with the nearest of the game's options suggested. `asked` and `use` say, in the
 * messages, how the game's questions are asked. -> [question, args]. */
export function oneQuestion(tokens, forms, asked, use, gameOptions) {
  const unknown = tokens.filter((t) => looksLikeOption(t) && !forms.includes(t));
  if (unknown.length) {
    const known = [...forms, ...`${asked} ${use}`.match(/--[a-z][a-z-]*/g), ...FLAGS, "--table", ...gameOptions];
    const found = nearest(unknown[0], known);
    throw new InvalidQuestion(`unknown option '${shownText(unknown[0])}'${found === null ? "" : `: did you mean ${found}?`} (${asked})`);
  }
  const questions = tokens.filter((t) => forms.includes(t));
  if (!questions.length) throw new InvalidQuestion(`no question asked: use ${use} (see --help)`);
  if (questions.length > 1) throw new InvalidQuestion(`ask one question only: ${forms.join(" or ")}, once`);
  return [questions[0], tokens.filter((t) => !looksLikeOption(t))];
}

/** "--move takes I J K, but got 2: 1 2" (engine/text.py's wrong_count); `noun` counts them instead: "but got 6 numbers". */
export function wrongCount(question, names, args, noun = "") {
  const given = noun ? `${args.length} ${noun}${args.length === 1 ? "" : "s"}`
    : args.length ? `${args.length}: ${shownText(args.join(" "))}` : "no arguments";
  return new InvalidQuestion(`${question} takes ${names}, but got ${given}`);
}
