// MuJoCo's sensors from MJCF (issue 52): jointpos .. velocimeter are imported with MuJoCo's adr and
// dim, computed from the engine's evaluation of a state (engine/mjcf-sensors.ts) and compared with
// MuJoCo's sensordata after mj_forward at the same states, on the fixture with every supported
// sensor and on Gymnasium's ant and humanoid with sensors added (the mjcf-sensors stage's gates);
// each planted bug of the evaluation fails them; everything else is refused at its line.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { mjcfSensorData, needsContactWrenches, sensorDataSize } from '../src/engine/mjcf-sensors.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import type { LaneWidth } from '../src/engine/api.js';
import { laneCells } from './helpers/lanes.js';
import { RlEnv } from '../src/control/rl.js';
import { importFile } from '../src/model-files/import/index.js';
import { SENSOR_TYPES } from '../src/model-files/import/ir.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { MJCF_SENSOR_BUGS, MJCF_SENSOR_NATIVE_BUGS } from '../src/validation/mjcf-sensors/bugs.js';
import {
  ACC_SENSOR_BAR_F32,
  engineSensorData,
  mjcfSensorsReference,
  mjcfSensorsRows,
  SENSOR_BARS,
  type MjcfSensorsReference,
} from '../src/validation/mjcf-sensors/stage.js';

const PYTHON = process.env.ACHILLES_PYTHON || 'python3';

