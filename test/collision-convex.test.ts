// The convex collider (native/include/achilles/collision/convex.hpp: MuJoCo's nativeccd GJK/EPA,
// its multiccd, and the analytic cylinder/plane colliders) through its C++ test program:
// closed forms in f32 and f64, and MuJoCo 3.14's own contacts on random pairs of every kind pair
// (native/tests/fixtures/convex_mujoco.txt, from native/tests/convex_fixture.py), and its face
// clipping of box–mesh and mesh–mesh at zero margin with MuJoCo's polygons, plus our polygons
// against MuJoCo's (fixtures/multicontact_mujoco.txt, from multicontact_fixture.py), its plane–mesh
// contacts with MuJoCo's polygons (fixtures/plane_mesh_mujoco.txt, from plane_mesh_fixture.py), and
// a cylinder with a box, a mesh or a cylinder (fixtures/cylinder_mujoco.txt, from cylinder_fixture.py).
// The collider's planted bugs are switched on in the program's bug twin.
import { describe, expect, it } from 'vitest';

const fixture = 'native/tests/fixtures/convex_mujoco.txt';
// MuJoCo 3.14's face clipping of box–mesh and mesh–mesh at zero margin, each mesh with MuJoCo's polygons
const clipFixture = 'native/tests/fixtures/multicontact_mujoco.txt';
// MuJoCo 3.14's plane–mesh contacts, each mesh with MuJoCo's polygons
const planeFixture = 'native/tests/fixtures/plane_mesh_mujoco.txt';
// ... and of a cylinder (its caps as 16-gons, its side as a segment) with a box, a mesh or a cylinder
const cylinderFixture = 'native/tests/fixtures/cylinder_mujoco.txt';

async function run(binary: string, args: string[]) {
  const { spawnAsync } = await import('./helpers/spawn-async.js'); // awaited: the worker's loop keeps turning (issue 23)
  const { root } = await import('./helpers/engine.js');
  const r = await spawnAsync(`${root}/build/native/${binary}`, [
    `${root}/${fixture}`,
    '--clip',
    `${root}/${clipFixture}`,
    '--plane',
    `${root}/${planeFixture}`,
    '--clip',
    `${root}/${cylinderFixture}`,
    ...args,
  ]);
  return { ...r, out: r.stdout };
}

describe('convex collider (native/tests/convex_tests.cpp)', () => {
  it('closed forms, and MuJoCo 3.14 contact by contact (f64 to 1e-12 of rbound), allocation-free', async () => {
    const r = await run('achilles_convex_tests', []);
    expect(r.out).toMatch(/\b\d+ passed, 0 failed/);
    expect(r.status).toBe(0);
  });
  it('the bug twin passes with no bug switched on', async () => {
    const r = await run('achilles_convex_tests_bugs', ['--quiet', '--bug', 'none']);
    expect(r.out).toMatch(/\b\d+ passed, 0 failed/);
  });
  for (const [what, script, file] of [
    ['fixture', 'convex_fixture.py', fixture],
    ['clipping fixture', 'multicontact_fixture.py', clipFixture],
    ['plane–mesh fixture', 'plane_mesh_fixture.py', planeFixture],
    ['cylinder clipping fixture', 'cylinder_fixture.py', cylinderFixture],
  ])
    it(`the ${what} is MuJoCo's answer: ${script} writes it again byte for byte`, async () => {
      const { spawnAsync } = await import('./helpers/spawn-async.js');
      const { root } = await import('./helpers/engine.js');
      const { readFileSync } = await import('node:fs');
      const r = await spawnAsync('python3', [`${root}/native/tests/${script}`]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(readFileSync(`${root}/${file}`, 'utf8'));
    });
  for (const bug of [
    'convex-epa-normal-sign',
    'convex-box-support-corner-sign',
    'contact-clip-side-skipped',
    'contact-plane-mesh-least-aligned',
    'contact-cylinder-cap-phase',
  ])
    it(`planted bug ${bug} fails the checks`, async () => {
      const r = await run('achilles_convex_tests_bugs', ['--quiet', '--bug', bug]);
      expect(r.out).toMatch(/\b\d+ passed, [1-9]\d* failed/);
      expect(r.status).toBe(1);
    });
});
