// One thing to time (an Achilles batch or a MuJoCo mode) behind a common face, so the scheduler
// can interleave them rep by rep. `run(steps)` advances every robot `steps` steps of the scene's dt
// from the initial state, restarting on the fixed schedule, and times the stepping alone.

export interface Timed {
  /** Seconds spent stepping (restarts excluded). */
  seconds: number;
  /** Robot-steps that ended in a finite state (the only ones we count). */
  robotSteps: number;
  /** Robot-steps lost to a non-finite state. */
  nonFinite: number;
}

export interface Runner {
  readonly copies: number;
  run(steps: number): Timed;
}

/**
 * Steps of one repetition: `calibrated` rounded to whole restart segments (at least one). The cost of
 * a step changes along a trajectory (dominoes fall, feet land: a step near the end of a 500-step
 * segment cost 1.8× one near its start on the domino scene), so a cell timing steps 0..260 and one
 * timing 0..450 would not time the same work. Whole segments give every cell, fast or slow, either
 * engine, the very same steps.
 */
export function wholeSegments(calibrated: number, restartEvery: number): number {
  return Math.max(1, Math.round(calibrated / restartEvery)) * restartEvery;
}

/**
 * Warm up (caches, page faults, branch predictors, CPU clock) and find how many steps make a
 * repetition of about `repSeconds`: doubling until one run lasts `warmSeconds`.
 */
export function calibrate(r: Runner, repSeconds: number, warmSeconds: number, onNonFinite: (n: number) => void = () => undefined): number {
  let steps = 1;
  for (;;) {
    const t = r.run(steps);
    if (t.nonFinite > 0) onNonFinite(t.nonFinite);
    if (t.seconds >= warmSeconds || steps >= 1e9) {
      const perStep = t.seconds / steps;
      return Math.max(1, Math.ceil(repSeconds / Math.max(perStep, 1e-12)));
    }
    // Jump straight to roughly the warm-up length once a run is long enough to estimate from.
    steps = t.seconds > 1e-3 ? Math.max(steps * 2, Math.ceil((steps * warmSeconds * 1.1) / t.seconds)) : steps * 8;
  }
}
