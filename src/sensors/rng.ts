// Per-robot random streams: one xoshiro128** state per robot, seeded from (run seed, robot index)
// only, so a robot's draws never depend on the batch size, the lane width, the thread count or the
// other robots. Draws happen in a fixed order each step (sensor by sensor, channel by channel).

import { plantedSensorBug } from './planted-bugs.js';

/** splitmix32: spreads a 32-bit key into a well-mixed word (seeds the xoshiro states). */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) >>> 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;

export class RobotStreams {
  /** xoshiro128** state: 4 words per robot. */
  private readonly s: Uint32Array;
  /** The second Box–Muller normal of each robot, kept for its next draw (NaN: none kept). */
  private readonly spare: Float64Array;

  constructor(
    readonly seed: number,
    readonly robots: number,
  ) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`seed must be an integer from 0 to 4294967295 (got ${seed})`);
    this.s = new Uint32Array(4 * robots);
    this.spare = new Float64Array(robots).fill(NaN);
    for (let r = 0; r < robots; r++) {
      // The planted bug: every robot of a block of 8 lanes seeded alike (one stream per SIMD block).
      const key = plantedSensorBug() === 'noise-stream-shared-between-lanes' ? r - (r % 8) : r;
      let h = splitmix32(seed ^ 0x5bd1e995);
      h = splitmix32(h ^ key);
      for (let k = 0; k < 4; k++) {
        h = splitmix32(h + k);
        this.s[4 * r + k] = h;
      }
      if ((this.s[4 * r] | this.s[4 * r + 1] | this.s[4 * r + 2] | this.s[4 * r + 3]) === 0) this.s[4 * r] = 1;
    }
  }

  /** Next 32-bit word of robot r's stream. */
  nextU32(r: number): number {
    const s = this.s;
    const i = 4 * r;
    const result = Math.imul(rotl(Math.imul(s[i + 1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[i + 1] << 9) >>> 0;
    s[i + 2] ^= s[i];
    s[i + 3] ^= s[i + 1];
    s[i + 1] ^= s[i + 2];
    s[i] ^= s[i + 3];
    s[i + 2] ^= t;
    s[i + 3] = rotl(s[i + 3], 11);
    return result;
  }

  /** Uniform in (0, 1): never 0, so its logarithm is finite. */
  uniform(r: number): number {
    return (this.nextU32(r) + 0.5) / 4294967296;
  }

  /** Standard normal (Box–Muller; both values used, in order). */
  normal(r: number): number {
    const kept = this.spare[r];
    if (kept === kept) {
      this.spare[r] = NaN;
      return kept;
    }
    const rad = Math.sqrt(-2 * Math.log(this.uniform(r)));
    const ang = 2 * Math.PI * this.uniform(r);
    this.spare[r] = rad * Math.sin(ang);
    return rad * Math.cos(ang);
  }
}