describe("MJCF sensors against MuJoCo's sensordata", () => {
  let ref: MjcfSensorsReference;
  beforeAll(async () => {
    ref = await mjcfSensorsReference(PYTHON, 5, 16);
  }, 120_000);

  test('the fixtures cover every supported type', () => {
    expect(ref.map((f) => f.name)).toEqual([
      'mjcf-sensors:mjcf-sensors-ant.xml',
      'mjcf-sensors:mjcf-sensors-humanoid.xml',
      'mjcf-sensors:mjcf-sensors.xml',
    ]);
    const types = new Set(ref.flatMap((f) => f.mj.sensors.map((s) => s.type)));
    expect([...types].sort()).toEqual([...SENSOR_TYPES].sort());
  });

  test.each(['f64', 'f32'] as const)('every sensor of every state within the %s bar', (precision) => {
    const rows = mjcfSensorsRows(ref, precision, engineAddon());
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((r) => r.status !== 'pass').map((r) => `${r.model} ${r.field} ${r.error} ${r.note}`)).toEqual([]);
    // the comparison is not vacuous: the fixtures' sensors read values far from zero, touch included
    const touching = ref.flatMap((f) =>
      f.mj.sensors.filter((s) => s.type === 'touch').flatMap((s) => f.mj.sensordata.map((d) => d[s.adr])),
    );
    expect(touching.filter((x) => x > 0).length).toBeGreaterThan(3);
    expect(Math.max(...ref.flatMap((f) => f.mj.sensordata.flat().map(Math.abs)))).toBeGreaterThan(1);
    expect(SENSOR_BARS[precision]).toBeLessThanOrEqual(precision === 'f64' ? 1e-9 : 5e-6);
    expect(ACC_SENSOR_BAR_F32).toBeLessThanOrEqual(5e-4);
  });

  test.each(MJCF_SENSOR_BUGS)('the planted host bug %s fails the gates', (bug) => {
    const failed = mjcfSensorsRows(ref, 'f64', engineAddon(), bug).filter((r) => r.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
  });

  test.each(MJCF_SENSOR_NATIVE_BUGS)("the engine's planted bug %s fails the gates", (bug) => {
    const addon = bugAddon();
    addon.setBug!(bug);
    try {
      const failed = mjcfSensorsRows(ref, 'f64', addon).filter((r) => r.status === 'fail');
      expect(failed.length).toBeGreaterThan(0);
    } finally {
      addon.setBug!('none');
    }
  });

  test("the engine's sensor pass and the host's evaluation of the same sensors agree to round-off", () => {
    for (const f of ref) {
      const b = new Batch(f.model, { copies: f.states.length, precision: 'f64', record: needsContactWrenches(f.model) }, engineAddon());
      f.states.forEach((s, r) => b.setRobot(r, { q: s.qpos, v: s.qvel, tau: s.qvel.map(() => 0) }));
      f.states.forEach((s, r) => s.ctrl.forEach((x, a) => (b.ctrl[a * b.stride + r] = x)));
      const inputs = b.sensorInputs();
      const n = sensorDataSize(f.model);
      for (let r = 0; r < f.states.length; r++) {
        const native = new Float64Array(n);
        const host = new Float64Array(n);
        mjcfSensorData(f.model, inputs, r, native);
        mjcfSensorData(f.model, { ...inputs, native: undefined }, r, host);
        for (let k = 0; k < n; k++)
          expect(Math.abs(native[k] - host[k]), `${f.name} [${k}] robot ${r}`).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(host[k])));
      }
    }
  });

  test('bit-identical whatever robots share the batch (each state alone, and all together)', () => {
    const f = ref[2];
    const together = engineSensorData(f.model, f.states, 'f64', engineAddon());
    f.states.forEach((s, r) => expect(engineSensorData(f.model, [s], 'f64', engineAddon())[0]).toEqual(together[r]));
  });

  test.each(laneCells())('bit-identical across lane widths and threads: $precision × $lanes lanes', (c) => {
    if (c.skip) return;
    const f = ref[2];
    const run = (lanes: number, threads: number): number[][] => {
      const b = new Batch(
        f.model,
        { copies: f.states.length, precision: c.precision, lanes: lanes as LaneWidth, threads, record: true },
        engineAddon(),
      );
      f.states.forEach((s, r) => b.setRobot(r, { q: s.qpos, v: s.qvel, tau: s.qvel.map(() => 0) }));
      f.states.forEach((s, r) => s.ctrl.forEach((x, a) => (b.ctrl[a * b.stride + r] = x)));
      b.step(3); // a few steps, then the sensors at the state reached
      const n = sensorDataSize(f.model);
      const all = b.sensordata();
      return f.states.map((_, r) => Array.from(all.subarray(r * n, (r + 1) * n)));
    };
    const base = run(1, 1);
    expect(run(c.lanes, 1)).toEqual(base);
    expect(run(c.lanes, 2)).toEqual(base);
  });

  test('flag sensor="disable" leaves sensordata zero, as MuJoCo does', () => {
    const m = importFile(join(__dirname, 'fixtures', 'import', 'mjcf-inert-settings.xml')).model;
    expect(m.mjcfSensorsDisabled).toBe(true);
    const q = m.bodies.flatMap((b) => b.q0).map((x) => x + 0.3);
    const nv = m.bodies.reduce((s, b) => s + b.v0.length, 0);
    const data = engineSensorData(
      m,
      [{ qpos: q, qvel: new Array(nv).fill(1), ctrl: new Array(m.actuators?.length ?? 0).fill(0) }],
      'f64',
      engineAddon(),
    );
    expect(data[0]).toEqual([0, 0, 0, 0]);
  });
});

