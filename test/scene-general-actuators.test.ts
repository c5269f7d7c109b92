// `kind: general` in the .arow scene format (docs/scene-format.md, "General actuators"), MJCF import
// of <general>, <intvelocity> and <position timeconst/dampratio> as the general form MuJoCo expands them
// to, the export and .arow writer round trip, refusals at their line, and activations bit-identical
// across lane widths.
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { Precision } from '../src/engine/api.js';
import { exportMjcf, loadScene } from '../src/model-files/scene/index.js';
import { importFile } from '../src/model-files/import/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';
import { laneCells } from './helpers/lanes.js';

const dir = tempDir();
const scene = (actuator: string, world = '') => `scene: s
world: { dt: 0.002, integrator: euler${world} }
links:
  - name: upper
    parent: world
    joint: { type: revolute, axis: [1, 0, 0], actuators: [${actuator}] }
    mass: 1
    com: [0, 0.2, 0]
    inertia: [0.02, 0.001, 0.02]
`;
const load = (name: string, text: string) => loadScene(write(dir, name, text));
function check(name: string, text: string, at: string, ...patterns: string[]): void {
  const off = text.indexOf(at);
  expect(off, `'${at}' in the scene text`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, off).split('\n');
  expectSceneError(() => load(name, text), before.length, before[before.length - 1].length + 1, ...patterns);
}
const SERVO =
  '{ name: s, kind: general, dyntype: filterexact, dynprm: [0.05], gainprm: [40], biastype: affine, biasprm: [0, -40, -2], actrange: [-1, 1], actearly: true }';

describe('.arow general actuators', () => {
  test("MuJoCo's defaults, and the keys as written", () => {
    const d = load('d.arow', scene('{ name: g, kind: general }')).actuators![0];
    expect(d.general).toEqual({
      dyntype: 'none',
      gaintype: 'fixed',
      biastype: 'none',
      dynprm: [1, 0, 0],
      gainprm: [1, 0, 0],
      biasprm: [0, 0, 0],
    });
    const s = load('s.arow', scene(SERVO)).actuators![0];
    expect(s.general).toEqual({
      dyntype: 'filterexact',
      gaintype: 'fixed',
      biastype: 'affine',
      dynprm: [0.05, 0, 0],
      gainprm: [40, 0, 0],
      biasprm: [0, -40, -2],
      actrange: [-1, 1],
      actearly: true,
    });
  });

  test('refusals at their line', () => {
    check('r1.arow', scene('{ kind: general, kp: 3 }'), 'kp', 'kp', 'gainprm');
    check('r2.arow', scene('{ kind: position, kp: 3, dyntype: filter }'), 'dyntype', 'general');
    check('r3.arow', scene('{ kind: general, dyntype: muscle }'), 'muscle', 'filterexact');
    check('r4.arow', scene('{ kind: general, actrange: [0, 1] }'), 'actrange', 'dyntype');
    check('r5.arow', scene('{ kind: general, gainprm: [1, 2, 3, 4] }'), '[1, 2, 3, 4]', '1 or 2 or 3 numbers');
    check('r6.arow', scene('{ kind: general, rate_limit: 2 }'), 'rate_limit', 'rate limit');
  });

  test('verlet and midpoint refuse a model with activations; implicitfast runs it', () => {
    const m = load('v.arow', scene(SERVO));
    expect(() => new Batch(m, { copies: 1, precision: 'f64', integrator: 'verlet' })).toThrow(/euler, rk4 or implicitfast/);
    expect(() => new Batch(m, { copies: 1, precision: 'f64', integrator: 'midpoint' })).toThrow(/euler, rk4 or implicitfast/);
    expect(new Batch(m, { copies: 1, precision: 'f64', integrator: 'implicitfast' }).na).toBeGreaterThan(0);
  });

  test('act follows the filter under a held control (filterexact: exact for a constant control)', () => {
    const m = load('f.arow', scene('{ name: f, kind: general, dyntype: filterexact, dynprm: [0.05], gainprm: [0] }'));
    const b = new Batch(m, { copies: 1, precision: 'f64', integrator: 'euler' });
    expect(b.na).toBe(1);
    for (let k = 0; k < 50; k++) {
      b.ctrl[0] = 1;
      b.step(1);
    }
    // act(t) = 1 − e^(−t/τ) at t = 0.1 s, to rounding
    expect(b.act[0]).toBeCloseTo(1 - Math.exp(-0.1 / 0.05), 12);
  });

  test('the .arow writer and the MJCF export write the general form back', () => {
    const m = load('w.arow', scene(SERVO));
    const xml = exportMjcf(m);
    expect(xml).toMatch(
      /<general name="s" joint="upper" gear="1" dyntype="filterexact" gaintype="fixed" biastype="affine" dynprm="0.05 0 0" gainprm="40 0 0" biasprm="0 -40 -2" actlimited="true" actrange="-1 1" actearly="true"/,
    );
    const again = load('w2.arow', writeArow(m, []));
    expect(again.actuators![0].general).toEqual(m.actuators![0].general);
  });
});

