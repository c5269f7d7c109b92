// A PD term's target over time (the spec is data in src/engine/controller-spec.ts; this
// evaluates it while the run steps).

import type { TargetSpec } from '../engine/controller-spec.js';

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
