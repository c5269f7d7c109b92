// Issue 23 ("what you see is what ran"), the controller part: a scene's controller module runs only
// when the user asks, after the notice; controller and PD-target files get the scene files' checks
// at the scene's line; errors never print another file's content; a non-finite control, a throwing
// controller and a syntax error are reported with the controller and where; run.json says which
// controller ran; RlEnv exposes the scene's sensors.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { ControlLoop } from '../src/control/controller.js';
import { ControllerError, NonFiniteControlError } from '../src/control/errors.js';
import { loadControllerModule, resolveController } from '../src/control/load.js';
import { RlEnv } from '../src/control/rl.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { SensorBank } from '../src/sensors/index.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

/** A rod on a hinge with one motor clamped to ±50 (the issue's case), and a `controller:` line. */
function rodScene(dir: string, controller: string, actuators = 'actuators: [{ name: spin, kind: motor, ctrlrange: [-50, 50] }]'): string {
  const f = join(dir, 'rod.arow');
  writeFileSync(
    f,
    [
      'scene: rod',
      'world: { gravity: [0, 0, -9.81], dt: 0.01, integrator: euler, duration: 0.1 }',
      `controller: ${controller}`,
      'links:',
      '  - name: rod',
      '    parent: world',
      `    joint: { type: revolute, axis: [1, 0, 0]${actuators ? `, ${actuators}` : ''} }`,
      '    mass: 1',
      '    com: [0, 0.5, 0]',
      '    inertia: [0.08, 0.001, 0.08]',
      '',
    ].join('\n'),
  );
  return f;
}

