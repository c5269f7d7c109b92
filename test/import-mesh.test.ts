// Meshes as MuJoCo 3.14 compiles them (src/model-files/import/mesh/): each reader (binary and ASCII
// STL, OBJ with quads and negative indices, inline vertices with and without faces), scale,
// refpos/refquat, every inertia mode, geom mass and density; against MuJoCo's geom_pos, geom_quat,
// geom_size, body mass, CoM and inertia, and the hull's vertices (mesh_graph into mesh_vert). The
// two planted mesh bugs each fail here, and malformed files are refused at FILE:LINE:COL.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { setImportBug } from '../src/model-files/import/bugs.js';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';
import type { IrModel } from '../src/model-files/import/ir.js';
import { readMjcf } from '../src/model-files/import/mjcf/index.js';
import { convexHull } from '../src/engine/quickhull.js';
import { readObj } from '../src/model-files/import/mesh/read-obj.js';
import { readBinaryStl } from '../src/model-files/import/mesh/read-stl.js';
import { Reader } from '../src/model-files/import/read-attrs.js';
import { readXmlText } from '../src/model-files/import/xml-file.js';
import { parseXml } from '../src/model-files/import/xml.js';
import { HULL_BAR_ULPS, hullUlps } from '../src/validation/import/hull-gate.js';
import { meshFixture, meshModel, meshRefModel } from './helpers/mesh-models.js';

