// Bounded input (issue 7): scene, include and config files must be regular text files below a
// size cap; the first YAML error is found in time linear in the file (no per-error line copy);
// YAML corner cases are reported in our words.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { MAX_SCENE_BYTES } from '../src/model-files/common/text-file.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const dir = tempDir();
const LINK = `  - name: a\n    parent: world\n    joint: { type: revolute, axis: [1, 0, 0] }\n    mass: 1\n    inertia: [1, 1, 1]\n`;
const scene = (world = ''): string => `scene: s\n${world}links:\n${LINK}`;

describe('only regular text files are read', () => {
  test('a FIFO is refused at once instead of blocking', () => {
    const fifo = join(dir, 'pipe.arow');
    execFileSync('mkfifo', [fifo]);
    expectSceneError(() => loadScene(fifo), 1, 1, 'a FIFO (named pipe), not a regular file');
  });

  test('a character device (/dev/zero grows without end) is refused', () => {
    expectSceneError(() => loadScene('/dev/zero'), 1, 1, 'a character device, not a regular file');
  });

  test('a directory is refused', () => {
    expectSceneError(() => loadScene(dir), 1, 1, 'a directory');
  });

  test('a file over the size cap is refused with its size, unread', () => {
    const f = write(dir, 'huge.arow', `scene: s\n#${'x'.repeat(MAX_SCENE_BYTES)}\n`);
    expectSceneError(() => loadScene(f), 1, 1, /a file of 2\.0 MiB, expected at most 2\.0 MiB/);
  });

  test('binary data is "not a text scene" and its bytes are not echoed', () => {
    const f = join(dir, 'bin.arow');
    writeFileSync(f, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x41, 0x42]));
    const e = expectSceneError(() => loadScene(f), 1, 1, 'not a text scene', 'a NUL byte');
    expect(e.message).not.toMatch(/ELF|AB/);
  });

  test('invalid UTF-8 and control bytes point at their line and column', () => {
    const f = join(dir, 'latin1.arow');
    writeFileSync(f, Buffer.concat([Buffer.from('scene: s\nlinks: caf'), Buffer.from([0xe9, 0x0a])]));
    expectSceneError(() => loadScene(f), 2, 11, 'not UTF-8', 'not a text scene');
    expectSceneError(() => loadScene(write(dir, 'bell.arow', 'scene: s\n  \x07\n')), 2, 3, 'control byte 0x07');
  });

  test('UTF-16 is named', () => {
    const f = join(dir, 'utf16.arow');
    writeFileSync(f, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(scene(), 'utf16le')]));
    expectSceneError(() => loadScene(f), 1, 1, 'UTF-16', 'save the file as UTF-8');
  });

  test('XML: MJCF and URDF are imported (an empty one says what it lacks), other XML is named', () => {
    const mj = write(dir, 'arm.xml', '<?xml version="1.0"?>\n<!-- an arm -->\n<mujoco model="arm"><worldbody/></mujoco>\n');
    expectSceneError(() => loadScene(mj), 3, 1, '<worldbody>', 'no bodies', 'at least one <body>');
    expectSceneError(() => loadScene(write(dir, 'r.urdf', '<robot name="r"><link name="a"/></robot>')), 1, 1, 'no link that moves');
    expectSceneError(() => loadScene(write(dir, 'x.xml', '<svg/>')), 1, 1, '<svg>, an XML root that is neither MJCF nor URDF');
  });

  test('an include that is not a regular text file is reported at the include', () => {
    const fifo = join(dir, 'inc-pipe.arow');
    execFileSync('mkfifo', [fifo]);
    const f = write(
      dir,
      'raw-inc.arow',
      `archetype: a\nincludes: [inc-pipe.arow, /dev/zero]\njoints:\n  - name: j\n    fields: { joint_activation_mask: 1 }\n`,
    );
    expectSceneError(() => loadScene(f), 2, 12, 'inc-pipe.arow', 'FIFO');
  });

  test('--config files get the same checks', () => {
    const s = write(dir, 'ok.arow', scene());
    expectSceneError(() => loadScene(s, { config: '/dev/zero' }), 1, 1, 'character device');
    expectSceneError(() => loadScene(s, { config: write(dir, 'cfg.xml', '<mujoco/>') }), 1, 1, 'MJCF');
  });
});

