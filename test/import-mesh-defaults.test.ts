// A mesh takes its class's <default><mesh scale> as MuJoCo does (issue 23: the default was ignored,
// so a model in millimetres with <default><mesh scale="0.001 ..."/> imported 1000 times too large);
// refpos/refquat move the mesh frame (test/import-mesh.test.ts compares them with MuJoCo), and a
// mesh class no default defines is refused at its line.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-mesh-'));
const TETRA = '0 0 0  1 0 0  0 1 0  0 0 1';
const xml = (defaults: string, meshes: string): string => `<mujoco>
  <default>${defaults}</default>
  <asset>${meshes}</asset>
  <worldbody>
    <body name="a">
      <freejoint/>
      <geom type="mesh" mesh="m"/>
    </body>
  </worldbody>
</mujoco>
`;
let n = 0;
const write = (text: string): string => {
  const f = join(dir, `m${n++}.xml`);
  writeFileSync(f, text);
  return f;
};

describe('mesh defaults', () => {
  test("the main class's and a named class's mesh scale are applied; the mesh's own scale wins", () => {
    // the unit tetrahedron's volume is 1/6: the body (density 1000) weighs 1000/6 times the scale's product
    const mass = (f: string): number => importFile(f).model.bodies[0].mass / (1000 / 6);
    expect(mass(write(xml('<mesh scale="2 2 2"/>', `<mesh name="m" vertex="${TETRA}"/>`)))).toBeCloseTo(8, 12);
    expect(
      mass(write(xml('<default class="big"><mesh scale="3 1 1"/></default>', `<mesh name="m" class="big" vertex="${TETRA}"/>`))),
    ).toBeCloseTo(3, 12);
    expect(mass(write(xml('<mesh scale="2 2 2"/>', `<mesh name="m" scale="1 1 1" vertex="${TETRA}"/>`)))).toBeCloseTo(1, 12);
  });

  test("MuJoCo applies the default scale too (the mesh's volume, so the body's mass, grows 8 times)", () => {
    const files = [
      write(xml('<mesh scale="2 2 2"/>', `<mesh name="m" vertex="${TETRA}"/>`)),
      write(xml('', `<mesh name="m" vertex="${TETRA}"/>`)),
    ];
    const r = spawnSync(
      process.env.ACHILLES_PYTHON || 'python3',
      ['-c', 'import sys, mujoco; print(*[mujoco.MjModel.from_xml_path(f).body_mass[1] for f in sys.argv[1:]])', ...files],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const [scaled, plain] = r.stdout.trim().split(' ').map(Number);
    expect(scaled / plain).toBeCloseTo(8, 9);
  });

  test('a mesh class no default defines is refused at its attribute', () => {
    for (const [mesh, what] of [[`<mesh name="m" class="nope" vertex="${TETRA}"/>`, /'nope', which no <default> defines/]] as const) {
      let e: unknown;
      try {
        importFile(write(xml('', mesh)));
      } catch (x) {
        e = x;
      }
      expect(e, mesh).toBeInstanceOf(SceneError);
      expect((e as SceneError).line, mesh).toBe(3);
      expect((e as SceneError).message, mesh).toMatch(what);
    }
  });
});
