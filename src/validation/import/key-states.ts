// States for the per-state contact gates of a fixture whose keyframe sets its bodies on a floor
// (mjcf-contact-priority.xml: priority, solmix, margin and gap): the keyframe's pose with each free
// body moved by up to ±2.5 mm vertically and ±1 cm horizontally, its orientation kept, and random
// velocities (±0.5 m/s, rad/s) and forces (±0.2). Uniform random states (constrained.ts
// randomStates) would leave most bodies in the air; these keep every pair where the keyframe puts
// it, resting, sliding, or a few mm up inside its gap, and move a contact in and out of its margin
// (the gap's rows) from state to state.

import { coordinateLayout, type ModelDesc } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';

/** How far a free body moves from the keyframe (m): vertically, horizontally. */
const KEY_DZ = 0.0025;
const KEY_DXY = 0.01;

export function keyContactStates(model: ModelDesc, n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const u = (): number => 2 * rng.next() - 1;
  const { nv } = coordinateLayout(model.bodies);
  const q0 = model.bodies.flatMap((b) => b.q0);
  return Array.from({ length: n }, () => {
    const q = [...q0];
    let at = 0;
    for (const b of model.bodies) {
      if (b.joint === 'free') {
        q[at] += KEY_DXY * u();
        q[at + 1] += KEY_DXY * u();
        q[at + 2] += KEY_DZ * u();
      }
      at += b.q0.length;
    }
    return { q, v: Array.from({ length: nv }, () => 0.5 * u()), tau: Array.from({ length: nv }, () => 0.2 * u()) };
  });
}
