// Actuators, passive joint forces and controllers (issue 11): the double-buffered controls, the
// scene keys, bit-identity with actuators in every lane width and thread count, energy with
// springs and armature, the controller runtime and the RL API.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Batch } from '../src/engine/batch.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { engineAddon } from '../src/engine/native.js';
import { toNativeModel } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { ControlLoop } from '../src/control/controller.js';
import { loadControllerModule, resolveController } from '../src/control/load.js';
import { RlEnv } from '../src/control/rl.js';
import { parseTargetCsv } from '../src/model-files/scene/actuation.js';
import { arm6, passiveModels } from '../src/validation/actuators/models.js';
import { root } from './helpers/engine.js';
import { laneCells } from './helpers/lanes.js';

const servoArm = join(root, 'test', 'fixtures', 'control', 'servo-arm.arow');

/** A 1 kg slider along x without gravity, driven by a motor with gear 2. */
function slider(extra: Partial<ModelDesc['bodies'][0]> = {}): ModelDesc {
  return {
    name: 'slider',
    files: [],
    world: { gravity: [0, 0, 0], dt: 0.01, integrator: 'euler', duration: 1, substeps: 1 },
    bodies: [
      {
        name: 's',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'prismatic',
        axis: [1, 0, 0],
        mass: 1,
        com: [0, 0, 0],
        inertia: [0.1, 0.1, 0.1, 0, 0, 0],
        q0: [0],
        v0: [0],
        tau: [0],
        ...extra,
      },
    ],
    actuators: [{ name: 'push', body: 0, kind: 'motor', gear: [2], kp: 0, kv: 0 }],
  };
}

describe('double-buffered controls', () => {
  it('a control acts over exactly the next step and is gone after (no stale command)', () => {
    const b = new Batch(slider(), { copies: 3, precision: 'f64', lanes: 1 });
    b.ctrl[0 * b.stride + 1] = 0.5; // robot 1 only
    b.step(1);
    // v = h·gear·u/m over one step; the applied force is recorded
    expect(b.getRobot(1).v[0]).toBe(0.01 * 2 * 0.5);
    expect(b.actuatorForce[1]).toBe(0.5);
    expect(b.getRobot(0).v[0]).toBe(0);
    b.step(1); // nothing written: the command does not leak into this step
    expect(b.getRobot(1).v[0]).toBe(0.01 * 2 * 0.5);
    expect(b.actuatorForce[1]).toBe(0);
    // The view alternates; a command written now acts again over one step
    b.ctrl[1] = -0.5;
    b.step(3);
    expect(b.getRobot(1).v[0]).toBe(0);
  });

  it('ctrlrange clamps the control, forcerange the force, and a servo moves its target at most rate·dt per step', () => {
    const m = slider();
    m.actuators = [
      { name: 'a', body: 0, kind: 'motor', gear: [1], kp: 0, kv: 0, ctrlrange: [-1, 1] },
      { name: 'b', body: 0, kind: 'position', gear: [1], kp: 10, kv: 0, forcerange: [-0.25, 0.25] },
      { name: 'c', body: 0, kind: 'position', gear: [1], kp: 1, kv: 0, rateLimit: 3 },
    ];
    const b = new Batch(m, { copies: 1, precision: 'f64', lanes: 1 });
    const write = () => {
      b.ctrl[0 * b.stride] = 7;
      b.ctrl[1 * b.stride] = 1;
      b.ctrl[2 * b.stride] = 1;
    };
    write();
    b.step(1);
    expect(b.actuatorForce[0 * b.stride]).toBe(1);
    expect(b.actuatorForce[1 * b.stride]).toBe(0.25);
    expect(b.ctrlTarget[2 * b.stride]).toBeCloseTo(0.03, 15); // 3 rad/s · 10 ms
    write();
    b.step(1);
    expect(b.ctrlTarget[2 * b.stride]).toBeCloseTo(0.06, 15);
  });
});

