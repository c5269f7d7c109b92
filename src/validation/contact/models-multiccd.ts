// The contact stage's model of multiccd contacts (MuJoCo 3.14's mjc_Convex: after the first contact,
// both geoms tilted ±1e-3 rad about the two tangent axes and the query rerun; up to 5 contacts, each
// with the normal of its own re-run): cylinders on a static box and a capsule on a cylinder.
//   contact-multiccd  a can standing on a table (cylinder–box, its disc on the top face: rim points),
//                     a drum lying on it (cylinder–box along a line), both with a margin (at zero
//                     margin MuJoCo clips two faceted geoms' faces instead: models-cylinder.ts),
//                     and a rod leaning on the drum's rim (capsule–cylinder, zero margin)
//   contact-multiccd-off  the same bodies under <flag multiccd="disable"/>, the drum and the rod at
//                     zero margin: MuJoCo then gives every mjc_Convex pair its first GJK/EPA contact
//                     only, so the drum on the table (a faceted pair at zero margin, which multiccd on
//                     would clip face against face) is collided as MuJoCo does, one point, and the can
//                     (keeping its margin: 5 points with multiccd on) gets one point too
// and their random states: each body near its contact, tilted a little, moving.

import type { ModelDesc, ShapeDesc } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';
import { freeBody, freeVelocity, shape, WORLD } from './models.js';

/** The table's top (z), the can's and drum's radius and half-length, the rod's radius and half-length. */
export const MULTICCD = { top: 0.1, can: [0.05, 0.04] as const, drum: [0.04, 0.08] as const, rod: [0.02, 0.1] as const };

/** A shape of the model: models.ts's, with its kind's sizes in `extra`. */
const base = (name: string, body: number, kind: ShapeDesc['kind'], extra: Partial<ShapeDesc>): ShapeDesc =>
  shape(name, body, kind, 0, 0, extra);

const cylinder = (name: string, body: number, r: number, h: number, extra: Partial<ShapeDesc> = {}): ShapeDesc =>
  base(name, body, 'cylinder', { halfExtents: [r, r, h], size: [r, h, 0], ...extra });

export function multiccdModel(): ModelDesc {
  const [cr, ch] = MULTICCD.can;
  const [dr, dh] = MULTICCD.drum;
  const [rr, rh] = MULTICCD.rod;
  const q0 = [0, 0, 1, 1, 0, 0, 0];
  const bodies = [
    freeBody('can', 0.4, [0.0003, 0.0003, 0.0005], q0),
    freeBody('drum', 0.5, [0.0002, 0.0012, 0.0012], q0),
    freeBody('rod', 0.2, [0.0008, 0.0008, 0.00004], q0),
  ];
  const half = MULTICCD.top / 2;
  const shapes = [
    base('floor', -1, 'plane', { friction: 0.8 }),
    base('table', -1, 'box', { halfExtents: [0.3, 0.3, half], pos: [0, 0, half], friction: 0.9 }),
    cylinder('can/cylinder', 0, cr, ch, { margin: 0.002, friction: 0.7 }),
    // the drum's axis along the world x at the identity pose
    cylinder('drum/cylinder', 1, dr, dh, { margin: 0.001, quat: [Math.SQRT1_2, 0, Math.SQRT1_2, 0], solref: [0.01, 0.8] }),
    base('rod/capsule', 2, 'capsule', { halfExtents: [0, 0, rh], radius: rr, friction: 1.1 }),
  ];
  return { name: 'contact-multiccd', bodies, world: { ...WORLD }, files: [], shapes, solver: { iterations: 20, impratio: 1 } };
}

/** multiccdModel with multiccd disabled (the same bodies, states and sizes), every margin 0 but the can's. */
export function multiccdOffModel(): ModelDesc {
  const m = multiccdModel();
  return {
    ...m,
    name: 'contact-multiccd-off',
    world: { ...m.world, multiccd: false },
    shapes: (m.shapes ?? []).map((s) => (s.name === 'can/cylinder' ? s : { ...s, margin: 0 })),
  };
}

