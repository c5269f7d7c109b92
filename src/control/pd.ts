// The built-in PD controller: every term drives one actuator toward a target over time, for
// every robot at once. A motor gets ctrl = kp·(target − ℓ) − kd·ℓ̇ with ℓ = g·q and ℓ̇ = g·q̇ its
// length and velocity; a position servo gets the target as its control.

import type { ModelDesc } from '../engine/model-desc.js';
import { coordinateLayout } from '../engine/model-desc.js';
import type { Controller, ControlIO } from './controller.js';
import type { PdTermSpec } from '../engine/controller-spec.js';
import { targetAt } from './target.js';

interface Term {
  a: number;
  motor: boolean;
  qo: number;
  vo: number;
  g: number;
  kp: number;
  kd: number;
  spec: PdTermSpec;
}

export function pdController(model: ModelDesc, terms: readonly PdTermSpec[], rate?: number): Controller {
  const { qOffset, vOffset } = coordinateLayout(model.bodies);
  const acts = model.actuators ?? [];
  const ts: Term[] = terms.map((t) => {
    const a = acts[t.actuator];
    if (!a) throw new Error(`PD term: actuator ${t.actuator} does not exist (the model has ${acts.length})`);
    if (a.tendon !== undefined)
      throw new Error(
        `PD term on ${a.name}: it pulls a tendon; a PD law here reads one joint's coordinate (drive the tendon with a position servo instead)`,
      );
    if (a.bodyTransmission !== undefined)
      throw new Error(`PD term on ${a.name}: it pulls a body onto its contacts (an adhesion); a PD law reads one joint's coordinate`);
    const j = model.bodies[a.body].joint;
    if (a.kind === 'motor' && j !== 'revolute' && j !== 'prismatic')
      throw new Error(`PD term on ${a.name}: a PD law needs a one-coordinate joint (revolute or prismatic), not ${j}`);
    if (a.kind === 'velocity') throw new Error(`PD term on ${a.name}: a velocity servo takes no position target`);
    if (a.kind === 'general') throw new Error(`PD term on ${a.name}: a general actuator's control has no fixed meaning for a PD law`);
    return {
      a: t.actuator,
      motor: a.kind === 'motor',
      qo: qOffset[a.body],
      vo: vOffset[a.body],
      g: a.gear[0],
      kp: t.kp,
      kd: t.kd,
      spec: t,
    };
  });
  return {
    rate,
    update(io: ControlIO) {
      const { q, v, ctrl, stride, copies } = io;
      for (const t of ts) {
        const target = targetAt(t.spec.target, io.time);
        const c = t.a * stride;
        if (!t.motor) {
          ctrl.fill(target, c, c + copies);
          continue;
        }
        const qi = t.qo * stride;
        const vi = t.vo * stride;
        for (let r = 0; r < copies; r++) ctrl[c + r] = t.kp * (target - t.g * q[qi + r]) - t.kd * (t.g * v[vi + r]);
      }
    },
  };
}
