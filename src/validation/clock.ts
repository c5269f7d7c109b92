// Where validate's time goes: seconds per phase (MuJoCo references, the engine's gates, the planted-bug
// sweep) and per group of stages, reported beside the verdict so CI's budget is spent knowingly.

export interface StageTiming {
  phase: string;
  group: string;
  seconds: number;
}

export class StageClock {
  private readonly acc = new Map<string, StageTiming>();
  /** The phase that time() charges; the suite switches it as it goes. */
  phase = 'engine';

  /** Runs f, charging its wall time to (phase, group). */
  time<T>(group: string, f: () => T): T {
    const t0 = performance.now();
    try {
      return f();
    } finally {
      this.add(group, (performance.now() - t0) / 1000);
    }
  }

  add(group: string, seconds: number): void {
    const key = `${this.phase}\u0000${group}`;
    const e = this.acc.get(key) ?? { phase: this.phase, group, seconds: 0 };
    e.seconds += seconds;
    this.acc.set(key, e);
  }

  /** The timings of a twentieth of a second or more, largest first. */
  entries(): StageTiming[] {
    return [...this.acc.values()].filter((e) => e.seconds >= 0.05).sort((a, b) => b.seconds - a.seconds);
  }
}
