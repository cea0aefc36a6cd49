/* The seeded dice of every game's Play on both pages: mulberry32, one draw per die, so that a seed
 * replays the same dice (tests/serving.py writes it again in Python). */

/** mulberry32: a stream of numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One die of `sides` faces from a mulberry32 stream. */
export const rollDie = (draw, sides) => 1 + Math.floor(draw() * sides);

/** A seed for new dice: short enough to read out. */
export const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0] % 1000000000;
