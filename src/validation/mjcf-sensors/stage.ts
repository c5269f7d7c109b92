// MuJoCo's sensordata (engine_sensor.c) of the MJCF sensor fixtures (test/fixtures/import/sensors/mjcf-sensors*.xml)
// per state: MuJoCo sets qpos, qvel and ctrl and runs mj_forward (validation/mujoco_sensors.py); the
// engine imports the same file, evaluates the same states (Batch.sensorInputs: sense(), as mj_forward)
// and computes sensordata from that evaluation (engine/mjcf-sensors.ts). Each fixture gives one row
// for its sensors' names, types, adr and dim (exact) and one per sensor type: the largest error over
// the states and the sensors of that type, relative to max(1, |value|).

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { mjcfSensorData, needsContactWrenches, sensorDataSize, type MjcfSensorBug } from '../../engine/mjcf-sensors.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import { packageRoot, type NativeAddon } from '../../engine/native.js';
import { importFile } from '../../model-files/import/index.js';
import { fileURLToPath } from 'node:url';
import { runPythonJson } from '../mujoco-ref.js';
import { Rng, seedFor } from '../rng.js';
import type { CheckRow } from '../types.js';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_sensors.py', import.meta.url));
// a folder of their own: the import stage compares every file directly under fixtures/import (its
// constrained gates at random states far below the floor), which these are not made for
const FIXTURE_DIR = join(packageRoot, 'test', 'fixtures', 'import', 'sensors');

/** f64: round-off (MuJoCo and the engine compose the same frames in different orders; the
 *  acceleration-stage sensors carry qacc's, about 1e-13); f32: the engine's single-precision poses and
 *  velocities (about 1e-7 relative, times the chains' lengths). */
export const SENSOR_BARS: Record<Precision, number> = { f64: 1e-9, f32: 5e-6 };
/** f32 accelerometer, force and torque: they read qacc, which a float32 constraint solve gives to
 *  about 1e-4 relative (in f64 they keep SENSOR_BARS.f64). */
export const ACC_SENSOR_BAR_F32 = 5e-4;
const READS_QACC = new Set(['accelerometer', 'force', 'torque', 'touch']);
/** f64, a model solved by PGS (Gymnasium's humanoid: 50 iterations): MuJoCo and the engine stop the
 *  same sweeps short of the optimum, where round-off left in their orders shows as about 1e-5 of qacc. */
export const ACC_SENSOR_BAR_PGS = 1e-4;

export interface SensorState {
  qpos: number[];
  qvel: number[];
  ctrl: number[];
}

interface MujocoSensors {
  sensors: { name: string; type: string; adr: number; dim: number; cutoff: number; noise: number }[];
  sensordata: number[][];
}

export interface SensorFixtureRef {
  name: string;
  path: string;
  model: ModelDesc;
  states: SensorState[];
  mj: MujocoSensors;
}

export type MjcfSensorsReference = SensorFixtureRef[];

/** The fixtures: every test/fixtures/import/sensors/mjcf-sensors*.xml. */
export function sensorFixtures(): { name: string; path: string }[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => /^mjcf-sensors.*\.xml$/.test(f))
    .sort()
    .map((f) => ({ name: `mjcf-sensors:${f}`, path: join(FIXTURE_DIR, f) }));
}

/** State 0: qpos0 at rest; then random joint positions and velocities, quaternions of length 0.8 to
 *  1.25 (MuJoCo normalises them where it reads them), controls in [−1, 1]. */
export function sensorStates(model: ModelDesc, n: number, seed: number, name: string): SensorState[] {
  const rng = new Rng(seedFor(seed, `mjcf-sensors/${name}`));
  const u = (): number => 2 * rng.next() - 1;
  const nu = model.actuators?.length ?? 0;
  const qpos0 = model.bodies.flatMap((b) => b.q0);
  const nv = model.bodies.reduce((s, b) => s + b.v0.length, 0);
  const out: SensorState[] = [{ qpos: qpos0, qvel: new Array(nv).fill(0), ctrl: new Array(nu).fill(0) }];
  const quat = (): number[] => {
    const q = [u(), u(), u(), u()];
    const k = (1 + 0.25 * u()) / (Math.hypot(...q) || 1);
    return q.map((x) => x * k);
  };
  for (let s = 1; s < n; s++) {
    const qpos: number[] = [];
    for (const b of model.bodies) {
      if (b.joint === 'revolute' || b.joint === 'prismatic') qpos.push(b.q0[0] + u());
      else if (b.joint === 'ball') qpos.push(...quat());
      else if (b.joint === 'free') qpos.push(b.q0[0] + u(), b.q0[1] + u(), b.q0[2] + u(), ...quat());
    }
    out.push({ qpos, qvel: Array.from({ length: nv }, () => 2 * u()), ctrl: Array.from({ length: nu }, () => u()) });
  }
  return out;
}

