// ModelDesc → MuJoCo MJCF that reproduces the model exactly: same bodies, frames, inertias and
// joint order, so MuJoCo's qpos/qvel layout equals the engine's q/v layout (per copy).
// No contacts, limits, damping or armature. Initial state goes in keyframe "initial"; the
// constant generalized forces in <custom><numeric name="achilles_tau"> (set them as
// data.qfrc_applied: MJCF has no static generalized force). One MuJoCo step = one engine substep.

import { planarFrame, type BodyDesc, type ModelDesc, type Vec3 } from '../engine/model-desc.js';

export type MjIntegrator = 'Euler' | 'RK4' | 'implicit' | 'implicitfast';

export interface MjcfOptions {
  /** Default: Euler, or RK4 when the scene says rk4 (MuJoCo has no verlet/midpoint). */
  integrator?: MjIntegrator;
  /** Replicate the robot N times under worldbody (robot-major qpos/qvel); names get `_k`. Default 1. */
  copies?: number;
}

/** Shortest round-trip decimal: exact when parsed back as a double. */
const num = (x: number): string => (Object.is(x, -0) ? '0' : String(x));
const nums = (xs: readonly number[]): string => xs.map(num).join(' ');
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function exportMjcf(model: ModelDesc, opts: MjcfOptions = {}): string {
  const copies = opts.copies ?? 1;
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be an integer >= 1, got ${copies}`);
  const integrator = opts.integrator ?? (model.world.integrator === 'rk4' ? 'RK4' : 'Euler');
  const w = model.world;
  const children: number[][] = model.bodies.map(() => []);
  const roots: number[] = [];
  model.bodies.forEach((b, i) => (b.parent < 0 ? roots : children[b.parent]).push(i));

  const out: string[] = [];
  out.push(`<mujoco model="${esc(model.name)}">`);
  out.push('  <compiler angle="radian" inertiafromgeom="false" autolimits="true"/>');
  out.push(`  <option timestep="${num(w.dt / w.substeps)}" gravity="${nums(w.gravity)}" integrator="${integrator}">`);
  out.push('    <flag contact="disable"/>');
  out.push('  </option>');
  out.push('  <worldbody>');
  for (let k = 0; k < copies; k++) {
    const sfx = copies === 1 ? '' : `_${k}`;
    const emit = (i: number, depth: number): void => {
      const b = model.bodies[i];
      const pad = '  '.repeat(depth);
      out.push(`${pad}<body name="${esc(b.name + sfx)}" pos="${nums(b.pos)}" quat="${nums(b.quat)}">`);
      out.push(`${pad}  <inertial pos="${nums(b.com)}" mass="${num(b.mass)}" fullinertia="${nums(b.inertia)}"/>`);
      for (const j of jointXml(b, sfx)) out.push(`${pad}  ${j}`);
      if (b.visual && b.visual.halfExtents.every((h) => h > 0)) {
        out.push(`${pad}  <geom type="box" pos="${nums(b.com)}" size="${nums(b.visual.halfExtents)}" rgba="${nums(b.visual.color)} 1" contype="0" conaffinity="0" mass="0"/>`);
      }
      for (const c of children[i]) emit(c, depth + 1);
      out.push(`${pad}</body>`);
    };
    for (const r of roots) emit(r, 2);
  }
  out.push('  </worldbody>');
  const rep = (f: (b: BodyDesc) => number[]): string => nums(Array.from({ length: copies }, () => model.bodies.flatMap(f)).flat());
  // Only when some torque is non-zero: MuJoCo caps a numeric's length, and a zero torque
  // needs no record (qfrc_applied starts at zero).
  const tau = rep((b) => b.tau);
  if (model.bodies.some((b) => b.tau.some((x) => x !== 0))) {
    out.push('  <custom>');
    out.push(`    <numeric name="achilles_tau" data="${tau}"/>`);
    out.push('  </custom>');
  }
  const qpos = rep((b) => b.q0);
  const qvel = rep((b) => b.v0);
  if (qpos.length > 0) {
    out.push('  <keyframe>');
    out.push(`    <key name="initial" qpos="${qpos}" qvel="${qvel}"/>`);
    out.push('  </keyframe>');
  }
  out.push('</mujoco>');
  return out.join('\n') + '\n';
}

/** Joint elements in the engine's coordinate order for this body. */
function jointXml(b: BodyDesc, sfx: string): string[] {
  const n = esc(b.name + sfx);
  switch (b.joint) {
    case 'revolute':
      return [`<joint name="${n}" type="hinge" axis="${nums(b.axis)}"/>`];
    case 'prismatic':
      return [`<joint name="${n}" type="slide" axis="${nums(b.axis)}"/>`];
    case 'ball':
      return [`<joint name="${n}" type="ball"/>`];
    case 'free':
      return [`<freejoint name="${n}"/>`];
    case 'planar': {
      // X_J = Trans(x·u + y·w)·Rot(n, θ): MuJoCo applies a body's joints in order, slides before the hinge.
      const { u, w } = planarFrame(b.axis as Vec3);
      return [
        `<joint name="${n}_x" type="slide" axis="${nums(u)}"/>`,
        `<joint name="${n}_y" type="slide" axis="${nums(w)}"/>`,
        `<joint name="${n}_theta" type="hinge" axis="${nums(b.axis)}"/>`,
      ];
    }
    case 'fixed':
      return [];
  }
}
