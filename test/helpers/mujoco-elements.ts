// MuJoCo's compile of an MJCF file, element by element (python mujoco): each body's pose in its
// parent, each joint's anchor and axis and each geom's pose in its body, with names in MuJoCo's
// order; and the check that the importer's reading of the file (its IR, before links) has them
// all, named and placed as MuJoCo's. For frames, replicas and includes (issue 26).

import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { IrModel } from '../../src/model-files/import/ir.js';
import { readMjcf } from '../../src/model-files/import/mjcf/index.js';
import { Reader } from '../../src/model-files/import/read-attrs.js';
import { readXmlText } from '../../src/model-files/import/xml-file.js';
import { parseXml } from '../../src/model-files/import/xml.js';

export interface MujocoElements {
  bodies: { name: string; parent: number; pos: number[]; quat: number[] }[];
  joints: { name: string; body: number; type: number; pos: number[]; axis: number[] }[];
  geoms: { name: string; body: number; type: number; pos: number[]; quat: number[] }[];
}

const SCRIPT = `
import json, sys, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1])
print(json.dumps({
  "bodies": [{"name": m.body(b).name, "parent": int(m.body_parentid[b]) - 1, "pos": m.body_pos[b].tolist(),
              "quat": m.body_quat[b].tolist()} for b in range(1, m.nbody)],
  "joints": [{"name": m.joint(j).name, "body": int(m.jnt_bodyid[j]) - 1, "type": int(m.jnt_type[j]),
              "pos": m.jnt_pos[j].tolist(), "axis": m.jnt_axis[j].tolist()} for j in range(m.njnt)],
  "geoms": [{"name": m.geom(g).name, "body": int(m.geom_bodyid[g]) - 1, "type": int(m.geom_type[g]),
             "pos": m.geom_pos[g].tolist(), "quat": m.geom_quat[g].tolist()} for g in range(m.ngeom)],
}))
`;

/** MuJoCo's elements of the model at `path` (an absolute path: MuJoCo resolves nested includes
 *  against it), body indices without the world (-1: the world). */
export function mujocoElements(path: string): MujocoElements {
  const python = process.env.ACHILLES_PYTHON || 'python3';
  return JSON.parse(execFileSync(python, ['-c', SCRIPT, path], { encoding: 'utf8' })) as MujocoElements;
}

/** The importer's reading of an MJCF file, before it is compiled into links. */
export function readIr(path: string): IrModel {
  return readMjcf(new Reader(path), parseXml(path, readXmlText(path)), []);
}

const close = (a: readonly number[], b: readonly number[], what: string, tol = 1e-12): void => {
  expect(a.length, what).toBe(b.length);
  a.forEach((x, k) => expect(Math.abs(x - b[k]), `${what}: [${a.join(', ')}] vs MuJoCo [${b.join(', ')}]`).toBeLessThanOrEqual(tol));
};
/** Quaternions q and −q are one rotation. */
const sameRotation = (a: readonly number[], b: readonly number[], what: string): void =>
  expect(
    Math.abs(Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) - 1),
    `${what}: [${a.join(', ')}] vs MuJoCo [${b.join(', ')}]`,
  ).toBeLessThanOrEqual(1e-12);

/** Every body, joint and (non-mesh) geom of the import where MuJoCo compiles it, with its name. */
export function expectSameElements(path: string): void {
  const ir = readIr(path);
  const mj = mujocoElements(path);
  expect(ir.bodies.map((b) => b.name)).toEqual(mj.bodies.map((b, i) => b.name || ir.bodies[i].name));
  ir.bodies.forEach((b, i) => {
    expect(b.parent, b.name).toBe(mj.bodies[i].parent);
    close(b.pos, mj.bodies[i].pos, `body ${b.name} pos`);
    sameRotation(b.quat, mj.bodies[i].quat, `body ${b.name} quat`);
  });
  const joints = ir.bodies.flatMap((b, bi) => b.joints.map((j) => ({ ...j, body: bi })));
  expect(joints.map((j) => j.name)).toEqual(mj.joints.map((j, k) => j.name || joints[k].name));
  joints.forEach((j, k) => {
    expect(j.body, j.name).toBe(mj.joints[k].body);
    if (j.type === 'free') return; // MuJoCo zeroes a free joint's anchor
    close(j.pos, mj.joints[k].pos, `joint ${j.name} pos`);
    if (j.type !== 'ball') close(j.axis, mj.joints[k].axis, `joint ${j.name} axis`);
  });
  const geoms = [
    ...ir.worldGeoms.map((g) => ({ ...g, body: -1 })),
    ...ir.bodies.flatMap((b, bi) => b.geoms.map((g) => ({ ...g, body: bi }))),
  ];
  // MuJoCo numbers geoms body by body, the world's first, as the importer lists them here
  expect(geoms.map((g) => g.name)).toEqual(mj.geoms.map((g, k) => g.name || geoms[k].name));
  geoms.forEach((g, k) => {
    expect(g.body, g.name).toBe(mj.geoms[k].body);
    if (g.type === 'mesh') return; // the importer's mesh geom is the box of its bounding box
    close(g.pos, mj.geoms[k].pos, `geom ${g.name} pos`);
    sameRotation(g.quat, mj.geoms[k].quat, `geom ${g.name} quat`);
  });
}
