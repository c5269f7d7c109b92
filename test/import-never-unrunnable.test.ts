// `achilles import` never writes a scene that the loader or `achilles run` refuses (issue 23): a
// flat mesh (MuJoCo refuses it: no convex hull) is refused at its line with MuJoCo's reason, and a model the engine finds singular is refused by import as run refuses it,
// at the link's line, with no file written.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';
import { cli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-runnable-'));
const write = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
function sceneError(f: () => unknown): SceneError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}

describe('import refuses what run would refuse', () => {
  test('an MJCF mesh whose vertices lie in a plane is refused at the mesh, as MuJoCo refuses it', () => {
    const f = write(
      'flat.xml',
      '<mujoco>\n  <asset>\n    <mesh name="plate" vertex="0 0 0  1 0 0  0 1 0  1 1 0"/>\n  </asset>\n  <worldbody>\n    <body>\n      <freejoint/>\n      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>\n      <geom type="mesh" mesh="plate"/>\n    </body>\n  </worldbody>\n</mujoco>\n',
    );
    const e = sceneError(() => importFile(f));
    expect([e.line, e.column]).toEqual([3, 24]);
    expect(e.message).toMatch(
      /found coplanar vertices, so no convex hull \(MuJoCo: "mesh has coplanar vertices, cannot compute convex hull"\)/,
    );
  });

  test('a URDF collision mesh that is flat is refused at its geometry', () => {
    write('plate.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n');
    const inertial = '<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>';
    const f = write(
      'flat.urdf',
      `<robot name="r">\n  <link name="base"/>\n  <link name="plate">${inertial}\n    <collision><geometry><mesh filename="plate.obj"/></geometry></collision>\n  </link>\n  <joint name="j" type="continuous"><parent link="base"/><child link="plate"/></joint>\n</robot>\n`,
    );
    const e = sceneError(() => importFile(f));
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/mesh filename: found coplanar vertices, so no convex hull/);
  });

  test('a singular model (two hinges on one axis): import refuses it at the link, as run does, and writes nothing', async () => {
    const f = write(
      'twin.xml',
      '<mujoco>\n  <worldbody>\n    <body name="a">\n      <joint name="j1" axis="1 0 0"/>\n      <joint name="j2" axis="1 0 0"/>\n      <geom size="0.1"/>\n    </body>\n  </worldbody>\n</mujoco>\n',
    );
    const run = sceneError(() => loadScene(f));
    expect([run.line, run.message.includes('singular model')]).toEqual([4, true]);
    const out = join(dir, 'twin.arow');
    const r = await cli('import', f, '-o', out, '--quiet');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${f}:4:7: link j1: found singular model`);
    expect(existsSync(out)).toBe(false);
  });
  test('a chain of 100,000 replicated links is judged without recursing past the stack (fuzz finding, issue 56)', async () => {
    const { readFileSync } = await import('node:fs');
    const { ROOT } = await import('./helpers/cli.js');
    const xml = readFileSync(join(ROOT, 'test', 'fixtures', 'import', 'mjcf-replicate.xml'), 'utf8');
    expect(xml).toContain('<replicate count="2" euler="0 0 90">');
    const f = write('chain.xml', xml.replace('<replicate count="2" euler="0 0 90">', '<replicate count="100000" euler="0 0 90">'));
    const r = await cli('compile', f);
    expect(r.stderr).not.toMatch(/call stack/);
    expect(r.stderr).toMatch(/found singular model/);
    expect(r.code).toBe(1);
  });
});
