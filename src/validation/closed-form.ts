// Recognizes a planar double compound pendulum in a model (two revolute joints about X, links and
// CoMs along +Y) and reads the parameters of double-pendulum-exact.ts from it.

import type { ModelDesc } from '../engine/model-desc.js';
import type { DoublePendulumParams } from './double-pendulum-exact.js';

const isX = (a: readonly number[]) => a[0] === 1 && a[1] === 0 && a[2] === 0;
const isIdentity = (q: readonly number[]) => q[0] === 1 && q[1] === 0 && q[2] === 0 && q[3] === 0;

export function doublePendulumParams(model: ModelDesc): DoublePendulumParams | null {
  const [a, b] = model.bodies;
  if (model.bodies.length !== 2 || a.joint !== 'revolute' || b.joint !== 'revolute' || b.parent !== 0 || a.parent !== -1) return null;
  if (!isX(a.axis) || !isX(b.axis) || !isIdentity(a.quat) || !isIdentity(b.quat)) return null;
  if (a.pos.some((x) => x !== 0) || b.pos[0] !== 0 || b.pos[2] !== 0) return null;
  if (a.com[0] !== 0 || a.com[2] !== 0 || b.com[0] !== 0 || b.com[2] !== 0) return null;
  // Inertia about the pivot axis X: the CoM value plus the parallel-axis term m·r².
  return {
    m1: a.mass,
    r1: a.com[1],
    I1: a.inertia[0] + a.mass * a.com[1] ** 2,
    m2: b.mass,
    r2: b.com[1],
    I2: b.inertia[0] + b.mass * b.com[1] ** 2,
    l1: b.pos[1],
    gy: model.world.gravity[1],
    gz: model.world.gravity[2],
  };
}
