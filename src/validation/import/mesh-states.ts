// States for the per-state contact gates of a fixture with mesh hulls on a floor: each free body
// that carries a `convex` shape turned at random and set down so that its lowest hull vertex sits
// between 3 mm below and 2 mm above the plane z = 0 (x, y within 2 cm of the initial state); each
// free body that carries none (a ball) placed against the mesh body before it, along a random
// upward direction, between 2 mm inside and 1 mm outside its support point there. Uniform random
// states (constrained.ts randomStates) would leave most bodies in the air; these touch in every
// state, shallow as resting contacts are (a plane–mesh contact takes the deepest vertex and up to
// three more of the hull face under it, analytic.hpp plane_convex: the pairs the gate compares are
// the ones a run meets).

import { coordinateLayout, type ModelDesc, type Quat, type Vec3 } from '../../engine/model-desc.js';
import { quatRotate } from '../../engine/math.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';

/** The body's shapes' hull vertices in the world when the body stands at (p, q). */
function worldHull(model: ModelDesc, body: number, p: Vec3, q: Quat): Vec3[] {
  const out: Vec3[] = [];
  for (const s of model.shapes ?? []) {
    if (s.body !== body || s.kind !== 'convex' || !s.vertices) continue;
    for (let i = 0; i < s.vertices.length; i += 3) {
      const local = quatRotate(s.quat, [s.vertices[i], s.vertices[i + 1], s.vertices[i + 2]]);
      const w = quatRotate(q, [local[0] + s.pos[0], local[1] + s.pos[1], local[2] + s.pos[2]]);
      out.push([w[0] + p[0], w[1] + p[1], w[2] + p[2]]);
    }
  }
  return out;
}

export function meshContactStates(model: ModelDesc, n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const u = (): number => 2 * rng.next() - 1;
  const { nv } = coordinateLayout(model.bodies);
  const q0 = model.bodies.flatMap((b) => b.q0);
  return Array.from({ length: n }, () => {
    const q = [...q0];
    let last: Vec3[] = [];
    let at = 0;
    model.bodies.forEach((b, i) => {
      if (b.joint !== 'free') {
        at += b.q0.length;
        return;
      }
      const hull = worldHull(model, i, [0, 0, 0], [1, 0, 0, 0]);
      if (hull.length) {
        const r = [u(), u(), u(), u()];
        const k = Math.hypot(...r) || 1;
        const quat = r.map((x) => x / k) as Quat;
        const low = Math.min(...worldHull(model, i, [0, 0, 0], quat).map((v) => v[2]));
        const p: Vec3 = [q0[at] + 0.02 * u(), q0[at + 1] + 0.02 * u(), -low + 0.0025 * u() - 0.0005];
        q.splice(at, 7, ...p, ...quat);
        last = worldHull(model, i, p, quat);
      } else if (last.length) {
        const radius = Math.max(0, ...(model.shapes ?? []).filter((s) => s.body === i).map((s) => s.radius));
        const d: Vec3 = [u(), u(), 0.4 + 0.6 * rng.next()];
        const len = Math.hypot(...d);
        const dir = d.map((x) => x / len) as Vec3;
        const sup = last.reduce((a, v) =>
          v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2] > a[0] * dir[0] + a[1] * dir[1] + a[2] * dir[2] ? v : a,
        );
        const gap = radius + 0.0015 * u() - 0.0005;
        q.splice(at, 3, ...sup.map((x, k) => x + gap * dir[k]));
      }
      at += 7;
    });
    return { q, v: Array.from({ length: nv }, () => 0.5 * u()), tau: Array.from({ length: nv }, () => 0.2 * u()) };
  });
}
