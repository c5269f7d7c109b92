// MuJoCo's sensordata of an imported MJCF model (engine_sensor.c: mj_sensorPos, mj_sensorVel and the
// acceleration stage). The engine evaluates every sensor but force, torque and touch itself, in SIMD
// over a block's lanes (native sensors/mjcf_sensors.hpp, in sense(): SensorInputs.native); this module
// takes those values, computes force, torque and touch from the contact solve, and keeps the whole
// evaluation in double as the twin the native pass is checked against (and Python's _sensors.py).
// The maths, from the engine's evaluation of one state (Batch.sensorInputs: the native sense(), which
// runs what mj_forward runs): its link poses and velocities, q, v and the
// actuator forces. Each object a sensor reads is a frame (p, Q) fixed in a link L (model-desc.ts
// SensorFrameDesc), so with the link's pose (x_L, R_L) and velocity [ω; v] in its own axes:
//
//   xpos = x_L + R_L·p          xmat = R_L·R(Q)          xquat = Q_L ⊗ Q
//   ω_W = R_L·ω                 v_W = R_L·(v + ω × p)    (mj_objectVelocity at the object's origin)
//   gyro = R(Q)ᵀ·ω              velocimeter = R(Q)ᵀ·(v + ω × p)      (the site's own axes)
//
// With a reference frame (x_r, R_r, ω_r, v_r): framepos R_rᵀ(x − x_r), an axis R_rᵀ·a, framequat
// Q_r⁻¹ ⊗ Q, frameangvel R_rᵀ(ω − ω_r), framelinvel R_rᵀ(v − v_r + (x − x_r) × ω_r).
//
// Q_L is composed along the tree as MuJoCo's mj_kinematics composes xquat (parent ⊗ body quat ⊗ each
// joint's rotation, normalised), not read back from R_L: a quaternion's sign is MuJoCo's only so.
// subtreecom = Σ m·xipos / Σ m over the body's subtree. A 'real' sensor with cutoff c > 0 is clamped
// to [−c, c] (apply_cutoff). Noise is metadata: MuJoCo 3.14 adds none.

import type { Real } from './api.js';
import { coordinateLayout, type BodyDesc, type ModelDesc, type MjcfSensorDesc, type Quat, type SensorFrameDesc } from './model-desc.js';
import { quatMul } from './math.js';
import type { ContactPoints } from './native.js';

/** The planted bug of the host's evaluation (the mjcf-sensors stage must catch it; the engine's own
 *  sensors have theirs in native/include/achilles/bugs.hpp, Mjcf*). */
export type MjcfSensorBug = 'mjcf-sensor-touch-zone-ignored';

/** What one state's evaluation gives the sensors: views [k * stride + r] as the batch lays them out. */
export interface SensorInputs {
  stride: number;
  q: ArrayLike<number>;
  v: ArrayLike<number>;
  /** Per link: world position (3), R_WL row-major (9), velocity [ω; v] in the link's axes (6), centre of mass (3). */
  bodyPos: ArrayLike<number>;
  bodyRot: ArrayLike<number>;
  bodyVel: ArrayLike<number>;
  xipos: ArrayLike<number>;
  /** Each actuator's actuator_force at the state. */
  actuatorForce: ArrayLike<number>;
  /** Per link: spatial acceleration [α; a] in the link's axes, gravity entered as −g at the base
   *  (MuJoCo's cacc convention); accelerometer, force and torque read it. */
  bodyAcc?: ArrayLike<number>;
  /** Per link: the contact wrench [torque; force], world axes, about the centre of mass of its tree
   *  (MuJoCo's cfrc_ext of mj_rnePostConstraint); force and torque read it. */
  cfrcExt?: ArrayLike<number>;
  /** Robot r's contact points with their forces at the state (Batch.contacts after the solve); touch reads them. */
  contacts?: (r: number) => ContactPoints;
  /** The engine's own sensordata of the state (sense(): native sensors/mjcf_sensors.hpp, [k * stride + r]),
   *  every sensor but force, torque and touch, which read the contact solve's data and are computed here. */
  native?: ArrayLike<number>;
}

/** The sensors the engine evaluates itself (the rest read the contact solve's data: computed here). */
export const NATIVE_SENSOR = (type: string): boolean => type !== 'force' && type !== 'torque' && type !== 'touch';

