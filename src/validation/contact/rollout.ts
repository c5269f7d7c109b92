// The engine over time: a batch of robots stepped `steps` times, every robot's q and v recorded
// after every `every` steps. A state that turns non-finite (a planted bug can do that) leaves
// NaN from then on, so the comparisons fail instead of throwing.

import type { LaneWidth, Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import type { TestState } from '../states.js';

export interface EngineRollout {
  /** [robot][record][coordinate] */
  q: number[][][];
  v: number[][][];
  t: number[];
  /** [robot][record]: the smallest distance among the active contact slots (Infinity: none), when asked. */
  mindist: number[][];
}

export function engineRollout(
  model: ModelDesc,
  precision: Precision,
  addon: NativeAddon,
  o: { steps: number; every?: number; states?: readonly TestState[]; lanes?: LaneWidth; penetration?: boolean },
): EngineRollout {
  const every = o.every ?? 1;
  const states = o.states ?? [
    { q: model.bodies.flatMap((b) => b.q0), v: model.bodies.flatMap((b) => b.v0), tau: model.bodies.flatMap((b) => b.tau) },
  ];
  const b = new Batch(model, { copies: states.length, precision, ...(o.lanes ? { lanes: o.lanes } : {}) }, addon);
  states.forEach((s, r) => b.setRobot(r, s));
  const out: EngineRollout = { q: states.map(() => []), v: states.map(() => []), t: [], mindist: states.map(() => []) };
  let broken = false;
  for (let k = 1; k <= o.steps; k++) {
    if (!broken) broken = b.stepRaw(1).nonFinite !== null;
    if (k % every) continue;
    out.t.push(k * b.dt);
    if (o.penetration && !broken) b.collide();
    states.forEach((_, r) => {
      const s = b.getRobot(r);
      out.q[r].push(broken ? s.q.map(() => NaN) : s.q);
      out.v[r].push(broken ? s.v.map(() => NaN) : s.v);
      if (o.penetration) {
        // the deepest active point (Infinity: none), as MuJoCo's min over its contacts' dist
        out.mindist[r].push(broken ? NaN : Math.min(Infinity, ...b.contacts(r).dist));
      }
    });
  }
  return out;
}
