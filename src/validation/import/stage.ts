// The import stage: each fixture under test/fixtures/import/ imported by Achilles against MuJoCo
// compiling the same file (validation/mujoco_import.py): body masses, centres of mass and inertias,
// the vertex sets of mesh hulls (MJCF), body poses at the initial configuration and at random states, and joint accelerations at random
// states in free space (compared in force space, see forceResidual), all in f64 to IMPORT_BAR relative: MuJoCo's
// constraints (limits, frictionloss, contacts) are switched off in the reference; its passive forces
// (damping, stiffness, fluid), actuation (controls 0) and armature are on (validation/mujoco_import.py). Fixtures with fixed tendons (and those with a trajectory gate) are compared
// with constraints ON as well, per state and over a short run, in f64 and f32 (constrained.ts).
// The planted importer bugs (src/model-files/import/bugs.ts) must each fail a gate here.

import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Batch } from '../../engine/batch.js';
import { coordinateLayout, type ModelDesc, type Vec3 } from '../../engine/model-desc.js';
import { packageRoot, type NativeAddon } from '../../engine/native.js';
import { importFile, type BodyMap } from '../../model-files/import/index.js';

import type { Precision } from '../../engine/api.js';
import { relErr } from '../metrics.js';
import { quatRotate } from '../../engine/math.js';
import { constrainedFixtureReference, constrainedRows, type ConstrainedFixtureRef } from './constrained.js';
import { HULL_BAR_ULPS, hullUlps } from './hull-gate.js';
import { runPythonJson } from '../mujoco-ref.js';
import { Rng, seedFor } from '../rng.js';
import type { CheckRow } from '../types.js';
import { fileURLToPath } from 'node:url';

/** f64 to 1e-12 relative: the import does the compiler's arithmetic in a different order (full
 *  tensors instead of principal axes, chains of links instead of multi-joint bodies), which moves
 *  results by a few double ulps times the model's conditioning; a real mistake (a wrong angle unit,
 *  a swapped rotation order, a length off by two) moves them by 1e-3 or more. */
export const IMPORT_BAR = 1e-12;

export const FIXTURE_DIR = join(packageRoot, 'test', 'fixtures', 'import');
const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_import.py', import.meta.url));

export interface ImportState {
  qpos: number[];
  qvel: number[];
  tau: number[];
}

interface MujocoCompiled {
  bodies: string[];
  mass: number[];
  ipos: number[][];
  inertia: number[][];
  joints: string[];
  nq: number;
  nv: number;
  qpos0: number[];
  /** Each mesh geom's hull vertices (geom order), in its geom frame, and placed in its body's frame. */
  hulls: number[][];
  placed_hulls: number[][];
  states: { xpos: number[][]; xmat: number[][]; qacc: number[]; qM: number[][]; qfrc_bias: number[] }[];
}

export interface ImportFixtureRef {
  name: string;
  path: string;
  states: ImportState[];
  mj: MujocoCompiled;
}

export interface ImportReference {
  fixtures: ImportFixtureRef[];
  /** Fixtures with tendons or a trajectory gate, constraints on (constrained.ts). */
  constrained: ConstrainedFixtureRef[];
}

/** The fixtures the stage compares (every .xml and .urdf directly under test/fixtures/import/). */
export function importFixtures(): { name: string; path: string }[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => /\.(xml|urdf)$/.test(f))
    .sort()
    .map((f) => ({ name: `import:${basename(f)}`, path: join(FIXTURE_DIR, f) }));
}

/** Random states in the model's layout: state 0 is MuJoCo's qpos0 at rest (the initial configuration). */
function statesFor(model: ModelDesc, qpos0: number[], n: number, seed: number, name: string): ImportState[] {
  const rng = new Rng(seedFor(seed, `import/${name}`));
  const { nv } = coordinateLayout(model.bodies);
  const out: ImportState[] = [{ qpos: [...qpos0], qvel: new Array(nv).fill(0), tau: new Array(nv).fill(0) }];
  const u = (): number => 2 * rng.next() - 1;
  const unitQuat = (): number[] => {
    const q = [u(), u(), u(), u()];
    const k = Math.hypot(...q) || 1;
    return q.map((x) => x / k);
  };
  for (let s = 1; s < n; s++) {
    const qpos: number[] = [];
    for (const b of model.bodies) {
      if (b.joint === 'revolute' || b.joint === 'prismatic') qpos.push(2 * u());
      else if (b.joint === 'ball') qpos.push(...unitQuat());
      else if (b.joint === 'free') qpos.push(u(), u(), u(), ...unitQuat());
      else if (b.joint === 'planar') qpos.push(u(), u(), 2 * u());
    }
    out.push({ qpos, qvel: Array.from({ length: nv }, () => 2 * u()), tau: Array.from({ length: nv }, () => u()) });
  }
  return out;
}

