// States for the per-state gates of a fixture whose bodies rest on each other (the noslip fixtures):
// the fixture's initial state (its keyframe: every body set down in contact) moved a little, so that
// every state has its contacts and friction rows, each state with its own mix of sliding and
// sticking. A free body is shifted up to 3 mm along x and y and 0.5 mm along z (into or out of its
// support by about its resting depth) and turned up to about 0.6 degrees; a hinge or slide moved up
// to 0.2; velocities up to 0.5 (sliding) in the even states and 0.02 (about sticking) in the odd
// ones; applied forces up to 0.2. Uniform random states (constrained.ts randomStates) leave most
// bodies in the air, where noslip has nothing to do.

import { coordinateLayout, type ModelDesc } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';

export function restingStates(model: ModelDesc, n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const u = (): number => 2 * rng.next() - 1;
  const { nv } = coordinateLayout(model.bodies);
  return Array.from({ length: n }, (_, i) => {
    const q = model.bodies.flatMap((b) => {
      if (b.joint === 'free') {
        const [x, y, z, ...quat] = b.q0;
        const r = quat.map((c) => c + 0.005 * u());
        const k = Math.hypot(...r) || 1;
        return [x + 0.003 * u(), y + 0.003 * u(), z + 0.0005 * u(), ...r.map((c) => c / k)];
      }
      if (b.joint === 'revolute' || b.joint === 'prismatic') return [b.q0[0] + 0.2 * u()];
      return [...b.q0];
    });
    const speed = i % 2 === 0 ? 0.5 : 0.02;
    return { q, v: Array.from({ length: nv }, () => speed * u()), tau: Array.from({ length: nv }, () => 0.2 * u()) };
  });
}