const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const HELPER = new URL('./helpers/mesh_ref.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'achilles-mesh-'));
const write = (name: string, text: string | Buffer): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

interface MjBody {
  name: string;
  mass: number;
  ipos: number[];
  inertia: number[];
}
interface MjGeom {
  name: string;
  body: string;
  pos: number[];
  quat: number[];
  size: number[];
  hull: number[] | null;
}

/** MuJoCo's compile of `path` in a process of its own (its mesh cache lives per process). */
function mujocoOf(path: string): { bodies: MjBody[]; geoms: MjGeom[] } {
  const r = spawnSync(PYTHON, [HELPER, path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout)[0];
}

const irOf = (path: string): IrModel => readMjcf(new Reader(path), parseXml(path, readXmlText(path)), []);

/** Bars, from the agreement measured on these fixtures (largest seen, in brackets):
 *  - mass and CoM: the same sums in the same order, so double round-off: 1e-14 relative [3e-16];
 *  - frame (quat) and inertia in body axes: MuJoCo 3.14's Jacobi iteration (mjuu_eig3) stops once the
 *    off-diagonal is at most 1e-7 of the tensor's largest entry, so its principal frame is itself
 *    settled only to that; ours runs the same iteration on inputs equal up to round-off: 1e-10 [3.8e-12];
 *  - geom size: the largest |coordinate| in that frame, so the frame's bar [3.5e-12];
 *  - hull vertices: float32, as mesh_vert: within HULL_BAR_ULPS float32 ulps of the hull's size [1]. */
const BAR = { mass: 1e-14, pos: 1e-14, frame: 1e-10 };

const maxAbs = (a: readonly number[], b: readonly number[]): number => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
const scaleOf = (b: readonly number[]): number => Math.max(1e-300, ...b.map(Math.abs));

/** Every disagreement of the importer's IR with MuJoCo beyond the bars (empty when they agree). */
function disagreements(ir: IrModel, mj: { bodies: MjBody[]; geoms: MjGeom[] }): string[] {
  const out: string[] = [];
  const check = (what: string, err: number, bar: number): void => {
    if (!(err <= bar)) out.push(`${what}: ${err.toExponential(2)} > ${bar}`);
  };
  expect(ir.bodies.map((b) => b.name)).toEqual(mj.bodies.map((b) => b.name));
  ir.bodies.forEach((b, i) => {
    const m = mj.bodies[i];
    check(`${b.name} mass`, Math.abs(b.mass - m.mass) / m.mass, BAR.mass);
    check(`${b.name} ipos`, maxAbs(b.ipos, m.ipos) / scaleOf(m.ipos), BAR.pos);
    check(`${b.name} inertia`, maxAbs(b.inertia, m.inertia) / scaleOf(m.inertia), BAR.frame);
  });
  const geoms = ir.bodies.flatMap((b) => b.geoms);
  expect(geoms.map((g) => g.name)).toEqual(mj.geoms.map((g) => g.name));
  geoms.forEach((g, i) => {
    const m = mj.geoms[i];
    check(`${g.name} pos`, maxAbs(g.pos, m.pos) / Math.max(1, scaleOf(m.pos)), BAR.pos);
    check(
      `${g.name} quat (up to sign)`,
      Math.min(
        maxAbs(g.quat, m.quat),
        maxAbs(
          g.quat,
          m.quat.map((x) => -x),
        ),
      ),
      BAR.frame,
    );
    check(`${g.name} size`, maxAbs(g.size, m.size) / scaleOf(m.size), BAR.frame);
    out.push(...hullDisagreement(g.name, g.hull?.vert, m.hull));
  });
  return out;
}

/** The hull vertex sets differ (hull-gate.ts: the same count, one-to-one within the bar). */
function hullDisagreement(name: string, ours: number[] | undefined, theirs: number[] | null): string[] {
  if (!ours || !theirs) return ours || theirs ? [`${name} hull: ${ours ? 'ours only' : "MuJoCo's only"}`] : [];
  if (ours.length !== theirs.length) return [`${name} hull: ${ours.length / 3} vertices, MuJoCo ${theirs.length / 3}`];
  const ulps = hullUlps(ours, theirs);
  return ulps <= HULL_BAR_ULPS ? [] : [`${name} hull: a vertex more than ${HULL_BAR_ULPS} float32 ulps from MuJoCo's`];
}

const model = write('meshes.xml', meshModel());
const asciiModel = write('meshes-ascii.xml', meshModel('wedge-ascii.stl'));
const refModel = write('mesh-ref.xml', meshRefModel());

describe('meshes against MuJoCo 3.14', () => {
  afterEach(() => setImportBug('none'));

  test('geom frames, sizes, body inertias and hull vertex sets of every case agree', () => {
    const mj = mujocoOf(model);
    expect(disagreements(irOf(model), mj)).toEqual([]);
    // the ASCII STL reads into the same triangles as the binary one MuJoCo compiles
    expect(disagreements(irOf(asciiModel), mj)).toEqual([]);
    // refpos and refquat, compiled by MuJoCo in a process of its own (see meshRefModel)
    expect(disagreements(irOf(refModel), mujocoOf(refModel))).toEqual([]);
  });

  // Meshes of 5 mm to 2 cm: their inertia tensors (~1e-12 to 1e-8) lie below 3.12's absolute stop of
  // 1e-12, which had left them unturned, radians from MuJoCo 3.14's frame (eig3.ts); 3.14's stop is
  // relative to the tensor, so they reach MuJoCo's frame as large meshes do.
  test('small meshes: the same frame and inertia as MuJoCo 3.14', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296) * 2 - 1;
    const sizes = [0.005, 0.005, 0.01, 0.01, 0.02, 0.02];
    const meshes = sizes.map((size, i) => {
      const v = Array.from({ length: 3 * (10 + 3 * i) }, (_, k) => (rnd() * size * [1, 0.8, 0.6][k % 3]).toPrecision(6));
      return `<mesh name="m${i}" vertex="${v.join(' ')}"/>`;
    });
    const bodies = sizes.map(
      (_, i) => `<body name="b${i}" pos="${i} 0 0"><freejoint/><geom name="g${i}" type="mesh" mesh="m${i}"/></body>`,
    );
    const small = write(
      'small-meshes.xml',
      `<mujoco><asset>${meshes.join('')}</asset><worldbody>${bodies.join('')}</worldbody></mujoco>\n`,
    );
    expect(disagreements(irOf(small), mujocoOf(small))).toEqual([]);
  });

  test('planted bug import-mesh-hull-drops-vertex fails the hull comparison', () => {
    const mj = mujocoOf(model);
    setImportBug('import-mesh-hull-drops-vertex');
    const bad = disagreements(irOf(model), mj);
    expect(bad.filter((m) => m.includes(' hull: ')).length).toBeGreaterThan(0);
    expect(bad.every((m) => m.includes(' hull: '))).toBe(true);
  });

  test('planted bug import-mesh-inertia-about-origin fails the body inertia and frame comparisons', () => {
    const mj = mujocoOf(model);
    setImportBug('import-mesh-inertia-about-origin');
    const bad = disagreements(irOf(model), mj);
    expect(bad.some((m) => /^stl inertia/.test(m))).toBe(true);
    expect(bad.some((m) => /^stl quat/.test(m))).toBe(true);
  });

  test("faces as MuJoCo's decoders number them: STL vertices merged in order, OBJ quads split on the shorter diagonal, polygons fanned", () => {
    const pent = write(
      'poly.obj',
      [
        'v 0 0 0',
        'v 3 0 0',
        'v 3.5 1 0',
        'v 0 1 0',
        'v 0 0 1',
        'v 3 0 1',
        'v 3.5 1 1',
        'v 0 1 1',
        'v 1.75 1.5 0.5',
        'f 2 1 4 3', // |p2 − p0| < |p3 − p1|: (0,1,2),(0,2,3)
        'f 5 6 7 8', // the other diagonal: (0,1,3),(1,2,3)
        'f 1 2 6 5',
        'f 2 3 7 6',
        'f 3 9 8 7', // not planar-rectangular: whichever diagonal is shorter
        'f 3 4 9',
        'f 4 8 9',
        'f 4 1 5 8',
        '',
      ].join('\n'),
    );
    const r = spawnSync(
      PYTHON,
      [
        '-c',
        `import sys, json, mujoco
out = []
for f in sys.argv[1:]:
    x = '<mujoco><asset><mesh name="m" file="%s"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>' % f
    m = mujoco.MjModel.from_xml_string(x)
    out.append({"nv": int(m.mesh_vertnum[0]), "face": m.mesh_face.flatten().tolist()})
print(json.dumps(out))`,
        meshFixture('wedge.stl'),
        pent,
        meshFixture('lshape.obj'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const [stl, poly, l] = JSON.parse(r.stdout) as { nv: number; face: number[] }[];
    const ours = readBinaryStl(readFileSync(meshFixture('wedge.stl')), 'wedge.stl');
    expect([ours.vert.length / 3, ours.face]).toEqual([stl.nv, stl.face]);
    for (const [file, ref] of [
      [pent, poly],
      [meshFixture('lshape.obj'), l],
    ] as const) {
      const o = readObj(readFileSync(file, 'utf8'), file);
      expect([o.vert.length / 3, o.face], file).toEqual([ref.nv, ref.face]);
    }
  });
});

test('an OBJ face of 100,000 corners is split, not spread onto the call stack (fuzz finding, issue 56)', () => {
  const n = 100_000;
  const v = Array.from({ length: n }, (_, k) => `v ${Math.cos((2 * Math.PI * k) / n)} ${Math.sin((2 * Math.PI * k) / n)} 0`);
  const text = `${v.join('\n')}\nf ${Array.from({ length: n }, (_, k) => k + 1).join(' ')}\n`;
  // its corners 6e-5 rad apart are too nearly collinear to be convex in the splitter's float test:
  // refused at its line, as a polygon, where a RangeError came out of the reader before
  expect(() => readObj(text, 'disc.obj')).toThrow(/^disc\.obj:100001:1: OBJ face: found a non-convex polygon of 100000 vertices/);
  // a quad's worth of corners repeated: split and written into its slots
  const square = `v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf ${Array.from({ length: n }, (_, k) => (k % 4) + 1).join(' ')}\n`;
  let split: number[] | undefined;
  try {
    split = readObj(square, 'square.obj').face;
  } catch (e) {
    expect(e).not.toBeInstanceOf(RangeError);
  }
  if (split) expect(split.every((i) => i >= 0 && i < 4)).toBe(true);
});

describe("the quickhull against MuJoCo's qhull", () => {
  test('the same hull vertices on clouds with coplanar, collinear and interior points', () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const f32 = (x: number): number => Math.fround(Number(x.toPrecision(7)));
    const clouds: Record<string, number[]> = { box: [], sphere: [], grid: [], rings: [], boxSurface: [] };
    for (let i = 0; i < 300; i++) clouds.box.push(f32(rnd() - 0.5));
    for (let i = 0; i < 300; i++) {
      const u = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      clouds.sphere.push(...u.map((c) => f32(c / Math.hypot(...u))));
    }
    // a 4x4x4 grid: 8 corners, the rest on the hull's faces and edges or inside
    for (let i = 0; i < 64; i++) clouds.grid.push(f32((i % 4) / 3), f32((Math.floor(i / 4) % 4) / 3), f32(Math.floor(i / 16) / 3));
    // three rings of a cylinder: the middle one lies on the side faces
    for (let i = 0; i < 24; i++)
      for (const z of [0, 0.3, 1]) clouds.rings.push(f32(Math.cos((i * Math.PI) / 12)), f32(Math.sin((i * Math.PI) / 12)), z);
    // points on a cube's faces: only those at its corners and edges' ends count
    for (let i = 0; i < 400; i++) {
      const p = [rnd(), rnd(), rnd()];
      p[i % 3] = i % 2 ? 0 : 1;
      clouds.boxSurface.push(...p.map(f32));
    }
    const r = spawnSync(
      PYTHON,
      [
        '-c',
        `import sys, json, mujoco
out = {}
for k, v in json.loads(sys.stdin.read()).items():
    x = '<mujoco><asset><mesh name="m" vertex="%s"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>' % ' '.join(repr(c) for c in v)
    m = mujoco.MjModel.from_xml_string(x)
    adr = m.mesh_graphadr[0]; nv = int(m.mesh_graph[adr])
    out[k] = sorted(m.mesh_graph[adr + 2 + nv: adr + 2 + 2 * nv].tolist())
print(json.dumps(out))`,
      ],
      { input: JSON.stringify(clouds), encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const mj = JSON.parse(r.stdout) as Record<string, number[]>;
    for (const [k, v] of Object.entries(clouds)) expect(convexHull(v).vert, k).toEqual(mj[k]);
  });
});

describe('malformed meshes are refused at FILE:LINE:COL with what was expected', () => {
  const withMesh = (file: string): string =>
    write(
      `m-${file.replace(/[^a-z0-9.]/gi, '_')}.xml`,
      `<mujoco><compiler meshdir="${dir}"/><asset><mesh name="m" file="${file}"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>`,
    );
  const errorOf = (xml: string): string => {
    try {
      importFile(xml);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  test("a truncated binary STL, and one whose count exceeds MuJoCo's limit", () => {
    const stl = readFileSync(meshFixture('wedge.stl'));
    write('cut.stl', stl.subarray(0, stl.length - 7));
    expect(errorOf(withMesh('cut.stl'))).toContain(
      `${join(dir, 'cut.stl')}:1:1: binary STL: found 577 bytes for 10 triangles (truncated), expected 84 + 50 x 10 = 584 bytes`,
    );
    const big = Buffer.alloc(84);
    big.writeUInt32LE(300_000, 80);
    write('big.stl', big);
    expect(errorOf(withMesh('big.stl'))).toMatch(
      /big\.stl:1:1: binary STL: found a triangle count of 300000, expected 1 to 200000 triangles/,
    );
  });

  test('an OBJ face with an out-of-range index, and a non-number, name the line and column', () => {
    write('range.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\n');
    expect(errorOf(withMesh('range.obj'))).toContain(
      `${join(dir, 'range.obj')}:6:7: OBJ face: found vertex index 9, expected an index from 1 to 4`,
    );
    write('neg.obj', 'v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 1 0\n');
    expect(errorOf(withMesh('neg.obj'))).toContain('neg.obj:3:9: OBJ face: found vertex index -3 (2 vertices read so far)');
    write('nan.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1x\nf 1 2 3\n');
    expect(errorOf(withMesh('nan.obj'))).toContain(`${join(dir, 'nan.obj')}:4:7: OBJ vertex: found '1x', expected a number`);
  });

  test('an OBJ of vertices alone takes its hull as faces, as MuJoCo; one of lines alone is refused', () => {
    write('verts.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.1 0.1 0.1\n');
    const xml = withMesh('verts.obj');
    expect(irOf(xml).bodies[0].mass).toBeCloseTo(mujocoOf(xml).bodies[0].mass, 10);
    write('lines.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nl 1 2 3\n');
    expect(errorOf(withMesh('lines.obj'))).toContain('lines.obj:5:1: OBJ: found line elements (l) and no faces');
  });

  test('an ASCII STL with a non-number or a missing keyword', () => {
    const text = readFileSync(meshFixture('wedge-ascii.stl'), 'utf8').split('\n');
    write('bad.stl', [...text.slice(0, 4), '      vertex 0.5 abc 0.3', ...text.slice(5)].join('\n'));
    expect(errorOf(withMesh('bad.stl'))).toContain(`${join(dir, 'bad.stl')}:5:18: ASCII STL: found 'abc', expected a number`);
    write('noloop.stl', [...text.slice(0, 2), ...text.slice(3)].join('\n'));
    expect(errorOf(withMesh('noloop.stl'))).toContain("noloop.stl:3:7: ASCII STL: found 'vertex', expected 'outer loop'");
  });

  test('a file over the size limit is refused before it is read; flat and too-small meshes as MuJoCo refuses them', () => {
    const huge = write('huge.obj', '');
    truncateSync(huge, 65 * 1024 * 1024); // sparse: nothing is written
    expect(errorOf(withMesh('huge.obj'))).toMatch(
      /mesh "m" file: found .*huge\.obj: 68157440 bytes, over the 67108864-byte limit for a mesh file/,
    );
    const inline = (v: string): string =>
      write(
        'flat.xml',
        `<mujoco><asset><mesh name="m" vertex="${v}"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>`,
      );
    const flat = inline('0 0 0  1 0 0  0 1 0  1 1 0');
    expect(errorOf(flat)).toMatch(/flat\.xml:1:\d+: mesh "m": found coplanar vertices, so no convex hull/);
    const mj = spawnSync(PYTHON, ['-c', 'import sys, mujoco; mujoco.MjModel.from_xml_path(sys.argv[1])', flat], { encoding: 'utf8' });
    expect(mj.stderr).toMatch(/coplanar vertices, cannot compute convex hull/);
    expect(errorOf(inline('0 0 0  1 0 0  0 1 0'))).toMatch(/mesh "m": found 3 vertices, expected at least 4 vertices/);
  });

  test('300 mutated mesh files (bytes changed, cut, repeated) import cleanly or fail with a SceneError', () => {
    let seed = 3;
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const sources = ['wedge.stl', 'wedge-ascii.stl', 'lshape.obj'].map((f) => readFileSync(meshFixture(f)));
    const xml = { stl: withMesh('fuzz.stl'), obj: withMesh('fuzz.obj') };
    for (let i = 0; i < 300; i++) {
      let b = Buffer.from(sources[i % 3]);
      for (let k = Math.floor(rnd() * 4); k >= 0; k--) {
        const at = Math.floor(rnd() * b.length);
        const op = Math.floor(rnd() * 4);
        if (op === 0) b[at] = Math.floor(rnd() * 256);
        else if (op === 1) b = b.subarray(0, at);
        else if (op === 2) b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + 20), b.subarray(at)]);
        else b[at] = '0123456789-.e \n/'.charCodeAt(Math.floor(rnd() * 16));
      }
      const ext = i % 3 === 2 ? 'obj' : 'stl';
      write(`fuzz.${ext}`, b);
      try {
        importFile(xml[ext]);
      } catch (e) {
        expect(e, `case ${i}`).toBeInstanceOf(SceneError);
      }
    }
  });
});
