// Seeded random numbers, so every failing state can be replayed from (seed, model, index).

/** splitmix32-style generator: small, fast, and identical on every platform. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x9e3779b9) >>> 0;
    let z = this.s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  }
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log is finite
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  /** Uniformly distributed unit quaternion [w, x, y, z] (normalized 4-D Gaussian). */
  unitQuat(): [number, number, number, number] {
    for (;;) {
      const q = [this.normal(), this.normal(), this.normal(), this.normal()];
      const n = Math.hypot(...q);
      if (n > 1e-3) return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
    }
  }
}

/** A stable 32-bit seed for (suite seed, model name, purpose): FNV-1a over the text. */
export function seedFor(seed: number, ...parts: string[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of parts.join('/')) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
