// Estimators of the configured statistics and the standard errors their bars are built from.
// Every bar is BAR_SIGMAS standard errors of the estimate (asymptotic, for N samples):
//
//   white-noise σ̂ (N iid normal samples):            SE(σ̂)/σ = 1/√(2N)
//   mean of N iid samples:                            SE = σ/√N
//   AR(1) x_k = φ x_{k−1} + e_k (drift; filtered white noise), pooled least squares
//     φ̂ = Σ x_k x_{k+1} / Σ x_k²:                      SE(φ̂) = √((1 − φ²)/N)
//     stationary σ̂ of an AR(1):                       SE(σ̂)/σ = √((1 + φ²) / (2N (1 − φ²)))
//   correlation of two independent series, N pairs:   SE(ρ̂) = 1/√N
// and functions of an estimate carry its error by the delta method: SE(g(φ̂)) = |g'(φ)| SE(φ̂).
// The runs are seeded, so a result never changes between runs; 5 SE keeps a correct sensor
// inside its bar (a Gaussian estimate falls outside with probability 6·10⁻⁷).

export const BAR_SIGMAS = 5;

/** Running sums of one AR(1)-like series per robot: Σx, Σx², Σ x_k x_{k+1}, Σ x_k² over k < last. */
export class SeriesSums {
  n = 0;
  sum = 0;
  sumSq = 0;
  lagProduct = 0;
  lagSq = 0;
  private readonly prev: Float64Array;
  private started = false;
  constructor(robots: number) {
    this.prev = new Float64Array(robots);
  }
  /** One sample per robot: x[r] for r < robots. */
  add(x: ArrayLike<number>, robots: number): void {
    for (let r = 0; r < robots; r++) {
      const v = x[r];
      this.sum += v;
      this.sumSq += v * v;
      if (this.started) {
        this.lagProduct += this.prev[r] * v;
        this.lagSq += this.prev[r] * this.prev[r];
      }
      this.prev[r] = v;
    }
    this.n += robots;
    this.started = true;
  }
  get mean(): number {
    return this.sum / this.n;
  }
  /** Standard deviation about the known mean 0 (every series here is zero-mean by construction). */
  get rms(): number {
    return Math.sqrt(this.sumSq / this.n);
  }
  /** Pooled lag-1 least-squares coefficient. */
  get phi(): number {
    return this.lagProduct / this.lagSq;
  }
}

/** Correlation of adjacent robots' series (r with r + 1), pooled over every pair and sample. */
export class AdjacentCorrelation {
  n = 0;
  private cross = 0;
  private a2 = 0;
  private b2 = 0;
  add(x: ArrayLike<number>, robots: number): void {
    for (let r = 0; r + 1 < robots; r++) {
      this.cross += x[r] * x[r + 1];
      this.a2 += x[r] * x[r];
      this.b2 += x[r + 1] * x[r + 1];
    }
    this.n += robots - 1;
  }
  get rho(): number {
    return this.cross / Math.sqrt(this.a2 * this.b2);
  }
}

export const seSigmaWhite = (n: number) => 1 / Math.sqrt(2 * n);
export const sePhi = (phi: number, n: number) => Math.sqrt((1 - phi * phi) / n);
export const seSigmaAr1 = (phi: number, n: number) => Math.sqrt((1 + phi * phi) / (2 * n * (1 - phi * phi)));

/** |g'(x)| by a central difference (g smooth; h relative). */
export function slope(g: (x: number) => number, x: number, h = 1e-6): number {
  const d = h * Math.max(Math.abs(x), 1e-12);
  return Math.abs((g(x + d) - g(x - d)) / (2 * d));
}