describe('a scene controller module runs only when asked', () => {
  it('a bundled scene runs its own module without the flag; the same scene copied elsewhere, or a scene elsewhere naming the bundled module, is refused', async () => {
    const dir = tempDir();
    const bundled = await cli('run', join(SCENES, 'ball-on-plate.arow'), '--duration', '0.02', '--out', join(dir, 'bundled'));
    expect(bundled.code, bundled.stderr).toBe(0);
    expect(bundled.stderr).toContain("(the scene's, bundled with achilles)");

    const copy = join(dir, 'copy');
    mkdirSync(copy);
    for (const f of ['ball-on-plate.arow', 'ball-on-plate.ctrl.ts']) writeFileSync(join(copy, f), readFileSync(join(SCENES, f)));
    const copied = await cli('run', join(copy, 'ball-on-plate.arow'), '--duration', '0.02', '--out', join(dir, 'copied'));
    expect(copied.code).toBe(2);
    expect(copied.stderr).toMatch(/names a controller module, .*ball-on-plate\.ctrl\.ts, which is code and runs only when you ask/);

    const pointing = rodScene(dir, join(SCENES, 'ball-on-plate.ctrl.ts'));
    const pointed = await cli('run', pointing, '--out', join(dir, 'pointed'));
    expect(pointed.code).toBe(2);
    expect(existsSync(join(dir, 'pointed'))).toBe(false);
  });

  it('a plain run is refused (exit 2) without running the module; --allow-controller prints the notice before its code runs', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran.txt');
    writeFileSync(
      join(dir, 'ctrl.ts'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nprocess.stderr.write('TOP-LEVEL CODE\\n');\nexport default (io: { ctrl: Float64Array }) => { io.ctrl[0] = 1; };\n`,
    );
    const scene = rodScene(dir, 'ctrl.ts');
    const out = join(dir, 'out');
    const plain = await cli('run', scene, '--out', out);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /names a controller module, .*ctrl\.ts, which is code and runs only when you ask: add --allow-controller to run it, or --controller FILE/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(out)).toBe(false);

    const allowed = await cli('run', scene, '--allow-controller', '--out', out);
    expect(allowed.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const notice = allowed.stderr.indexOf('achilles run: running controller ');
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(notice).toBeLessThan(allowed.stderr.indexOf('TOP-LEVEL CODE'));
    // run.json records which controller ran, pinned by its hash
    const meta = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, unknown>;
    const m = (meta.metadata ?? meta) as Record<string, unknown>;
    expect(m.controller).toBe(join(dir, 'ctrl.ts'));
    expect(m.controller_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.controller_rate).toBe('every step');
    expect(readFileSync(join(out, 'trace.csv'), 'utf8')).toMatch(/^# controller: .*ctrl\.ts$/m);

    // --controller FILE: a module by name and a regular file, refused as a usage error before anything runs
    const py = await cli('run', scene, '--controller', join(dir, 'ctrl.py'), '--out', join(dir, 'o2'));
    expect(py.code).toBe(2);
    expect(py.stderr).toMatch(/--controller .*ctrl\.py: expected a controller module ending in \.ts, \.mts, \.js or \.mjs/);
    mkdirSync(join(dir, 'dir.ts'));
    const folder = await cli('run', scene, '--controller', join(dir, 'dir.ts'), '--out', join(dir, 'o2'));
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/--controller .*dir\.ts: found a directory, not a regular file/);
    expect(folder.stderr).not.toMatch(/running controller/);

    // both flags: one of them is meaningless
    const both = await cli('run', scene, '--allow-controller', '--controller', join(dir, 'ctrl.ts'), '--out', join(dir, 'o2'));
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give one of them/);
  }, 60_000);

  it('the API refuses a scene module unless allowed; the built-in PD needs no permission and its run records `pd (2 terms)`', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ctrl.ts'), 'export default () => {};\n');
    const model = loadScene(rodScene(dir, 'ctrl.ts'));
    await expect(resolveController(model)).rejects.toThrow(/runs only when allowed/);
    expect((await resolveController(model, { allowSceneModule: true }))?.name).toBe(join(dir, 'ctrl.ts'));
    const servo = loadScene(join(import.meta.dirname, 'fixtures', 'control', 'servo-arm.arow'));
    expect((await resolveController(servo))?.name).toBe('pd (2 terms)');
    const out = join(dir, 'pd');
    const r = await cli('run', join(import.meta.dirname, 'fixtures', 'control', 'servo-arm.arow'), '--duration', '0.02', '--out', out);
    expect(r.code).toBe(0);
    const meta = readFileSync(join(out, 'run.json'), 'utf8');
    expect(meta).toMatch(/"controller": "pd \(2 terms\)"/);
    expect(meta).toMatch(/"controller_period_steps": 1/);
  }, 60_000);
});

describe('controller and PD-target files are checked like scene files, at the scene line', () => {
  it('a missing, directory or FIFO controller module is an error at the `controller:` line when the scene loads', () => {
    const dir = tempDir();
    expect(() => loadScene(rodScene(dir, 'missing.ts'))).toThrow(
      /rod\.arow:3:\d+: controller: found `missing\.ts`: .*no such file.*expected a \.ts or \.js controller module/,
    );
    mkdirSync(join(dir, 'folder.ts'));
    expect(() => loadScene(rodScene(dir, 'folder.ts'))).toThrow(
      /rod\.arow:3:\d+: controller: found `folder\.ts`: a directory, not a regular file/,
    );
    execFileSync('mkfifo', [join(dir, 'pipe.ts')]);
    expect(() => loadScene(rodScene(dir, 'pipe.ts'))).toThrow(
      /rod\.arow:3:\d+: controller: found `pipe\.ts`: a FIFO \(named pipe\), not a regular file/,
    );
    // --controller FILE gets the same checks (before esbuild, which would block on a FIFO)
    return expect(loadControllerModule(join(dir, 'pipe.ts'))).rejects.toThrow(/pipe\.ts: found a FIFO \(named pipe\), not a regular file/);
  });

  it('a PD target CSV at /dev/zero, a FIFO or a directory is refused at its line; an error never echoes the file', () => {
    const dir = tempDir();
    const scene = (file: string) => {
      const f = join(dir, 'pd.arow');
      writeFileSync(
        f,
        `scene: pd\nworld: { dt: 0.01, duration: 0.1 }\ncontroller:\n  pd:\n    - { actuator: spin, kp: 1, target: { csv: { file: ${file}, column: a } } }\nlinks:\n  - name: rod\n    parent: world\n    joint: { type: revolute, axis: [1, 0, 0], actuators: [{ name: spin, kind: motor }] }\n    mass: 1\n    inertia: [1, 1, 1]\n`,
      );
      return f;
    };
    expect(() => loadScene(scene('/dev/zero'))).toThrow(
      /pd\.arow:5:\d+: .*csv\.file: found \/dev\/zero: a character device, not a regular file/,
    );
    execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
    expect(() => loadScene(scene('pipe.csv'))).toThrow(/pd\.arow:5:\d+: .*a FIFO \(named pipe\), not a regular file/);
    expect(() => loadScene(scene(dir))).toThrow(/pd\.arow:5:\d+: .*a directory, not a regular file/);
    writeFileSync(join(dir, 'big.csv'), `time,a\n${'0,0\n'.repeat(600_000)}`);
    expect(() => loadScene(scene('big.csv'))).toThrow(
      /pd\.arow:5:\d+: .*big\.csv: a file of 2\.\d MiB, expected a CSV file with a `time` column \(a regular text file of at most 2 MiB\)/,
    );
    // A file that is not a target table (the issue's /etc/passwd): named, its content never shown.
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0:SECRET-HOME:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n');
    let message = '';
    try {
      loadScene(scene('passwd'));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/passwd: no `time` column in its header line, expected a header line naming `time` and `a`/);
    expect(message).not.toMatch(/root|SECRET|bash/);
  });

  it('a controller on a scene without actuators is an error: at the scene line, or a usage error for --controller', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ctrl.ts'), 'export default () => {};\n');
    expect(() => loadScene(rodScene(dir, 'ctrl.ts', ''))).toThrow(
      /rod\.arow:3:\d+: controller: found a controller on a scene without actuators/,
    );
    const plain = join(dir, 'plain.arow');
    writeFileSync(plain, readFileSync(rodScene(dir, 'ctrl.ts', ''), 'utf8').replace(/^controller:.*\n/m, ''));
    const r = await cli('run', plain, '--controller', join(dir, 'ctrl.ts'), '--out', join(dir, 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--controller: .*plain\.arow declares no actuators, so a controller could write no control/);
  });
});

describe('controller failures stop the run with the controller and where', () => {
  it('a NaN control stops the run before ctrlrange clamps it: controller, actuator, robot, step; nothing written, exit 1', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'nan.ts'),
      'export default (io: { step: number; ctrl: Float64Array; stride: number }) => { io.ctrl[0] = io.step >= 3 ? Math.sqrt(-1) : 1; io.ctrl[1] = 2; };\n',
    );
    const scene = rodScene(dir, 'nan.ts');
    const model = loadScene(scene);
    const b = new Batch(model, { copies: 2, precision: 'f64', lanes: 1 });
    const loop = new ControlLoop(b, (await resolveController(model, { allowSceneModule: true }))!);
    let err: unknown;
    try {
      for (let k = 0; k < 10; k++) {
        loop.beforeStep();
        b.step(1);
      }
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NonFiniteControlError);
    expect((err as NonFiniteControlError).message).toMatch(
      /controller .*nan\.ts wrote NaN into actuator 'spin' of robot 0 at step 3 \(t = 0\.030000 s\)/,
    );
    expect(b.steps).toBe(3); // the NaN never reached a step

    const out = join(dir, 'out');
    const r = await cli('run', scene, '--allow-controller', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/wrote NaN into actuator 'spin' of robot 0 at step 3/);
    expect(r.stderr).toMatch(/no output files were written/);
    expect(existsSync(out) && readdirSync(out).length).toBeFalsy();
  }, 60_000);

  it('an exception in update() names the controller, the step and time, and its line in the .ts source', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'boom.ts'),
      "// line 1\ntype Io = { step: number };\nexport default {\n  update(io: Io) {\n    if (io.step === 2) throw new Error('boom');\n  },\n};\n",
    );
    const model = loadScene(rodScene(dir, 'boom.ts'));
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const loop = new ControlLoop(b, await loadControllerModule(join(dir, 'boom.ts')));
    let err: unknown;
    try {
      for (let k = 0; k < 5; k++) {
        loop.beforeStep();
        b.step(1);
      }
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ControllerError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^controller ${join(dir, 'boom.ts').replace(/[.]/g, '\\.')} threw in update\\(\\) at step 2 \\(t = 0\\.020000 s\\): boom\\n    at .*boom\\.ts:5:\\d+`,
      ),
    );
    // its top-level code throwing names the module and the line too
    writeFileSync(join(dir, 'top.ts'), "const n: number = 1;\nif (n === 1) throw new RangeError('bad setup');\nexport default () => {};\n");
    await expect(loadControllerModule(join(dir, 'top.ts'))).rejects.toThrow(
      /controller .*top\.ts: its top-level code threw: RangeError: bad setup\n    at .*top\.ts:2:\d+/,
    );
  });

  it('an exception in a .mjs init() names its line; a syntax error in a .mjs names file:line:column', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'init.mjs'), 'export default {\n  init() {\n    null.x;\n  },\n  update() {},\n};\n');
    const model = loadScene(rodScene(dir, 'init.mjs'));
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const loop = new ControlLoop(b, await loadControllerModule(join(dir, 'init.mjs')));
    expect(() => loop.beforeStep()).toThrow(/threw in init\(\) at step 0 \(t = 0\.000000 s\): TypeError: .*\n    at .*init\.mjs:3:\d+/);
    // through a symlink: node runs (and names) the real file, and the frame is still found
    symlinkSync(join(dir, 'init.mjs'), join(dir, 'link.mjs'));
    const viaLink = new ControlLoop(
      new Batch(model, { copies: 1, precision: 'f64', lanes: 1 }),
      await loadControllerModule(join(dir, 'link.mjs')),
    );
    expect(() => viaLink.beforeStep()).toThrow(/link\.mjs threw in init\(\).*\n    at .*init\.mjs:3:\d+/);

    writeFileSync(join(dir, 'syntax.mjs'), 'export default function (io) {\n  const a = {;\n}\n');
    await expect(loadControllerModule(join(dir, 'syntax.mjs'))).rejects.toThrow(
      /syntax\.mjs:2:14: controller module: found a syntax error \(.*\), expected a module that parses as JavaScript/,
    );
  });
});