describe('bit-identical with actuators and passive forces in every lane width and thread count', () => {
  const { model, terms } = arm6();
  for (const precision of ['f32', 'f64'] as Precision[]) {
    const widths = laneCells([precision])
      .filter((c) => !c.skip)
      .map((c) => c.lanes);
    it(`arm6 under per-robot controls, ${precision}, lanes ${widths.join(', ')}, threads 1 and 2`, () => {
      const run = (lanes: LaneWidth, threads: number) => {
        const b = new Batch(model, { copies: 11, precision, lanes, threads, integrator: 'euler' });
        for (let k = 0; k < 60; k++) {
          for (let a = 0; a < b.nu; a++)
            for (let r = 0; r < b.copies; r++) b.ctrl[a * b.stride + r] = 40 * Math.sin(0.1 * k + a + 0.37 * r);
          b.step(1);
        }
        return Array.from({ length: 11 }, (_, r) => [...b.getRobot(r).q, ...b.getRobot(r).v]);
      };
      const ref = run(1, 1);
      for (const w of widths) for (const t of [1, 2]) expect(run(w, t)).toEqual(ref);
      expect(terms.length).toBe(6);
    });
    it(`servos with ranges and rate limits, springs, RK4, ${precision}, lanes ${widths.join(', ')}`, () => {
      const servo = loadScene(servoArm);
      const run = (lanes: LaneWidth, threads: number) => {
        const b = new Batch(servo, { copies: 9, precision, lanes, threads, integrator: 'rk4' });
        for (let k = 0; k < 80; k++) {
          for (let a = 0; a < b.nu; a++) for (let r = 0; r < b.copies; r++) b.ctrl[a * b.stride + r] = 3 * Math.sin(0.2 * k + a + 0.5 * r);
          b.step(1);
        }
        return Array.from({ length: 9 }, (_, r) => [
          ...b.getRobot(r).q,
          ...b.getRobot(r).v,
          b.actuatorForce[r],
          b.ctrlTarget[b.stride + r],
        ]);
      };
      const ref = run(1, 1);
      for (const w of widths) for (const t of [1, 2]) expect(run(w, t)).toEqual(ref);
    });
  }
});

describe('energy and flops with passive forces', () => {
  it('an undamped spring with armature conserves ½kx² + ½(m + armature)v² under RK4', () => {
    const m = slider({ stiffness: 40, springref: 0.1, armature: 0.5, q0: [0.3] });
    m.actuators = [];
    const b = new Batch(m, { copies: 1, precision: 'f64', lanes: 1, integrator: 'rk4' });
    const e0 = b.energy().total[0];
    expect(e0).toBeCloseTo(0.5 * 40 * 0.2 * 0.2, 14);
    b.step(500);
    // RK4's own drift here is ~1e-7 J (ωh = 0.05); leaving out the armature's ½·0.5·v² or the
    // spring's potential would miss up to 0.8 J.
    expect(Math.abs(b.energy().total[0] - e0)).toBeLessThan(1e-6);
    expect(b.energy().kinetic[0]).toBeGreaterThan(0.1);
  });

  it('damping and actuators are counted in the flops of a step', () => {
    const addon = engineAddon();
    const plain = slider();
    plain.actuators = [];
    const count = (m: ModelDesc) => addon.countFlops(toNativeModel(m), { integrator: 'euler' }) as unknown as { total: number };
    const base = count(plain).total;
    expect(count(slider()).total).toBeGreaterThan(base);
    expect(count({ ...plain, bodies: [{ ...plain.bodies[0], damping: 0.3 }] }).total).toBeGreaterThan(base);
  });

  it('bad passive parameters and actuators are refused with the joint or actuator named', () => {
    expect(() => new Batch(slider({ damping: -1 }), { copies: 1 })).toThrow(/joint 's': damping/);
    const m = slider();
    m.actuators = [{ name: 'x', body: 0, kind: 'motor', gear: [1], kp: 0, kv: 0, ctrlrange: [1, -1] }];
    expect(() => new Batch(m, { copies: 1 })).toThrow(/actuator 'x': ctrlrange/);
  });
});

