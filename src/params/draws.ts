// Per-robot random draws of a sweep. Each number is a pure function of (seed, robot, parameter
// name, counter): a counter-based hash, not a stream. So robot r's draws never depend on the batch
// it runs in, its lane, the lane width, the shard, the thread count or on which other parameters
// the sweep draws (a parameter is keyed by its name, not by its place in the file): a shard of
// robots [a, b) computes exactly the numbers the unsharded sweep gives those robots.
//
// Only JavaScript doubles and Math.log / Math.exp / Math.cos / Math.sqrt are used. sqrt is exact
// (IEEE 754); V8 computes log, exp and cos with its own port of fdlibm, the same code on every
// platform, so the draws are identical on every machine running the same Node.

/** murmur3's 32-bit finalizer: every input bit affects every output bit. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** One word absorbed into the hash state (golden-ratio offset, then a full mix). */
function absorb(h: number, word: number): number {
  return fmix32((h ^ fmix32((word + 0x9e3779b9) >>> 0)) + 0x7f4a7c15);
}

/** A 32-bit key for a parameter name (FNV-1a over its UTF-16 code units, then mixed). */
export function parameterKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return fmix32(h);
}

/** Robot indices go up to 2^32 - 1 (two words would be needed beyond). */
export const MAX_ROBOTS = 0xffffffff;

/**
 * A uniform number in (0, 1), never 0 or 1 (so its logarithm is finite): 52 random bits plus
 * one half, exactly representable in a double, so nothing rounds up to 1. It is the `counter`-th
 * number of (seed, robot, parameter).
 */
export function unitDraw(seed: number, robot: number, param: number, counter: number): number {
  let h = absorb(0x5eed5eed, seed >>> 0);
  h = absorb(h, robot >>> 0);
  h = absorb(h, param >>> 0);
  h = absorb(h, counter >>> 0);
  const hi = absorb(h, 1) >>> 6; // 26 bits
  const lo = absorb(h, 2) >>> 6; // 26 bits
  return (hi * 2 ** 26 + lo + 0.5) / 2 ** 52;
}

export type Distribution =
  | { kind: 'uniform'; low: number; high: number }
  | { kind: 'normal'; mean: number; std: number }
  | { kind: 'log_uniform'; low: number; high: number };

export const DISTRIBUTIONS = ['uniform', 'normal', 'log_uniform'] as const;

/** Robot `robot`'s value of the parameter keyed `param`, drawn from `d`. */
export function draw(d: Distribution, seed: number, robot: number, param: number): number {
  const u = unitDraw(seed, robot, param, 0);
  switch (d.kind) {
    case 'uniform':
      return d.low + u * (d.high - d.low);
    case 'log_uniform':
      return Math.exp(Math.log(d.low) + u * (Math.log(d.high) - Math.log(d.low)));
    case 'normal': {
      // Box–Muller, the cosine half only: each robot's value uses its own two numbers, none kept
      // for another robot (a kept spare would make robot r depend on robot r - 1).
      const v = unitDraw(seed, robot, param, 1);
      return d.mean + d.std * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
  }
}

/** The distribution as the provenance header writes it, e.g. `normal(0, 0.5)`. */
export function distributionText(d: Distribution): string {
  return d.kind === 'normal' ? `normal(${d.mean}, ${d.std})` : `${d.kind}(${d.low}, ${d.high})`;
}