describe('RlEnv observations', () => {
  it("expose the scene's sensor channels, read at step 0 and after every step, as a SensorBank on the same batch", () => {
    const model = loadScene(join(SCENES, 'sensor-pendulum.arow'));
    const env = new RlEnv(model, { copies: 3, precision: 'f64', lanes: 1, seed: 5 });
    const channels = env.obs.sensors.channels;
    expect(channels).toContain('white-noise');
    expect(channels).toContain('tip-imu.gx');
    expect(channels).toContain('tip-camera.x');
    const data = env.obs.sensors.data;
    // the reference: the same batch stepped alone, its own bank read after every step
    const ref = new Batch(model, { copies: 3, precision: 'f64', lanes: 1 });
    const bank = new SensorBank(ref, model.sensors!, { seed: 5 });
    bank.update();
    expect(Array.from(data)).toEqual(Array.from(bank.readings.data));
    const first = Array.from(data);
    env.step(4);
    for (let k = 0; k < 4; k++) {
      ref.step(1);
      bank.update();
    }
    expect(env.obs.sensors.data).toBe(data); // updated in place
    expect(Array.from(data)).not.toEqual(first);
    expect(Array.from(data)).toEqual(Array.from(bank.readings.data));
    env.reset();
    env.step(1);
    expect(env.time).toBeCloseTo(model.world.dt, 15);
  });
});
