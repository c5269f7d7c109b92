// What you see is what ran (issue 23): a file a scene only names (an `includes:` entry, a --config)
// may be any file, so its errors name it and say what was wrong without quoting a character of it;
// values echoed in errors are cut; a camera faster than the step rate is an error at the scene's
// line and column; a file that cannot be read says why in words.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';
import { SensorBank } from '../src/sensors/index.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const dir = tempDir();
const LINK = `  - name: a\n    parent: world\n    joint: { type: revolute, axis: [1, 0, 0] }\n    mass: 1\n    inertia: [1, 1, 1]\n`;
const SCENE = `scene: s\nlinks:\n${LINK}`;
const rawScene = (include: string): string =>
  `archetype: a\nincludes: [${JSON.stringify(include)}]\njoints:\n  - name: j\n    fields: { joint_activation_mask: 1 }\n`;

/** Files whose content must never appear in a message: plain text, a YAML mapping of secrets, a
 *  YAML list, and text that is not valid YAML (whose syntax error must not quote it either). */
const SECRET = 'hunter2-SECRET';
const foreign: [string, string][] = [
  ['text', `root:x:0:0:${SECRET}:/root:/bin/bash\ndaemon:x:1:1:${SECRET}\n`],
  ['mapping', `password: ${SECRET}\napi_${SECRET}: 1\n`],
  ['list', `- ${SECRET}\n- two\n`],
  ['bad YAML', `${SECRET}: [unclosed ${SECRET}\n  ]]] ${SECRET}\n`],
  ['a bad tag', `x: !${SECRET} 1\n`],
  ['an alias', `x: *${SECRET}\n`],
];

function errorOf(fn: () => unknown): SceneError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SceneError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('an included file is named, never quoted', () => {
  test.each(foreign)('an absolute include of %s', (kind, text) => {
    const secret = write(dir, `secret-${kind.replace(/ /g, '-')}.txt`, text);
    const e = errorOf(() => loadScene(write(dir, 'inc-abs.arow', rawScene(secret))));
    expect(e.message).toContain(secret);
    expect(e.message).not.toContain(SECRET);
    expect(e.message).not.toMatch(/root:x|password|daemon/);
  });

  test('a `../` include of a text file says it is not a YAML archetype, at the include', () => {
    write(dir, 'notes.txt', `${SECRET} line one\nline two\n`);
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const f = write(join(dir, 'sub'), 'inc-up.arow', rawScene('../notes.txt'));
    const e = expectSceneError(
      () => loadScene(f),
      2,
      12,
      `includes: found \`${join(dir, 'notes.txt')}\`: text that is not a YAML archetype`,
      'expected a raw archetype file',
    );
    expect(e.message).not.toContain(SECRET);
  });

  test('/etc/passwd as an include, a --config and a scene', () => {
    if (!existsSync('/etc/passwd')) return;
    const inc = errorOf(() => loadScene(write(dir, 'inc-passwd.arow', rawScene('/etc/passwd'))));
    const cfg = errorOf(() => loadScene(write(dir, 'ok.arow', SCENE), { config: '/etc/passwd' }));
    const scene = errorOf(() => loadScene('/etc/passwd'));
    expect(inc.message).toMatch(/^.*inc-passwd\.arow:2:12: includes: found `\/etc\/passwd`: text that is not a YAML archetype/);
    expect(cfg.message).toMatch(/^\/etc\/passwd:1:1: file: found text that is not a YAML sim config .*expected a sim_config\.yaml mapping/);
    expect(scene.message).toMatch(/^\/etc\/passwd:1:1: file: found text that is not a YAML scene/);
    for (const e of [inc, cfg, scene]) expect(e.message).not.toMatch(/root:|:0:0:|bin\/(ba)?sh/);
  });

  test('a real archetype include with a YAML error still gets its line and column', () => {
    write(dir, 'typo.arow', 'archetype: b\njoints: [\n');
    const e = errorOf(() => loadScene(write(dir, 'inc-typo.arow', rawScene('typo.arow'))));
    expect(e.file).toBe(join(dir, 'typo.arow'));
    expect(e.message).toMatch(/typo\.arow:\d+:\d+: YAML syntax: found text that is not valid YAML/);
  });
});

describe('a --config is named, never quoted', () => {
  test.each(foreign)('a --config of %s', (kind, text) => {
    const cfg = write(dir, `cfg-${kind.replace(/ /g, '-')}.txt`, text);
    const e = errorOf(() => loadScene(write(dir, 'ok.arow', SCENE), { config: cfg }));
    expect(e.message).toContain(cfg);
    expect(e.message).not.toContain(SECRET);
    expect(e.message).not.toMatch(/root:x|password|daemon/);
  });

  test('an empty mapping and a real config still load; a typo in one still gets its did-you-mean', () => {
    const s = write(dir, 'ok.arow', SCENE);
    expect(loadScene(s, { config: write(dir, 'empty.yaml', '{}\n') }).world.dt).toBe(0.002);
    expect(loadScene(s, { config: write(dir, 'c.yaml', 'dt: 0.01\n') }).world.dt).toBe(0.01);
    expectSceneError(
      () => loadScene(s, { config: write(dir, 'c2.yaml', 'dt: 0.01\nintegrater: rk4\n') }),
      2,
      1,
      'unknown key',
      'did you mean `integrator`?',
    );
  });

  test('the scene itself still shows its own YAML error text', () => {
    expectSceneError(() => loadScene(write(dir, 'own.arow', 'scene: [a\n')), 2, 1, /YAML syntax/);
    expectSceneError(
      () => loadScene(write(dir, 'own-tag.arow', `scene: s\nworld: { dt: !seconds 1 }\nlinks:\n${LINK}`)),
      2,
      14,
      'the unknown tag `!seconds`',
    );
  });
});