type V3 = [number, number, number];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const add3 = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub3 = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
/** R·x and Rᵀ·x, R row-major. */
const mul = (R: readonly number[], x: V3): V3 => [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2]) as V3;
const mulT = (R: readonly number[], x: V3): V3 => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]) as V3;
const matMul = (A: readonly number[], B: readonly number[]): number[] =>
  Array.from({ length: 9 }, (_, k) => {
    const r = Math.floor(k / 3);
    const c = k % 3;
    return A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
  });
/** mju_quat2Mat of a unit quaternion. */
function quatToMat(q: Quat): number[] {
  const [w, x, y, z] = q;
  return [
    w * w + x * x - y * y - z * z,
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    w * w - x * x + y * y - z * z,
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    w * w - x * x - y * y + z * z,
  ];
}
const normalize4 = (q: Quat): Quat => {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
};
const IDENTITY9 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Each link's world orientation as MuJoCo's xquat of robot r: parent ⊗ the link's fixed quat ⊗ the
 *  joint's rotation (hinge: [cos(q/2), sin(q/2)·axis]; ball, free: the normalised qpos quaternion). */
export function linkQuats(bodies: BodyDesc[], q: ArrayLike<number>, stride: number, r: number): Quat[] {
  const { qOffset } = coordinateLayout(bodies);
  const at = (k: number): number => q[k * stride + r];
  const out: Quat[] = [];
  bodies.forEach((b, i) => {
    let Q: Quat = b.parent < 0 ? b.quat : quatMul(out[b.parent], b.quat);
    const o = qOffset[i];
    if (b.joint === 'revolute') {
      const h = at(o) / 2;
      const s = Math.sin(h);
      Q = quatMul(Q, [Math.cos(h), s * b.axis[0], s * b.axis[1], s * b.axis[2]]);
    } else if (b.joint === 'ball' || b.joint === 'free') {
      const k = b.joint === 'free' ? o + 3 : o;
      const j: Quat = [at(k), at(k + 1), at(k + 2), at(k + 3)];
      Q = quatMul(Q, normalize4(j));
    }
    out.push(normalize4(Q));
  });
  return out;
}