describe('scene keys', () => {
  it('reads passive parameters, actuators (direction projected to the gear) and the PD controller', () => {
    const m = loadScene(servoArm);
    expect(m.bodies[0]).toMatchObject({ damping: 0.2, armature: 0.01 });
    expect(m.bodies[1]).toMatchObject({ stiffness: 1.5, springref: 0.1 });
    expect(m.actuators?.map((a) => [a.name, a.kind, a.gear])).toEqual([
      ['shoulder', 'motor', [2]],
      ['elbow', 'position', [1]],
    ]);
    expect(m.actuators?.[1]).toMatchObject({ kp: 30, kv: 1, rateLimit: 3, ctrlrange: [-1.5, 1.5] });
    expect(m.controller).toMatchObject({
      kind: 'pd',
      terms: [
        { actuator: 0, kp: 40, kd: 2 },
        { actuator: 1, target: { kind: 'table', times: [0, 0.5, 1.5] } },
      ],
    });
  });

  it('says where a bad key is and what was expected', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ach-act-'));
    const write = (joint: string) => {
      const f = join(dir, 's.arow');
      writeFileSync(f, `scene: s\nlinks:\n  - name: a\n    parent: world\n    joint: ${joint}\n    mass: 1\n    inertia: [1, 1, 1]\n`);
      return f;
    };
    expect(() => loadScene(write('{ type: ball, stiffness: 2 }'))).toThrow(
      /s\.arow:5:\d+: .*stiffness.*expected springs on revolute and prismatic joints only/,
    );
    expect(() => loadScene(write('{ type: ball, actuators: [{ kind: position, kp: 1 }] }'))).toThrow(/position servo on a ball joint/);
    expect(() => loadScene(write('{ type: revolute, axis: [0, 0, 1], actuators: [{ kind: motor, torque: [1, 0, 0] }] }'))).toThrow(
      /no component along the joint's free axes/,
    );
    expect(() => loadScene(write('{ type: revolute, axis: [0, 0, 1], actuators: [{ kind: motr }] }'))).toThrow(/motr/);
    expect(parseTargetCsv('time,a\n0,1\n0,2\n', 'a')).toMatch(/does not increase/);
  });
});

describe('controllers', () => {
  it('the built-in PD tracks its targets; a .ts module is loaded with esbuild and called at its rate', async () => {
    const model = loadScene(servoArm);
    const b = new Batch(model, { copies: 2, precision: 'f64', lanes: 1 });
    const pd = await resolveController(model, undefined);
    const loop = new ControlLoop(b, pd!);
    for (let k = 0; k < 1000; k++) {
      loop.beforeStep();
      b.step(1);
    }
    // the elbow servo follows the CSV target (−0.4 rad at t ≥ 1.5 s) within its steady-state error
    expect(Math.abs(b.getRobot(0).q[1] + 0.4)).toBeLessThan(0.15);
    const mod = await loadControllerModule(join(root, 'test', 'fixtures', 'control', 'hold.ts'));
    expect(mod.rate).toBe(50);
    const b2 = new Batch(model, { copies: 2, precision: 'f64', lanes: 1 });
    const calls: number[] = [];
    const loop2 = new ControlLoop(b2, { rate: mod.rate, update: (io) => (calls.push(io.step), mod.update(io)) });
    expect(loop2.period).toBe(10);
    for (let k = 0; k < 25; k++) {
      loop2.beforeStep();
      b2.step(1);
    }
    expect(calls).toEqual([0, 10, 20]);
    expect(b2.actuatorForce[1]).toBe(2); // robot 1 pushes with 1 + 1, held between calls
  });

  it('a module without a usable export is refused with what was found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ach-ctl-'));
    const f = join(dir, 'bad.ts');
    writeFileSync(f, 'export const x: number = 1;\n');
    await expect(loadControllerModule(f)).rejects.toThrow(/no default export.*expected a function/);
  });

  it('the RL API resets chosen robots and reads observations without copying', () => {
    const model = loadScene(servoArm);
    const env = new RlEnv(model, { copies: 4, precision: 'f64', lanes: 1 });
    const q = env.obs.q;
    for (let k = 0; k < 50; k++) {
      for (let r = 0; r < 4; r++) env.ctrl[r] = 5;
      env.step();
    }
    expect(env.obs.q).toBe(q); // the same view
    const moved = env.batch.getRobot(2).q;
    env.reset([1]);
    expect(env.batch.getRobot(1).q).toEqual(model.bodies.flatMap((b) => b.q0));
    expect(env.batch.getRobot(1).v).toEqual([0, 0]);
    expect(env.batch.getRobot(2).q).toEqual(moved);
    expect(env.batch.ctrlTarget[1 * env.stride + 1]).toBe(0);
  });
});

