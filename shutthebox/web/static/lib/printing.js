/* Every printed digit right, as the command line prints it (shutthebox/engine/printing.py and Python's
 * formats): "%.{places}f" of a float64's exact value, "%.3g" for an error bound in a message, and the refusal
 * of a value lying within its error bound of a 6-decimal rounding midpoint. No DOM: the pages and web/answer.mjs. */

import { InvalidQuestion } from "./notation.js";

/** Python's "%.{places}f" % x: the exact binary value rounded to `places` decimals, halves to even. */
export function fixed(x, places = 6) {
  if (!Number.isFinite(x)) return String(x);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let power;
  if (exponent === 0) power = -1074;
  else { mantissa |= 1n << 52n; power = exponent - 1075; }
  let numerator = mantissa * 10n ** BigInt(places), denominator = 1n;
  if (power >= 0) numerator <<= BigInt(power);
  else denominator <<= BigInt(-power);
  let whole = numerator / denominator;
  const twice = 2n * (numerator % denominator);
  if (twice > denominator || (twice === denominator && whole % 2n === 1n)) whole += 1n;
  const digits = whole.toString().padStart(places + 1, "0");
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative ? `-${text}` : text;
}

/** Python's "%.3g" % x (for an error bound in a message). */
export function general3(x) {
  if (x === 0) return "0";
  const [mantissa, exp] = x.toExponential(2).split("e");
  const power = Number(exp);
  const strip = (t) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  if (power >= -4 && power < 3) return strip(x.toFixed(2 - power));
  return `${strip(mantissa)}e${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`;
}

/** How far `value` lies from the nearest 6-decimal rounding midpoint (engine/printing.py). */
export function midpointDistance(value) {
  const scaled = value * 1e6;
  return Math.abs(scaled - Math.floor(scaled) - 0.5) * 1e-6;
}

/** `value`, unless its error `bound` may put it across a 6-decimal rounding midpoint: then an InvalidQuestion
 * naming `what`, in engine/printing.py's words. */
export function checked(value, bound, what) {
  if (midpointDistance(value) <= bound) {
    throw new InvalidQuestion(`${what} = ${fixed(value, 15)} lies within its error bound ${general3(bound)} of a 6-decimal ` +
      "rounding midpoint; its 6th decimal cannot be vouched for");
  }
  return value;
}