describe('the first YAML error comes in time linear in the file', () => {
  // Before: 96,000 errors on one 96 KB line each copied the line into its message (40 s here).
  // Measured after: ~0.2 s for 96 KB and ~2 s at the 2 MiB cap (the CST pass), on this machine.
  // The bound is generous (2 shared cores) but far below the old quadratic time.
  test.each([
    ['one line of 200,000 `]`', ']'.repeat(200_000), 1, 1, 'Unexpected flow-seq-end'],
    ['a 200 KB flow list of commas', `[${','.repeat(200_000)}]`, 1, 3, 'Unexpected , in flow sequence'],
    ['60,000 anchors', '&a '.repeat(60_000), 1, 4, 'at most one anchor'],
  ])('%s', (_name, text, line, col, what) => {
    const f = write(dir, 'big-bad.arow', text);
    const t0 = performance.now();
    expectSceneError(() => loadScene(f), line, col, what);
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  test('a deep nesting is "nested too deeply", not a stack-overflow message', () => {
    // The column is where the stack ran out, which depends on the stack size.
    expect(() => loadScene(write(dir, 'deep.arow', '['.repeat(30_000)))).toThrow(
      /deep\.arow:1:\d+: YAML syntax: found collections nested too deeply to read/,
    );
  });

  test('a huge string is cut in the message', () => {
    const e = expectSceneError(() => loadScene(write(dir, 'long.arow', `scene: [${'k'.repeat(50_000)}]\nlinks:\n${LINK}`)), 1, 8, 'scene');
    expect(e.message.length).toBeLessThan(400);
  });
});

describe('YAML in our words', () => {
  test('a second document: no library advice', () => {
    const e = expectSceneError(
      () => loadScene(write(dir, 'two.arow', `${scene()}---\n${scene()}`)),
      8,
      1,
      'a second YAML document',
      'one document per file',
    );
    expect(e.message).not.toMatch(/parseAllDocuments/);
  });

  test('`!!float 1` is the number 1 (YAML 1.2 core schema), a bad one says so', () => {
    const m = loadScene(write(dir, 'f.arow', scene('world: { dt: !!float 1e-3, duration: !!float 1, substeps: !!int 2 }\n')));
    expect([m.world.dt, m.world.duration, m.world.substeps]).toEqual([1e-3, 1, 2]);
    expectSceneError(
      () => loadScene(write(dir, 'fb.arow', scene('world: { dt: !!float fast }\n'))),
      2,
      14,
      '`fast` tagged `!!float`, which is not a number',
    );
    expectSceneError(() => loadScene(write(dir, 'fm.arow', scene('world: { dt: !!str 1 }\n'))), 2, 20, 'the string "1", expected a number');
  });

  test('an unknown tag is an error, not a silent string', () => {
    expectSceneError(() => loadScene(write(dir, 't.arow', scene('world: { dt: !seconds 0.01 }\n'))), 2, 14, 'the unknown tag `!seconds`');
  });

  test('an alias is refused, saying why', () => {
    const text = `scene: s\nlinks:\n  - &first\n    name: a\n    parent: world\n    joint: { type: revolute, axis: [1, 0, 0] }\n    mass: 1\n    inertia: [1, 1, 1]\n  - *first\n`;
    expectSceneError(
      () => loadScene(write(dir, 'alias.arow', text)),
      9,
      5,
      'the alias `*first`',
      'do not support YAML anchors and aliases',
    );
  });

  test('an anchor alone is harmless', () => {
    expect(loadScene(write(dir, 'anchor.arow', scene('world: &w { dt: 0.01 }\n'))).world.dt).toBe(0.01);
  });
});