/** MuJoCo's compile of every fixture (one Python process), at `n` states each. */
export async function importReference(python: string, seed: number, n: number, only?: ReadonlySet<string>): Promise<ImportReference> {
  const fixtures = importFixtures()
    .filter((f) => !only || only.has(f.name))
    .map((f) => {
      const imp = importFile(f.path);
      return { ...f, model: imp.model };
    });
  // qpos0 first, so the random states know the free bodies' layout; one process answers all.
  // The constrained fixtures' references overlap with the compile below (one fixture at a time: each
  // runs a few Python processes of its own).
  const constrained = (async () => {
    const out: ConstrainedFixtureRef[] = [];
    for (const f of fixtures) {
      const c = await constrainedFixtureReference(python, seed, f);
      if (c) out.push(c);
    }
    return out;
  })();
  constrained.catch(() => undefined);
  const first = (await runPythonJson(
    python,
    SCRIPT,
    { models: fixtures.map((f) => ({ path: f.path, states: [] })) },
    fixtures.length,
  )) as MujocoCompiled[];
  const withStates = fixtures.map((f, i) => ({ ...f, states: statesFor(f.model, first[i].qpos0, n, seed, f.name) }));
  const mj = (await runPythonJson(
    python,
    SCRIPT,
    { models: withStates.map((f) => ({ path: f.path, states: f.states })) },
    fixtures.length,
  )) as MujocoCompiled[];
  return {
    fixtures: withStates.map((f, i) => ({ name: f.name, path: f.path, states: f.states, mj: mj[i] })),
    constrained: await constrained,
  };
}

/** The import gates, with the importer as it is now (a planted bug may be set) and `addon`'s engine:
 *  the compile gates in f64 (IMPORT_BAR), the constrained gates at `precision` (constrained.ts). */
export function importRows(ref: ImportReference, addon: NativeAddon, precision: Precision = 'f64'): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const c of ref.constrained) rows.push(...constrainedRows(c, precision, addon));
  if (precision !== 'f64') return rows;
  for (const f of ref.fixtures) {
    const push = (field: string, state: number, error: number, note = '', bar = IMPORT_BAR): void => {
      rows.push({
        stage: 'import',
        model: f.name,
        precision: 'f64',
        state,
        t: undefined,
        field,
        error,
        stateFloor: NaN,
        floor: 0,
        factor: 1,
        bar,
        status: error <= bar ? 'pass' : 'fail',
        note,
      });
    };
    let imp;
    try {
      imp = importFile(f.path);
    } catch (e) {
      push('import', 0, Infinity, (e as Error).message);
      continue;
    }
    const { model, bodyMap } = imp;
    const mj = f.mj;
    const names = bodyMap.map((b) => b.name);
    const { nq, nv } = coordinateLayout(model.bodies);
    if (names.length !== mj.bodies.length || nq !== mj.nq || nv !== mj.nv) {
      push('structure', 0, Infinity, `bodies ${names.length} vs MuJoCo ${mj.bodies.length}, nq ${nq} vs ${mj.nq}, nv ${nv} vs ${mj.nv}`);
      continue;
    }
    push('structure', 0, names.every((n, i) => n === mj.bodies[i] || mj.bodies[i] === '') ? 0 : Infinity);
    bodyMap.forEach((bm, i) => {
      const L = model.bodies[bm.link];
      push('mass', i, relErr([L.mass], [mj.mass[i]]));
      push('com', i, relErr(sub(L.com, bm.offset), mj.ipos[i], Math.max(1e-3, ...mj.ipos[i].map(Math.abs))));
      push('inertia', i, relErr(L.inertia, mj.inertia[i]));
    });
    // MJCF: each mesh hull's vertex set, in float32 ulps (hull-gate.ts); URDF fuses geoms in
    // another order than MuJoCo, so its hulls are compared by test/import-mesh.test.ts alone
    if (imp.format === 'mjcf') {
      if (imp.hulls.length !== mj.hulls.length) push('hull', 0, Infinity, `${imp.hulls.length} mesh hulls vs MuJoCo ${mj.hulls.length}`);
      else imp.hulls.forEach((h, k) => push('hull', k, hullUlps(h.vert, mj.hulls[k]), `geom '${h.geom}' (float32 ulps)`, HULL_BAR_ULPS));
      // the collision shape each hull became, placed in its body's frame (the shape's pos and quat)
      if (imp.hulls.length === mj.hulls.length)
        imp.hulls.forEach((h, k) => {
          const ours = placedHull(model, bodyMap, h);
          if (ours) push('hull.placed', k, hullUlps(ours, mj.placed_hulls[k]), `geom '${h.geom}' (float32 ulps)`, HULL_BAR_ULPS);
        });
    }
    const ours = poses(model, bodyMap, f.states, addon);
    f.states.forEach((_, s) => {
      const ref = mj.states[s];
      push('xpos', s, relErr(ours.xpos[s].flat(), ref.xpos.flat(), Math.max(1, ...ref.xpos.flat().map(Math.abs))));
      push('xmat', s, relErr(ours.xmat[s].flat(), ref.xmat.flat(), 1));
      push('qacc', s, forceResidual(ours.qacc[s], ref, f.states[s].tau));
    });
  }
  return rows;
}

