// The TS copy of MuJoCo's filter rules against MuJoCo itself: one model exercising every rule
// (same body, welded bodies, both static, parent–child, world–root, contype/conaffinity bits,
// an exclude), all shapes overlapping with a large margin, so mj_collision reports exactly the
// pairs its filters keep.

import { describe, expect, it } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import { filterRulesModel, mujocoCandidatePairs, weldBodies } from '../src/validation/collision/filter.js';

const model = filterRulesModel();
const { bodies, shapes } = model;
const excludes = model.excludes!;

const g = (name: string, extra = '') => `<geom name="${name}" type="sphere" size=".1" margin="10" ${extra}/>`;
const MJCF = `<mujoco><worldbody>
  <geom name="s0" type="plane" size="0 0 1" margin="10"/>${g('s1')}
  <body name="a0"><joint type="hinge"/>${g('s2')}
    <body name="a1"><joint type="hinge"/>${g('s3')}
      <body name="a2">${g('s4')}</body>
    </body>
  </body>
  <body name="f"><freejoint/>${g('s5')}
    <body name="f1"><joint type="hinge"/>${g('s6', 'contype="2" conaffinity="2"')}</body>
  </body>
  <body name="w">${g('s7', 'contype="1" conaffinity="2"')}${g('s8')}</body>
</worldbody><contact><exclude body1="f" body2="a0"/></contact></mujoco>`;

const PY = `
import json, sys, mujoco
m = mujoco.MjModel.from_xml_string(sys.stdin.read())
d = mujoco.MjData(m)
mujoco.mj_forward(m, d)
print(json.dumps(sorted({tuple(sorted(int(x) for x in c.geom)) for c in d.contact[:d.ncon]})))
`;

describe('MuJoCo filter rules in TS', () => {
  it('welds fixed bodies to their parent (and to the world)', () => {
    expect(weldBodies({ bodies })).toEqual([0, 1, 1, 3, 4, -1]);
  });

  it('keeps exactly the pairs MuJoCo collides', async () => {
    const ours = mujocoCandidatePairs({ bodies, shapes, excludes });
    // awaited, not synchronous: the worker's event loop keeps turning meanwhile (issue 23)
    const r = await spawnAsync(process.env.ACHILLES_PYTHON || 'python3', ['-c', PY], { input: MJCF });
    expect(r.status, r.stderr).toBe(0);
    const theirs = JSON.parse(r.stdout) as [number, number][];
    expect(ours).toEqual(theirs);
    // The rules each show up: world–root kept, parent–child and welded dropped, bits, exclude.
    const has = (a: number, b: number) => ours.some(([x, y]) => x === a && y === b);
    expect(has(0, 2)).toBe(true); // plane – root link a0
    expect(has(0, 1)).toBe(false); // both static
    expect(has(2, 3)).toBe(false); // a0 – a1 parent and child
    expect(has(2, 4)).toBe(false); // a0 – a2: a2 is welded to a1, a0's child
    expect(has(3, 4)).toBe(false); // welded together
    expect(has(2, 5)).toBe(false); // excluded
    expect(has(6, 7)).toBe(true); // bits 2 meet
    expect(has(5, 6)).toBe(false); // bits do not meet
    expect(has(0, 7)).toBe(false); // w is welded to the world
  });
});