/** Robot r's sensordata (nsensordata values, MuJoCo's order) into out[0 ..). */
export function mjcfSensorData(model: ModelDesc, inp: SensorInputs, r: number, out: Float64Array, bug?: MjcfSensorBug): void {
  const sensors = model.mjcfSensors ?? [];
  if (sensors.length === 0) return;
  if (model.mjcfSensorsDisabled) {
    out.fill(0, 0, sensorDataSize(model)); // mjDSBL_SENSOR: MuJoCo computes none
    return;
  }
  const S = inp.stride;
  const row = (a: ArrayLike<number>, l: number, k: number): number[] => Array.from({ length: k }, (_, e) => a[(l * k + e) * S + r]);
  const quats = linkQuats(model.bodies, inp.q, S, r);
  /** The frame's world pose, orientation and velocity [ω; v] (world axes, at its origin). */
  const frame = (f: SensorFrameDesc) => {
    const local = quatToMat(f.quat);
    if (f.link < 0)
      return { x: [...f.pos] as V3, R: local, Q: f.quat, w: [0, 0, 0] as V3, v: [0, 0, 0] as V3, wL: [0, 0, 0] as V3, vL: [0, 0, 0] as V3 };
    const RL = row(inp.bodyRot, f.link, 9);
    const vel = row(inp.bodyVel, f.link, 6);
    const wL = vel.slice(0, 3) as V3;
    const vL = add3(vel.slice(3, 6) as V3, cross(wL, f.pos)); // the origin's velocity, link axes
    return {
      x: add3(row(inp.bodyPos, f.link, 3) as V3, mul(RL, f.pos)),
      R: matMul(RL, local),
      Q: quatMul(quats[f.link], f.quat),
      w: mul(RL, wL),
      v: mul(RL, vL),
      wL,
      vL,
    };
  };
  for (const s of sensors) {
    if (inp.native && NATIVE_SENSOR(s.type)) {
      for (let k = 0; k < s.dim; k++) out[s.adr + k] = inp.native[(s.adr + k) * S + r];
      continue; // the engine's value (cutoff applied there)
    }
    const put = (vals: readonly number[]): void => vals.forEach((x, k) => (out[s.adr + k] = x));
    switch (s.type) {
      case 'jointpos':
      case 'actuatorpos':
        put([s.terms!.reduce((sum, t) => sum + t.coef * inp.q[t.index * S + r], 0)]);
        break;
      case 'jointvel':
      case 'actuatorvel':
        put([s.terms!.reduce((sum, t) => sum + t.coef * inp.v[t.index * S + r], 0)]);
        break;
      case 'actuatorfrc':
        put([inp.actuatorForce[s.actuator! * S + r]]);
        break;
      case 'subtreecom': {
        const links = s.links!;
        let m = 0;
        let c: V3 = [0, 0, 0];
        for (const l of links) {
          const ml = model.bodies[l].mass;
          const x = row(inp.xipos, l, 3);
          m += ml;
          c = [c[0] + ml * x[0], c[1] + ml * x[1], c[2] + ml * x[2]];
        }
        put([c[0] / m, c[1] / m, c[2] / m]);
        break;
      }
      case 'gyro':
      case 'velocimeter': {
        const o = frame(s.obj!);
        const local = quatToMat(s.obj!.quat);
        if (s.type === 'gyro') put(mulT(local, o.wL));
        else put(mulT(local, o.vL));
        break;
      }
      case 'accelerometer': {
        // mj_objectAcceleration at the site, its axes: the spatial acceleration moved to the site,
        // plus ω × v (the classical acceleration); a body welded to the world reads 0
        const f = s.obj!;
        if (welded(model.bodies, f.link)) {
          put([0, 0, 0]);
          break;
        }
        const acc = row(inp.bodyAcc!, f.link, 6);
        const vel = row(inp.bodyVel, f.link, 6);
        const w = vel.slice(0, 3) as V3;
        const vp = add3(vel.slice(3, 6) as V3, cross(w, f.pos));
        const spatial = add3(acc.slice(3, 6) as V3, cross(acc.slice(0, 3) as V3, f.pos));
        const ap = add3(spatial, cross(w, vp));
        put(mulT(quatToMat(f.quat), ap));
        break;
      }
      case 'touch': {
        // the normal forces of the site body's contacts whose ray (the normal force's direction, flipped
        // when the body is the contact's second) meets the site's zone (mju_rayGeom ≥ 0)
        const f = s.obj!;
        const site = frame(f);
        const c = inp.contacts!(r);
        let sum = 0;
        for (let k = 0; k < c.shapeA.length; k++) {
          const la = model.shapes![c.shapeA[k]].body;
          const lb = model.shapes![c.shapeB[k]].body;
          if (la !== f.link && lb !== f.link) continue;
          const fn = c.force[3 * k];
          if (!(fn > 0)) continue;
          const sign = lb === f.link ? -1 : 1;
          const ray: V3 = [sign * c.normal[3 * k], sign * c.normal[3 * k + 1], sign * c.normal[3 * k + 2]];
          const p = mulT(site.R, sub3([c.pos[3 * k], c.pos[3 * k + 1], c.pos[3 * k + 2]], site.x));
          // the planted bug: every contact of the body counted, whatever the zone
          if (bug === 'mjcf-sensor-touch-zone-ignored' || rayMeetsZone(s.zone!, p, mulT(site.R, ray))) sum += fn;
        }
        put([sum]);
        break;
      }
      case 'force':
      case 'torque': {
        const [torque, force] = interactionAtSite(model, s, inp, row);
        put(s.type === 'force' ? force : torque);
        break;
      }
      default:
        put(frameSensor(s, frame(s.obj!), s.ref ? frame(s.ref) : undefined));
    }
    if (s.cutoff > 0) {
      if (s.datatype === 'real') for (let k = 0; k < s.dim; k++) out[s.adr + k] = Math.min(s.cutoff, Math.max(-s.cutoff, out[s.adr + k]));
      else if (s.datatype === 'positive') for (let k = 0; k < s.dim; k++) out[s.adr + k] = Math.min(s.cutoff, out[s.adr + k]);
    }
  }
}

/** The interval [t0, t1] of t where the line p + t·d lies in the unit ball |x| ≤ 1 (a sphere or
 *  ellipsoid in scaled coordinates), or null when the line misses it. */