/** q̈ compared in force space: ‖M (q̈ − q̈_MuJoCo)‖∞ over the scale of the forces that make q̈
 *  (‖τ‖∞, ‖bias‖∞, ‖M q̈_MuJoCo‖∞), with MuJoCo's M at the state. A relative error of q̈ itself grows
 *  with the condition number of M (a humanoid's chain of massless links: κ ~ 1e4, so double round-off
 *  alone reaches 1e-12), while the force residual of a correct import stays at round-off; a wrong
 *  angle, length or inertia moves it by 1e-3 or more either way. */
function forceResidual(qacc: number[], ref: { qacc: number[]; qM: number[][]; qfrc_bias: number[] }, tau: number[]): number {
  const n = qacc.length;
  let err = 0;
  let scale = 1e-300;
  for (let i = 0; i < n; i++) {
    let d = 0;
    let f = 0;
    for (let j = 0; j < n; j++) {
      d += ref.qM[i][j] * (qacc[j] - ref.qacc[j]);
      f += ref.qM[i][j] * ref.qacc[j];
    }
    if (!Number.isFinite(d)) return Infinity;
    err = Math.max(err, Math.abs(d));
    scale = Math.max(scale, Math.abs(f), Math.abs(ref.qfrc_bias[i]), Math.abs(tau[i]));
  }
  return err / scale;
}

const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** The convex shape made of hull `h` (by its geom's name), its vertices in the body's frame (the link
 *  frame moved back by the body's offset); undefined when the mesh collides as its box (noted). */
function placedHull(model: ModelDesc, bodyMap: BodyMap[], h: { geom: string; body: number }): number[] | undefined {
  const s = (model.shapes ?? []).find((x) => x.name === h.geom && x.kind === 'convex');
  if (!s?.vertices) return undefined;
  const offset = h.body > 0 ? bodyMap[h.body - 1].offset : [0, 0, 0];
  const out: number[] = [];
  for (let i = 0; i < s.vertices.length; i += 3) {
    const v = quatRotate(s.quat, [s.vertices[i], s.vertices[i + 1], s.vertices[i + 2]]);
    for (let k = 0; k < 3; k++) out.push(s.pos[k] - offset[k] + v[k]);
  }
  return out;
}

/** Body poses (MuJoCo's body frames: each link's frame moved by its offset) and q̈ at the states. */
function poses(
  model: ModelDesc,
  bodyMap: BodyMap[],
  states: ImportState[],
  addon: NativeAddon,
): { xpos: number[][][]; xmat: number[][][]; qacc: number[][] } {
  const b = new Batch(model, { copies: states.length, precision: 'f64' }, addon);
  states.forEach((s, r) => b.setRobot(r, { q: s.qpos, v: s.qvel, tau: s.tau }));
  b.forwardUnconstrained();
  const { pos, rot } = b.kinematics();
  const col = (a: ArrayLike<number>, r: number, k: number): number => a[k * b.stride + r];
  const xpos: number[][][] = [];
  const xmat: number[][][] = [];
  const qacc: number[][] = [];
  states.forEach((_, r) => {
    const P: number[][] = [];
    const M: number[][] = [];
    for (const bm of bodyMap) {
      const p = [0, 1, 2].map((k) => col(pos, r, bm.link * 3 + k));
      const R = Array.from({ length: 9 }, (_, k) => col(rot, r, bm.link * 9 + k));
      // p_WB = p_WL + R_WL · offset
      const o = bm.offset;
      P.push([0, 1, 2].map((i) => p[i] + R[3 * i] * o[0] + R[3 * i + 1] * o[1] + R[3 * i + 2] * o[2]));
      M.push(R);
    }
    xpos.push(P);
    xmat.push(M);
    qacc.push(Array.from({ length: b.nv }, (_, k) => col(b.qacc, r, k)));
  });
  return { xpos, xmat, qacc };
}
