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

// Issue 56: a transform that collapses or overflows the mesh is refused at its attribute, saying what
// it is (refquat="0 0 0 0" said "a surface area below 1e-15", scale="1e308 1 1" "joints but no mass").
describe('mesh transforms that collapse or overflow the mesh', () => {
  /** The SceneError importing xml(defaults, mesh) gives, with where its attribute `attr` is. */
  const refused = (mesh: string, attr: string, defaults = ''): { e: SceneError; at: number[] } => {
    const text = xml(defaults, mesh);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(attr));
    try {
      importFile(write(text));
    } catch (e) {
      expect(e, mesh).toBeInstanceOf(SceneError);
      return { e: e as SceneError, at: [line + 1, lines[line].indexOf(attr) + 1] };
    }
    throw new Error(`${mesh}: imported`);
  };
  const QUATS = ['0 0 0 0', '1e-20 0 0 0', '1e308 1e308 0 0'];

  test('a refquat of squared norm below 1e-14 (or that overflows) is refused at refquat, as MuJoCo refuses it', () => {
    for (const q of QUATS) {
      const { e, at } = refused(`<mesh name="m" vertex="${TETRA}" refquat="${q}"/>`, 'refquat=');
      expect([e.line, e.column], q).toEqual(at);
      expect(e.message, q).toMatch(/mesh "m" refquat: found a (zero )?quaternion .*expected a rotation/);
    }
    // MuJoCo 3.14 refuses the same three (mjuu_normvec leaves them unnormalised: the mesh collapses)
    const files = QUATS.map((q) => write(xml('', `<mesh name="m" vertex="${TETRA}" refquat="${q}"/>`)));
    const r = spawnSync(
      process.env.ACHILLES_PYTHON || 'python3',
      [
        '-c',
        'import sys, mujoco\nfor f in sys.argv[1:]:\n  try:\n    mujoco.MjModel.from_xml_path(f); print("ok")\n  except Exception as e: print(str(e).splitlines()[0])',
        ...files,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(Array(3).fill('Error: mesh surface area is too small: m'));
  });

  test('a scale or refpos that takes a vertex past float32 (as MuJoCo keeps vertices) is refused at that attribute', () => {
    const scale = refused(`<mesh name="m" vertex="${TETRA}" scale="1e308 1 1"/>`, 'scale=');
    expect([scale.e.line, scale.e.column]).toEqual(scale.at);
    expect(scale.e.message).toMatch(
      /mesh "m" scale: found vertex 1 at 1e\+308 once scaled, expected a scale that keeps every vertex within float32/,
    );
    const refpos = refused(`<mesh name="m" vertex="${TETRA}" refpos="1e200 0 0"/>`, 'refpos=');
    expect([refpos.e.line, refpos.e.column]).toEqual(refpos.at);
    expect(refpos.e.message).toMatch(/mesh "m" refpos: found vertex 0 at -1e\+200 once moved by refpos/);
    // a class's default scale is reported where the class sets it
    const byClass = refused(
      `<mesh name="m" class="huge" vertex="${TETRA}"/>`,
      'scale=',
      '<default class="huge"><mesh scale="1e300 1 1"/></default>',
    );
    expect([byClass.e.line, byClass.e.column]).toEqual(byClass.at);
    expect(byClass.e.message).toMatch(/mesh "m" scale: found vertex 1 at 1e\+300 once scaled/);
  });
});