export async function mjcfSensorsReference(python: string, seed: number, n: number): Promise<MjcfSensorsReference> {
  const fixtures = sensorFixtures().map((f) => {
    const model = importFile(f.path).model;
    return { ...f, model, states: sensorStates(model, n, seed, f.name) };
  });
  const mj = (await runPythonJson(
    python,
    SCRIPT,
    { models: fixtures.map((f) => ({ path: f.path, states: f.states })) },
    fixtures.length,
  )) as MujocoSensors[];
  return fixtures.map((f, i) => ({ ...f, mj: mj[i] }));
}

/** The engine's sensordata of every state of a fixture (one robot per state). */
export function engineSensorData(
  model: ModelDesc,
  states: readonly SensorState[],
  precision: Precision,
  addon: NativeAddon,
  bug?: MjcfSensorBug,
): number[][] {
  const b = new Batch(model, { copies: states.length, precision, record: needsContactWrenches(model) }, addon);
  states.forEach((s, r) => b.setRobot(r, { q: s.qpos, v: s.qvel, tau: s.qvel.map(() => 0) }));
  const ctrl = b.ctrl;
  states.forEach((s, r) => s.ctrl.forEach((x, a) => (ctrl[a * b.stride + r] = x)));
  const inputs = b.sensorInputs(); // as mj_forward: the state's kinematics, velocities and forces
  const n = sensorDataSize(model);
  return states.map((_, r) => {
    const out = new Float64Array(n);
    mjcfSensorData(model, inputs, r, out, bug);
    return Array.from(out);
  });
}

function row(model: string, precision: Precision, field: string, error: number, bar: number, note: string): CheckRow {
  return {
    stage: 'mjcf-sensors',
    model,
    precision,
    state: 0,
    t: undefined,
    field,
    error,
    stateFloor: NaN,
    floor: bar,
    factor: 1,
    bar,
    status: error <= bar ? 'pass' : 'fail',
    note,
  };
}

export function mjcfSensorsRows(ref: MjcfSensorsReference, precision: Precision, addon: NativeAddon, bug?: MjcfSensorBug): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const f of ref) {
    const ours = f.model.mjcfSensors ?? [];
    const layoutDiffers =
      ours.length !== f.mj.sensors.length ||
      ours.some((s, i) => {
        const m = f.mj.sensors[i];
        return s.name !== m.name || s.type !== m.type || s.adr !== m.adr || s.dim !== m.dim || s.cutoff !== m.cutoff || s.noise !== m.noise;
      });
    rows.push(row(f.name, precision, 'sensor name, type, adr, dim, cutoff, noise', layoutDiffers ? 1 : 0, 0, 'as MuJoCo compiles them'));
    const data = engineSensorData(f.model, f.states, precision, addon, bug);
    const worst = new Map<string, { error: number; where: string }>();
    for (const s of ours) {
      let w = worst.get(s.type) ?? { error: 0, where: '' };
      f.states.forEach((_, st) => {
        for (let k = 0; k < s.dim; k++) {
          const want = f.mj.sensordata[st][s.adr + k];
          const e = Math.abs(data[st][s.adr + k] - want) / Math.max(1, Math.abs(want));
          if (!(e <= w.error)) w = { error: Number.isNaN(e) ? Infinity : e, where: `sensor '${s.name}'[${k}], state ${st}` };
        }
      });
      worst.set(s.type, w);
    }
    for (const [type, w] of worst)
      rows.push(
        row(
          f.name,
          precision,
          type,
          w.error,
          !READS_QACC.has(type)
            ? SENSOR_BARS[precision]
            : precision === 'f32'
              ? ACC_SENSOR_BAR_F32
              : f.model.solver?.method === 'pgs'
                ? ACC_SENSOR_BAR_PGS
                : SENSOR_BARS.f64,
          (w.where ? `worst: ${w.where}` : 'exact') +
            (READS_QACC.has(type) && f.model.solver?.method === 'pgs' ? ' (PGS: qacc to its iterations)' : ''),
        ),
      );
  }
  return rows;
}
