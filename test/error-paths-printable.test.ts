// A model file whose path holds a newline or a terminal escape (a name anyone can give a file) is
// named with those characters escaped: the message stays one line and prints no escape sequence
// (errors.ts printable()). The raw path stays on the error for programs (SceneError.file).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SceneError } from '../src/model-files/common/errors.js';
import { importFile } from '../src/model-files/import/index.js';
import { cli, tempDir } from './helpers/cli.js';

const dir = tempDir('achilles-paths-');
const sub = join(dir, 'a\nb\x1b[31m');
mkdirSync(sub);
const file = join(sub, 'm.xml');
writeFileSync(file, '<mujoco>\n  <worldbody>\n    <geom size="-1"/>\n  </worldbody>\n</mujoco>\n');
const shown = join(dir, 'a\\nb\\x1b[31m', 'm.xml');

test('a path with control characters is printed escaped, at its line and column', async () => {
  let e: unknown;
  try {
    importFile(file);
  } catch (x) {
    e = x;
  }
  expect(e).toBeInstanceOf(SceneError);
  expect((e as SceneError).file).toBe(file);
  expect((e as SceneError).message.startsWith(`${shown}:3:11: `)).toBe(true);
  // eslint-disable-next-line no-control-regex
  expect((e as SceneError).message).not.toMatch(/[\x00-\x1f]/);
  const r = await cli('compile', file);
  expect(r.code).toBe(1);
  expect(r.stderr.startsWith(`${shown}:3:11: `)).toBe(true);
  expect(r.stderr.trimEnd()).not.toContain('\n');
});