describe('MJCF import of general actuators', () => {
  const mjcf = (actuators: string, defaults = '') => `<mujoco>
  ${defaults}
  <worldbody>
    <body name="b"><joint name="j" axis="1 0 0"/><geom type="sphere" size="0.1" pos="0 0.2 0"/></body>
  </worldbody>
  <actuator>
    ${actuators}
  </actuator>
</mujoco>
`;
  const imp = (name: string, text: string) => importFile(write(dir, name, text)).model.actuators![0];

  test('each shortcut as MuJoCo expands it (mjs_setToPosition, mjs_setToIntVelocity)', () => {
    expect(imp('p.xml', mjcf('<position joint="j" kp="50" dampratio="0.8" timeconst="0.02"/>')).general).toEqual({
      dyntype: 'filterexact',
      gaintype: 'fixed',
      biastype: 'affine',
      dynprm: [0.02, 0, 0],
      gainprm: [50, 0, 0],
      biasprm: [0, -50, 0.8],
    });
    expect(imp('i.xml', mjcf('<intvelocity joint="j" kp="10" kv="2" actrange="-1 1"/>')).general).toEqual({
      dyntype: 'integrator',
      gaintype: 'fixed',
      biastype: 'affine',
      dynprm: [1, 0, 0],
      gainprm: [10, 0, 0],
      biasprm: [0, -10, -2],
      actrange: [-1, 1],
    });
    const plain = imp('pp.xml', mjcf('<position joint="j" kp="5" kv="1"/>'));
    expect([plain.kind, plain.kp, plain.kv, plain.general]).toEqual(['position', 5, 1, undefined]);
  });

  test("a keyframe's activations: 0 accepted (a run starts act at 0), others refused at the attribute", () => {
    const keyed = (act: string) =>
      mjcf('<intvelocity joint="j" kp="10" actrange="-1 1"/>').replace(
        '</mujoco>',
        `<keyframe><key qpos="0.1" act="${act}"/></keyframe>\n</mujoco>`,
      );
    expect(imp('k0.xml', keyed('0')).general?.dyntype).toBe('integrator');
    expect(() => imp('k1.xml', keyed('0.5'))).toThrow(/act.*activations of 0/s);
  });

  test("one actuator default per class, shared by every tag (MuJoCo's Default: OneActuator)", () => {
    const dflt =
      '<default><general dyntype="filter" dynprm="0.1" ctrlrange="-2 2"/><default class="c"><position kp="7" kv="1"/></default></default>';
    const p = imp('s1.xml', mjcf('<position joint="j" kp="5"/>', dflt));
    expect([p.kind, p.ctrlrange, p.general]).toEqual([
      'general',
      [-2, 2],
      { dyntype: 'filter', gaintype: 'fixed', biastype: 'affine', dynprm: [0.1, 0, 0], gainprm: [5, 0, 0], biasprm: [0, -5, 0] },
    ]);
    // a velocity servo's kv defaults to the class's gainprm[0], which its <position kp> wrote
    const v = imp('s2.xml', mjcf('<velocity class="c" joint="j"/>', dflt));
    expect([v.kind, v.kv]).toEqual(['velocity', 7]);
    // a motor resets the dynamics and the gain (mjs_setToMotor)
    const m = imp('s3.xml', mjcf('<motor class="c" joint="j"/>', dflt));
    expect([m.kind, m.general]).toEqual(['motor', undefined]);
  });

  test('refusals at their attribute', () => {
    expect(() => imp('m.xml', mjcf('<general joint="j" dyntype="muscle"/>'))).toThrow(/dyntype.*"muscle"/s);
    expect(() => imp('k.xml', mjcf('<position joint="j" kv="1" dampratio="1"/>'))).toThrow(/kv and dampratio/);
    expect(() => imp('a.xml', mjcf('<general joint="j" actdim="2"/>'))).toThrow(/actdim/);
    expect(() => imp('c.xml', mjcf('<position joint="j"/>', '<default><muscle/></default>'))).toThrow(/defaults through <muscle>/);
    expect(() => imp('u.xml', mjcf('<position joint="j"/>', '<default><general dyntype="user"/></default>'))).toThrow(/dyntype.*"user"/s);
  });
});

describe('activations are bit-identical across lane widths and threads', () => {
  const model = () => load('d.arow', scene(SERVO).replace('euler', 'rk4'));
  for (const precision of ['f32', 'f64'] as Precision[]) {
    const widths = laneCells([precision])
      .filter((c) => !c.skip)
      .map((c) => c.lanes);
    test(`${precision} at lanes ${widths.join(', ')}`, () => {
      const runAt = (lanes: (typeof widths)[number], threads = 1) => {
        const b = new Batch(model(), { copies: 19, precision, lanes, integrator: 'rk4', threads });
        for (let k = 0; k < 200; k++) {
          const c = b.ctrl;
          for (let r = 0; r < 19; r++) c[r] = Math.sin(0.05 * k + r);
          b.step(1);
        }
        return { act: Array.from(b.act.slice(0, 19)), q: Array.from(b.q.slice(0, 19)) };
      };
      const one = runAt(1);
      expect(new Set(one.act).size).toBeGreaterThan(10); // the robots differ
      for (const w of widths) expect(runAt(w)).toEqual(one);
      expect(runAt(widths[widths.length - 1], 2)).toEqual(one); // and across threads
    });
  }
});