describe('the scene itself', () => {
  test('a scene whose only top-level keys are typos gets its did-you-mean, at the typo', () => {
    expectSceneError(
      () => loadScene(write(dir, 'typo-top.arow', `name: s\nlnks:\n${LINK}`)),
      2,
      1,
      'unknown key `lnks`',
      'did you mean `links`?',
    );
    expectSceneError(
      () => loadScene(write(dir, 'typo-raw.arow', 'archetyp: a\njoints: []\n')),
      1,
      1,
      'unknown key `archetyp`',
      'did you mean `archetype`?',
    );
  });
});

describe('values echoed in errors are cut', () => {
  const long = 'v'.repeat(100_000);
  const spaced = 'word '.repeat(20_000);
  const cases: [string, string][] = [
    ['a link name', SCENE.replace('name: a', `name: ${long}`).replace('mass: 1', 'mass: -1')],
    ['an unknown parent', SCENE.replace('parent: world', `parent: ${long}`)],
    ['an enum value', SCENE.replace('type: revolute', `type: ${long}`)],
    ['an integrator', `scene: s\nworld: { integrator: ${long} }\nlinks:\n${LINK}`],
    ['an unknown key (YAML allows 1024 characters)', `scene: s\n${'k'.repeat(1000)}: 1\nlinks:\n${LINK}`],
    [
      'a scene name with spaces, then a bad value',
      `scene: s\nlinks:\n${LINK.replace('name: a', `name: "${spaced}"`).replace('mass: 1', 'mass: x')}`,
    ],
    ['a sensor link', `${SCENE}sensors:\n  - { name: e, kind: encoder, joint: ${long} }\n`],
  ];
  test.each(cases)('%s', (_what, text) => {
    const e = errorOf(() => loadScene(write(dir, 'long.arow', text)));
    expect(e.message.length, e.message.slice(0, 300)).toBeLessThan(1500);
    expect(e.message).toMatch(/…`? \(\d+ characters\)/);
  });

  test('an include path is cut too', () => {
    const e = errorOf(() => loadScene(write(dir, 'long-inc.arow', rawScene(`${'d'.repeat(5000)}.arow`))));
    expect(e.message.length).toBeLessThan(1000);
  });
});

describe('a camera faster than the step rate', () => {
  const camera = (rate: number): string => `${SCENE}sensors:\n  - { name: cam, kind: camera, body: a, rate: ${rate} }\n`;

  test('is an error at its `rate`, in the scene', () => {
    const f = write(dir, 'cam.arow', camera(1000));
    expectSceneError(
      () => loadScene(f),
      9,
      47,
      'sensors[0] (cam).rate: found 1000 Hz, faster than the step rate 500 Hz (dt 0.002 s)',
      'expected a rate of at most 500 Hz',
    );
    expect(loadScene(write(dir, 'cam-ok.arow', camera(500))).sensors?.length).toBe(1);
  });

  test('is checked against a --config dt at load', () => {
    const f = write(dir, 'cam30.arow', camera(30));
    expectSceneError(() => loadScene(f, { config: write(dir, 'slow.yaml', 'dt: 0.05\n') }), 9, 47, 'faster than the step rate 20 Hz');
  });

  test('and against a run-time dt where the sensors are built, at the sensor', () => {
    const f = write(dir, 'cam-run.arow', camera(30));
    const model = loadScene(f);
    const batch = new Batch(model, { copies: 1, dt: 0.05 });
    const e = expectSceneError(
      () => new SensorBank(batch, model.sensors ?? [], { seed: 1 }),
      9,
      5,
      'sensors (cam).rate: found 30 Hz, faster than the step rate 20 Hz',
    );
    expect(e.file).toBe(f);
  });
});

describe('a file that cannot be read says why in words', () => {
  test('no such file, and a path through a file', () => {
    const missing = join(dir, 'nope.arow');
    expectSceneError(() => loadScene(missing), 1, 1, 'file: found no such file (ENOENT), expected a readable YAML file');
    const file = write(dir, 'plain.txt', 'x\n');
    expectSceneError(() => loadScene(join(file, 'x.arow')), 1, 1, 'no such file (a part of the path is a file, not a directory) (ENOTDIR)');
  });

  test('an include that does not exist, at the include', () => {
    expectSceneError(
      () => loadScene(write(dir, 'inc-missing.arow', rawScene('gone.arow'))),
      2,
      12,
      'includes: found',
      'gone.arow`: no such file (ENOENT)',
    );
  });
});