describe('what the importer does not compute is refused at its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mjcf-sensors-'));
  const model = (sensors: string): string =>
    `<mujoco>\n<worldbody>\n<body name="b">\n<joint name="h" type="hinge"/>\n<joint name="ball" type="ball"/>\n<geom size=".1"/>\n<site name="s"/>\n</body>\n<site name="w"/>\n</worldbody>\n<sensor>\n${sensors}\n</sensor>\n</mujoco>`;
  test.each([
    ['a magnetometer', '<magnetometer site="s"/>', 12, 1, /magnetometer sensor/],
    ['a rangefinder', '<rangefinder site="s"/>', 12, 1, /rangefinder sensor/],
    ['a force sensor on a world site', '<force site="w"/>', 12, 8, /site of the world body/],
    ['an attribute not followed', '<jointpos joint="h" user="1"/>', 12, 21, /attribute user/],
    ['a cutoff on a quaternion', '<framequat objtype="site" objname="s" cutoff="1"/>', 12, 39, /cutoff on a framequat/],
    ['a negative noise', '<gyro site="s" noise="-1"/>', 12, 16, /noise -1/],
    ['refname without reftype', '<framepos objtype="site" objname="s" refname="s"/>', 12, 38, /reftype or refname alone/],
    ['a ball joint', '<jointpos joint="ball"/>', 12, 11, /a ball joint/],
    ['an unknown site', '<gyro site="nowhere"/>', 12, 7, /site 'nowhere'/],
    ['an unknown objtype', '<framepos objtype="camera" objname="c"/>', 12, 11, /camera/],
  ])('%s', (_, sensor, line, column, what) => {
    const f = join(dir, `${line}-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(f, model(sensor));
    let e: unknown;
    try {
      importFile(f);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(SceneError);
    expect([(e as SceneError).line, (e as SceneError).column]).toEqual([line, column]);
    expect((e as SceneError).message).toMatch(what);
  });
});

describe('the MuJoCo sensors reach the runs: sensor channels of the trace, controllers and RlEnv', () => {
  test("the bank's channels are sensordata in MuJoCo's order, read after every step", () => {
    const model = importFile(join(__dirname, 'fixtures', 'import', 'sensors', 'mjcf-sensors.xml')).model;
    const env = new RlEnv(model, { copies: 3, precision: 'f64' });
    const ch = env.obs.sensors.channels;
    expect(ch.slice(0, 3)).toEqual(['jp_shoulder', 'jp_knee', 'jv_elbow']);
    expect(ch).toContain('fq_torso.3');
    expect(ch.length).toBe(sensorDataSize(model));
    const b = new Batch(model, { copies: 3, precision: 'f64', record: true }, engineAddon());
    for (let k = 0; k < 5; k++) {
      env.step();
      b.step(1);
    }
    const want = b.sensordata();
    const got = env.obs.sensors.data;
    for (let r = 0; r < 3; r++) for (let k = 0; k < ch.length; k++) expect(got[k * env.stride + r]).toBe(want[r * ch.length + k]);
    expect(Math.abs(env.obs.sensors.sensor('gyro_imu')[0])).toBeGreaterThan(0); // it moved: not vacuous
  });
});

describe('robots that differ in their masses', () => {
  test('each robot reads subtreecom (and every other sensor) as a batch of its own model would', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mjcf-sensors-mass-'));
    const file = (m: number): string => {
      const f = join(dir, `m${m}.xml`);
      writeFileSync(
        f,
        `<mujoco><worldbody><body name="a"><joint name="h" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 .3 0 0" size=".05" mass="1"/>
<body name="b" pos=".3 0 0"><joint name="k" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 .3 0 0" size=".05" mass="${m}"/><site name="s" pos=".3 0 0"/></body></body></worldbody>
<sensor><subtreecom body="a"/><framepos objtype="body" objname="b"/><gyro site="s"/></sensor></mujoco>`,
      );
      return f;
    };
    const light = importFile(file(1)).model;
    const heavy = importFile(file(3)).model;
    const mixed = new Batch(light, { copies: 2, precision: 'f64' }, engineAddon());
    mixed.setRobotModel(1, heavy);
    const alone = new Batch(heavy, { copies: 1, precision: 'f64' }, engineAddon());
    for (const b of [mixed, alone]) for (let r = 0; r < b.copies; r++) b.setRobot(r, { q: [0.4, -0.7], v: [1, 2] });
    const n = sensorDataSize(light);
    const got = mixed.sensordata();
    expect(Array.from(got.subarray(n, 2 * n))).toEqual(Array.from(alone.sensordata()));
    expect(got[0]).not.toBe(got[n]); // the two robots' subtree centres differ
  });
});