function unitSphereSpan(p: V3, d: V3): [number, number] | null {
  const a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const b = p[0] * d[0] + p[1] * d[1] + p[2] * d[2];
  const c = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] - 1;
  const disc = b * b - a * c;
  if (disc < 0 || a === 0) return null;
  const q = Math.sqrt(disc);
  return [(-b - q) / a, (-b + q) / a];
}

/** Whether the ray from p along d (both in the zone's frame) meets the zone: MuJoCo's
 *  mju_rayGeom(...) ≥ 0, which a point inside the zone always meets. Each shape is convex (a capsule
 *  the union of its cylinder and end spheres), so the ray meets it when the span of t where the line
 *  is inside reaches t ≥ 0. */
function rayMeetsZone(zone: NonNullable<MjcfSensorDesc['zone']>, p: V3, d: V3): boolean {
  const [s0, s1, s2] = zone.size;
  const forward = (span: [number, number] | null): boolean => span !== null && span[1] >= 0 && span[0] <= span[1];
  /** The slab |x_k| ≤ h along axis k, intersected with span. */
  const slab = (span: [number, number] | null, k: number, h: number): [number, number] | null => {
    if (!span) return null;
    if (d[k] === 0) return Math.abs(p[k]) <= h ? span : null;
    const a = (-h - p[k]) / d[k];
    const b = (h - p[k]) / d[k];
    return [Math.max(span[0], Math.min(a, b)), Math.min(span[1], Math.max(a, b))];
  };
  const scaled = (r: V3, c: V3 = [0, 0, 0]): [number, number] | null =>
    unitSphereSpan([(p[0] - c[0]) / r[0], (p[1] - c[1]) / r[1], (p[2] - c[2]) / r[2]], [d[0] / r[0], d[1] / r[1], d[2] / r[2]]);
  /** Inside the infinite cylinder x² + y² ≤ r² (all t when the ray runs along z inside it). */
  const tube = (r: number): [number, number] | null => {
    if (d[0] === 0 && d[1] === 0) return p[0] * p[0] + p[1] * p[1] <= r * r ? [-Infinity, Infinity] : null;
    return unitSphereSpan([p[0] / r, p[1] / r, 0], [d[0] / r, d[1] / r, 0]);
  };
  switch (zone.type) {
    case 'sphere':
      return forward(scaled([s0, s0, s0]));
    case 'ellipsoid':
      return forward(scaled([s0, s1, s2]));
    case 'box':
      return forward(slab(slab(slab([-Infinity, Infinity], 0, s0), 1, s1), 2, s2));
    case 'cylinder':
      return forward(slab(tube(s0), 2, s1));
    case 'capsule':
      return forward(slab(tube(s0), 2, s1)) || forward(scaled([s0, s0, s0], [0, 0, s1])) || forward(scaled([s0, s0, s0], [0, 0, -s1]));
  }
}

/** Whether link l (−1: the world) has no degree of freedom between it and the world (MuJoCo's
 *  body_dofnum of its weld body is 0). */
function welded(bodies: BodyDesc[], l: number): boolean {
  for (; l >= 0; l = bodies[l].parent) if (bodies[l].joint !== 'fixed') return false;
  return true;
}

/** MuJoCo's cfrc_int of the site's body moved to the site, in its axes ([torque, force]): the
 *  subtree's inertial forces f = I·a + v ×* I·v (each link about its origin, its axes: F = m(a + α×c),
 *  τ = I_c·α + c × F + ω × L + v × p with p = m(v + ω×c), L = I_c·ω + c × p, and F += ω × p) less
 *  their contact wrenches (mj_rnePostConstraint), all moved to the site point. */