describe('validation models', () => {
  it('are physical and load', () => {
    for (const { model } of passiveModels()) expect(() => new Batch(model, { copies: 1 })).not.toThrow();
  });
});

describe('between steps', () => {
  it('forward() and the trace see the controls the last step read (held), not the cleared half', () => {
    const m = slider();
    const b = new Batch(m, { copies: 1, precision: 'f64', lanes: 1 });
    b.ctrl[0] = 0.5;
    b.forward();
    expect(b.qacc[0]).toBe(1); // before any step: the controls written for the first (gear 2 · 0.5 / 1 kg)
    b.step(1);
    b.forward();
    expect(b.qacc[0]).toBe(1); // held: the force acting over the step just taken
    b.step(1);
    b.forward();
    expect(b.qacc[0]).toBe(0);
  });
});

describe('held controls', () => {
  // A frame skip: what Gymnasium's do_simulation asks of mj_step (nstep = frame_skip, d->ctrl kept)
  const held = (path: string, k: number) => {
    const make = () => new Batch(loadScene(path), { copies: 6, precision: 'f32', lanes: 4 });
    const single = make(),
      once = make();
    const controls = (b: Batch, call: number) => {
      for (let i = 0; i < b.ctrl.length; ++i) b.ctrl[i] = Math.sin(1.7 * i + 0.9 * call);
    };
    for (let call = 0; call < 3; ++call) {
      for (let s = 0; s < k; ++s) {
        controls(single, call);
        single.step(1);
      }
      controls(once, call);
      once.step(k, { holdControls: true });
    }
    return { single, once };
  };
  for (const path of [servoArm, join(root, 'scenes', 'quadruped.arow')])
    for (const k of [1, 2, 3, 4])
      it(`step(${k}, { holdControls }) leaves ${path.split('/').pop()} as ${k} single steps with the controls written before each`, () => {
        const { single, once } = held(path, k);
        expect(once.steps).toBe(single.steps);
        for (const f of ['q', 'v', 'qacc', 'ctrlTarget', 'act'] as const) expect(Array.from(once[f])).toEqual(Array.from(single[f]));
        // the robots' entries of both halves (a stride's padding past the blocks is never read or cleared)
        const robots = (b: Batch) => b.controlHalves().map((h) => Array.from(h).filter((_, i) => i % b.stride < b.copies));
        expect(robots(once)).toEqual(robots(single));
        once.forward(); // the controls the last step read, as after single steps
        single.forward();
        expect(Array.from(once.qacc)).toEqual(Array.from(single.qacc));
      });
});

describe('achilles run with actuators', () => {
  it('writes force:<actuator> trace columns and the actuator-forces chart', async () => {
    const { cli, tempDir } = await import('./helpers/cli.js');
    const out = join(tempDir(), 'run');
    const r = await cli('run', servoArm, '--duration', '0.2', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/controller the scene's PD controller \(2 terms\), called every 1 step/);
    const { readFileSync, existsSync } = await import('node:fs');
    const header = readFileSync(join(out, 'trace.csv'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('step,'));
    expect(header).toMatch(/,force:shoulder,force:elbow$/);
    expect(existsSync(join(out, 'actuator-forces.svg'))).toBe(true);
  });
});