/** Random states: the can standing on the table (tilted by up to 0.03 rad) and the drum lying on it
 *  (one end lower by 0.005 to 0.03 rad), and the rod leaning with its lower end on the drum's rim (its end cap against the circular
 *  edge: a capsule along the drum's side instead has no unique witness point, and MuJoCo's own
 *  contact moves by 1e-10 when the state moves by 1e-16), every contact between 4 mm deep and 1 mm
 *  apart; velocities that make a_ref's damping term matter. */
export function multiccdStates(n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const [cr, ch] = MULTICCD.can;
  const [dr, dh] = MULTICCD.drum;
  const [rr, rh] = MULTICCD.rod;
  const near = () => rng.uniform(-0.004, 0.001);
  // a rotation by `angle` about the horizontal axis at azimuth phi, then `yaw` about z
  const tilted = (angle: number, yaw = 0): number[] => {
    const phi = rng.uniform(-Math.PI, Math.PI);
    const t = [Math.cos(angle / 2), Math.sin(angle / 2) * Math.cos(phi), Math.sin(angle / 2) * Math.sin(phi), 0];
    const z = [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
    return [t[0] * z[0] - t[3] * z[3], t[1] * z[0] + t[2] * z[3], t[2] * z[0] - t[1] * z[3], t[3] * z[0] + t[0] * z[3]];
  };
  // the unit quaternion turning z onto the unit vector u
  const zTo = (u: number[]): number[] => {
    const w = 1 + u[2];
    const k = Math.hypot(w, u[1], u[0]);
    return [w / k, -u[1] / k, u[0] / k, 0];
  };
  const top = MULTICCD.top;
  return Array.from({ length: n }, () => {
    const canTilt = rng.uniform(0, 0.03);
    // the lowest rim point of a tilted can is r·sin(tilt) below the disc's centre
    const can = [
      0.15,
      rng.uniform(-0.05, 0.05),
      top + ch * Math.cos(canTilt) + cr * Math.sin(canTilt) + near(),
      ...tilted(canTilt, rng.uniform(-Math.PI, Math.PI)),
    ];
    // the drum's axis along x pitched by p (one end lower: a level drum's line of contact has no
    // unique witness point either), rolled about it
    const y = rng.uniform(-0.05, 0.05);
    const p = rng.uniform(0.005, 0.03) * (rng.next() < 0.5 ? -1 : 1);
    const dz = top + dr * Math.cos(p) + dh * Math.sin(Math.abs(p)) + near();
    const roll = rng.uniform(-Math.PI, Math.PI);
    const [cy, sy, cx, sx] = [Math.cos(p / 2), Math.sin(p / 2), Math.cos(roll / 2), Math.sin(roll / 2)];
    const drum = [-0.1, y, dz, cy * cx, cy * sx, cx * sy, -sy * sx];
    // the rod's end-cap centre off the +x rim at angle a from the top, along sin b·axis + cos b·radial;
    // the rod's axis up from it, leaning away from the drum
    const axis = [Math.cos(p), 0, -Math.sin(p)];
    const a = rng.uniform(-0.4, 0.4);
    const radial = [Math.cos(a) * Math.sin(p), Math.sin(a), Math.cos(a) * Math.cos(p)];
    const b = rng.uniform(0.5, 1.1);
    const rim = [-0.1, y, dz].map((x, k) => x + dh * axis[k] + dr * radial[k]);
    const out = axis.map((x, k) => Math.sin(b) * x + Math.cos(b) * radial[k]);
    const end = rim.map((x, k) => x + (rr + near()) * out[k]);
    const lean = rng.uniform(0.2, 0.6);
    const az = rng.uniform(-0.5, 0.5);
    const u = [Math.sin(lean) * Math.cos(az), Math.sin(lean) * Math.sin(az), Math.cos(lean)];
    const rod = [...end.map((x, k) => x + rh * u[k]), ...zTo(u)];
    const v = Array.from({ length: 3 }, () => freeVelocity(rng, 0.2)).flat();
    return { q: [...can, ...drum, ...rod], v, tau: v.map(() => 0) };
  });
}