function interactionAtSite(
  model: ModelDesc,
  s: MjcfSensorDesc,
  inp: SensorInputs,
  row: (a: ArrayLike<number>, l: number, k: number) => number[],
): [V3, V3] {
  const f = s.obj!;
  const RL = row(inp.bodyRot, f.link, 9);
  const ps = add3(row(inp.bodyPos, f.link, 3) as V3, mul(RL, f.pos)); // the site, world
  let F: V3 = [0, 0, 0];
  let T: V3 = [0, 0, 0];
  for (const l of s.links!) {
    const b = model.bodies[l];
    if (b.mass === 0) continue;
    const m = b.mass;
    const c = b.com as V3;
    const [ixx, iyy, izz, ixy, ixz, iyz] = b.inertia;
    const Ic = (x: V3): V3 => [
      ixx * x[0] + ixy * x[1] + ixz * x[2],
      ixy * x[0] + iyy * x[1] + iyz * x[2],
      ixz * x[0] + iyz * x[1] + izz * x[2],
    ];
    const acc = row(inp.bodyAcc!, l, 6);
    const vel = row(inp.bodyVel, l, 6);
    const al = acc.slice(0, 3) as V3;
    const w = vel.slice(0, 3) as V3;
    const v = vel.slice(3, 6) as V3;
    const Fi = ((x: V3): V3 => [m * x[0], m * x[1], m * x[2]])(add3(acc.slice(3, 6) as V3, cross(al, c)));
    const p = ((x: V3): V3 => [m * x[0], m * x[1], m * x[2]])(add3(v, cross(w, c)));
    const L = add3(Ic(w), cross(c, p));
    const tau = add3(add3(add3(Ic(al), cross(c, Fi)), cross(w, L)), cross(v, p));
    const force = add3(Fi, cross(w, p));
    const R = row(inp.bodyRot, l, 9);
    const Fw = mul(R, force);
    F = add3(F, Fw);
    T = add3(T, add3(mul(R, tau), cross(sub3(row(inp.bodyPos, l, 3) as V3, ps), Fw)));
  }
  // the contact wrenches, about the tree's subtree centre of mass c
  let mt = 0;
  let ct: V3 = [0, 0, 0];
  for (const l of s.treeLinks!) {
    const ml = model.bodies[l].mass;
    const x = row(inp.xipos, l, 3);
    mt += ml;
    ct = [ct[0] + ml * x[0], ct[1] + ml * x[1], ct[2] + ml * x[2]];
  }
  ct = [ct[0] / mt, ct[1] / mt, ct[2] / mt];
  for (const l of s.links!) {
    const e = row(inp.cfrcExt!, l, 6);
    const Fe = e.slice(3, 6) as V3;
    F = sub3(F, Fe);
    T = sub3(T, add3(e.slice(0, 3) as V3, cross(sub3(ct, ps), Fe)));
  }
  const Rs = matMul(RL, quatToMat(f.quat));
  return [mulT(Rs, T), mulT(Rs, F)];
}

interface Frame {
  x: V3;
  R: number[];
  Q: Quat;
  w: V3;
  v: V3;
}

/** framepos, framequat, frame?axis, framelinvel, frameangvel of object o, in the world or in ref's frame. */
function frameSensor(s: MjcfSensorDesc, o: Frame, ref: Frame | undefined): number[] {
  const Rr = ref?.R ?? IDENTITY9;
  switch (s.type) {
    case 'framepos':
      return ref ? mulT(Rr, sub3(o.x, ref.x)) : o.x;
    case 'framequat':
      return ref ? quatMul([ref.Q[0], -ref.Q[1], -ref.Q[2], -ref.Q[3]], o.Q) : o.Q;
    case 'framexaxis':
    case 'frameyaxis':
    case 'framezaxis': {
      const c = s.type === 'framexaxis' ? 0 : s.type === 'frameyaxis' ? 1 : 2;
      const axis: V3 = [o.R[c], o.R[3 + c], o.R[6 + c]];
      return ref ? mulT(Rr, axis) : axis;
    }
    case 'frameangvel':
      return ref ? mulT(Rr, sub3(o.w, ref.w)) : o.w;
    case 'framelinvel':
      return ref ? mulT(Rr, add3(sub3(o.v, ref.v), cross(sub3(o.x, ref.x), ref.w))) : o.v;
  }
  throw new Error(`mjcf-sensors: no evaluation for sensor type ${s.type}`);
}

/** Whether the model has force or torque sensors (they need the contact wrenches: a record batch). */
export function needsContactWrenches(model: ModelDesc): boolean {
  return (model.mjcfSensors ?? []).some((s) => s.type === 'force' || s.type === 'torque');
}

/** Whether the model has touch sensors (they read the contact points and their forces). */
export function needsContacts(model: ModelDesc): boolean {
  return (model.mjcfSensors ?? []).some((s) => s.type === 'touch');
}

/** nsensordata: the values of all the model's sensors. */
export function sensorDataSize(model: ModelDesc): number {
  const s = model.mjcfSensors ?? [];
  return s.length ? s[s.length - 1].adr + s[s.length - 1].dim : 0;
}

export type { MjcfSensorDesc };
