// World settings in files obey the flags' limits (one table, src/engine/world-limits.ts), at
// file:line:column; raw `copies` cannot multiply a scene past the link cap; large scenes warn and
// show progress on a terminal.
import { describe, expect, test } from 'vitest';
import { runCommand } from '../src/cli/run-command.js';
import { SCENE_LINKS, WORLD_LIMITS } from '../src/engine/world-limits.js';
import { loadSceneForRun } from '../src/run/load-scene.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const dir = tempDir();
const LINK = (name: string, parent: string): string =>
  `  - name: ${name}\n    parent: ${parent}\n    joint: { type: revolute, axis: [1, 0, 0] }\n    mass: 1\n    inertia: [1, 1, 1]\n`;
const scene = (world: string): string => `scene: s\nworld: { ${world} }\nlinks:\n${LINK('a', 'world')}`;

describe('world settings in a file obey the flag limits', () => {
  test.each([
    ['substeps: 1e21', 'world.substeps', 'an integer from 1 to 1000000'],
    ['substeps: 2.5', 'world.substeps', 'an integer from 1 to 1000000'],
    ['dt: 1000', 'world.dt', 'a number from 1e-9 to 1'],
    ['dt: 0', 'world.dt', 'a number from 1e-9 to 1'],
    ['dt: 1e-300', 'world.dt', 'a number from 1e-9 to 1'],
    ['duration: 1e308', 'world.duration', 'a number from 1e-9 to 10000000'],
    ['duration: -1', 'world.duration', 'a number from 1e-9 to 10000000'],
  ])('%s', (setting, subject, expected) => {
    const col = 10 + setting.indexOf(':') + 2;
    expectSceneError(() => loadScene(write(dir, 'w.arow', scene(setting))), 2, col, `${subject}: found`, `expected ${expected}`);
  });

  test('a sim_config file too', () => {
    const s = write(dir, 'ok.arow', scene('dt: 0.01'));
    expectSceneError(
      () => loadScene(s, { config: write(dir, 'c.yaml', 'dt: 0.001\nsubsteps: 1e21\n') }),
      2,
      11,
      'substeps: found 1e+21, expected an integer from 1 to 1000000',
    );
    expectSceneError(
      () => loadScene(s, { config: write(dir, 'c2.yaml', 'dt: 1000\n') }),
      1,
      5,
      'dt: found 1000, expected a number from 1e-9 to 1',
    );
  });

  test('the limits at the edges load', () => {
    const m = loadScene(write(dir, 'edge.arow', scene('dt: 1, substeps: 1000000, duration: 1e7')));
    expect([m.world.dt, m.world.substeps, m.world.duration]).toEqual([1, 1_000_000, 1e7]);
  });

  test('the run flags use the same table', () => {
    const kind = (name: string): unknown => runCommand.options.find((o) => o.name === name)?.kind;
    for (const k of ['dt', 'duration', 'substeps'] as const) expect(kind(k)).toMatchObject(WORLD_LIMITS[k]);
  });
});

describe('scene size', () => {
  test('raw copies past the link cap are refused at `copies`, before anything is built', () => {
    write(
      dir,
      'leg.arow',
      `archetype: leg\ncopies: 1000000000\nattach: { archetype: base, joint: j }\njoints:\n  - name: k\n    fields: { joint_activation_mask: 1 }\n`,
    );
    write(dir, 'root.arow', `archetype: base\nincludes: [leg.arow]\njoints:\n  - name: j\n    fields: { joint_activation_mask: 1 }\n`);
    const t0 = performance.now();
    expectSceneError(() => loadScene(`${dir}/root.arow`), 2, 9, '1000000001 links in all', `at most ${SCENE_LINKS.max} links`);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('a large scene warns, and shows progress on a terminal only', () => {
    let text = 'scene: chain\nlinks:\n';
    for (let i = 0; i < SCENE_LINKS.large; i++) text += LINK(`l${i}`, i === 0 ? 'world' : `l${i - 1}`);
    const f = write(dir, 'chain.arow', text);
    const capture = (isTTY: boolean): string => {
      let out = '';
      const stream = { isTTY, columns: 100, write: (c: string): boolean => ((out += c), true) };
      const prev = process.env.CI;
      delete process.env.CI;
      try {
        expect(loadSceneForRun(f, { command: 'run', stream }).bodies.length).toBe(SCENE_LINKS.large);
      } finally {
        if (prev !== undefined) process.env.CI = prev;
      }
      return out;
    };
    const piped = capture(false);
    expect(piped).toMatch(/^achilles run: warning: a large scene, 1000 links \(loaded in [\d.]+ s\)/);
    expect(piped).not.toContain('\r');
    expect(capture(true)).toMatch(/load.*links/);
  });

  test('a large file announces its parse on a terminal and clears the line, also on an error', () => {
    const f = write(dir, 'big-bad.arow', `scene: s\nlinks:\n${LINK('a', 'world').repeat(3000)}  - [oops\n`);
    let out = '';
    const prev = process.env.CI;
    delete process.env.CI;
    try {
      expect(() => loadSceneForRun(f, { command: 'run', stream: { isTTY: true, write: (c: string) => ((out += c), true) } })).toThrow(
        /big-bad\.arow:\d+:\d+: YAML syntax/,
      );
    } finally {
      if (prev !== undefined) process.env.CI = prev;
    }
    expect(out).toMatch(/^achilles run: parsing .*big-bad\.arow \(\d+ KB\)…\r\x1b\[K$/);
  });

  test('a small scene says nothing', () => {
    let out = '';
    loadSceneForRun(write(dir, 'small.arow', scene('dt: 0.01')), {
      command: 'run',
      stream: { isTTY: true, write: (c: string) => ((out += c), true) },
    });
    expect(out).toBe('');
  });
});
