// What a scene says about its controller: a module to load, or the built-in PD controller.

/** A PD target over time: constant, a sine, or a table read from a CSV file at load (linear
 *  interpolation between rows, held at the ends). */
export type TargetSpec =
  | { kind: 'constant'; value: number }
  | { kind: 'sine'; amplitude: number; frequency: number; phase: number; offset: number }
  | { kind: 'table'; file: string; column: string; times: number[]; values: number[] };

/** One PD term: drives actuator `actuator` (index into ModelDesc.actuators). A motor gets
 *  ctrl = kp·(target − ℓ) − kd·ℓ̇ with ℓ = g·q, ℓ̇ = g·q̇ (its length and velocity); a position
 *  servo gets ctrl = target (its own kp, kv do the rest). */
export interface PdTermSpec {
  actuator: number;
  kp: number;
  kd: number;
  target: TargetSpec;
}

export type ControllerSpec =
  /** A module (.ts or .js), path resolved against the scene's directory. */
  | { kind: 'module'; path: string }
  /** The built-in PD controller; `rate` in Hz (absent: every step). */
  | { kind: 'pd'; rate?: number; terms: PdTermSpec[] };

/** The target's value at time t. */
export function targetAt(t: TargetSpec, time: number): number {
  switch (t.kind) {
    case 'constant':
      return t.value;
    case 'sine':
      return t.offset + t.amplitude * Math.sin(2 * Math.PI * t.frequency * time + t.phase);
    case 'table': {
      const { times, values } = t;
      if (time <= times[0]) return values[0];
      const n = times.length;
      if (time >= times[n - 1]) return values[n - 1];
      let lo = 0;
      let hi = n - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (times[mid] <= time) lo = mid;
        else hi = mid;
      }
      const s = (time - times[lo]) / (times[hi] - times[lo]);
      return values[lo] + s * (values[hi] - values[lo]);
    }
  }
}
