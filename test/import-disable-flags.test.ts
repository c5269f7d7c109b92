// MJCF <flag X="disable"> for contact, limit, frictionloss, spring, damper and constraint (issue 23):
// the import builds the model MuJoCo runs, the same model without those features. Proven in two
// halves: our import of the flagged file equals our import of the file with the features removed,
// and MuJoCo's q̈ for the flagged file equals its q̈ for the edited file at a state where every
// feature acts (limits violated, the sphere inside the floor, velocities nonzero), while it differs
// from the unflagged file's (so the comparison is not vacuous).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-flags-'));
const JOINTS = {
  hinge: {
    range: 'range="-10 10"',
    damping: 'damping="0.3"',
    stiffness: 'stiffness="2" springref="5"',
    frictionloss: 'frictionloss="0.2"',
  },
  slide: { range: 'range="-0.1 0.1"', damping: 'damping="0.5"', stiffness: 'stiffness="3"', frictionloss: 'frictionloss="0.1"' },
  tendon: { range: 'range="-0.2 0.2"', damping: 'damping="0.2"', stiffness: 'stiffness="1"', frictionloss: 'frictionloss="0.05"' },
};
type Feature = 'range' | 'damping' | 'stiffness' | 'frictionloss' | 'contact';
const OFF: Record<string, Feature[]> = {
  contact: ['contact'],
  limit: ['range'],
  frictionloss: ['frictionloss'],
  spring: ['stiffness'],
  damper: ['damping'],
  constraint: ['contact', 'range', 'frictionloss'],
};

function model(flag: string | undefined, without: Feature[]): string {
  const attrs = (j: keyof typeof JOINTS): string =>
    (Object.entries(JOINTS[j]) as [Feature, string][])
      .filter(([f]) => !without.includes(f))
      .map(([, a]) => a)
      .join(' ');
  const geoms = !without.includes('contact');
  return `<mujoco>
  <option>${flag ? `<flag ${flag}="disable"/>` : ''}</option>
  <worldbody>
    <geom type="plane" size="2 2 0.1" ${geoms ? '' : 'contype="0" conaffinity="0"'}/>
    <body name="arm" pos="0 0 0.5">
      <joint name="hinge" axis="0 1 0" ${attrs('hinge')}/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05" ${geoms ? '' : 'contype="0" conaffinity="0"'}/>
      <body name="fore" pos="0.4 0 0">
        <joint name="slide" type="slide" axis="1 0 0" ${attrs('slide')}/>
        <geom type="sphere" size="0.08" ${geoms ? '' : 'contype="0" conaffinity="0"'}/>
      </body>
    </body>
  </worldbody>
  <tendon><fixed name="t" ${attrs('tendon')}><joint joint="hinge" coef="0.3"/><joint joint="slide" coef="1"/></fixed></tendon>
</mujoco>
`;
}
let n = 0;
const write = (xml: string): string => {
  const f = join(dir, `m${n++}.xml`);
  writeFileSync(f, xml);
  return f;
};
/** The model without its source positions (which differ between the two files). */
const shape = (f: string): unknown =>
  JSON.parse(JSON.stringify(importFile(f).model, (k, v) => (k === 'source' || k === 'files' ? undefined : v)));

/** MuJoCo's q̈ (mj_forward) of each file at one state where every feature acts. */
function mujocoQacc(files: string[]): number[][] {
  const script = `
import json, sys, mujoco
out = []
for f in json.loads(sys.argv[1]):
    m = mujoco.MjModel.from_xml_path(f)
    d = mujoco.MjData(m)
    d.qpos[:] = [1.0, 0.15]
    d.qvel[:] = [0.5, -0.3]
    mujoco.mj_forward(m, d)
    out.append(d.qacc.tolist())
print(json.dumps(out))
`;
  const r = spawnSync(process.env.ACHILLES_PYTHON || 'python3', ['-c', script, JSON.stringify(files)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python mujoco failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as number[][];
}

describe('disable flags build the model MuJoCo runs', () => {
  test.each(Object.keys(OFF))('flag %s="disable"', (flag) => {
    const flagged = write(model(flag, []));
    const edited = write(model(undefined, OFF[flag]));
    const plain = write(model(undefined, []));
    // our import: flagged == edited (geoms kept for mass in the edited file, without collisions)
    const ours = shape(flagged) as { shapes?: unknown[] };
    const theirs = shape(edited) as { shapes?: unknown[] };
    if (OFF[flag].includes('contact')) {
      expect(ours.shapes ?? []).toEqual([]);
      delete theirs.shapes;
      delete ours.shapes;
    }
    expect(ours).toEqual(theirs);
    expect(importFile(flagged).notes.some((x) => x.kind === 'as-mujoco' && x.message.startsWith(`flag ${flag}="disable"`))).toBe(true);
    // MuJoCo: flagged == edited, and both differ from the plain file
    const [qf, qe, qp] = mujocoQacc([flagged, edited, plain]);
    qf.forEach((x, i) => expect(Math.abs(x - qe[i])).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(qe[i]))));
    expect(Math.max(...qf.map((x, i) => Math.abs(x - qp[i])))).toBeGreaterThan(1e-3);
  });
});
