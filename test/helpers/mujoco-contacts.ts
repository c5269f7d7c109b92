// MuJoCo 3.14's d.contact at given states of a model (test/multiccd-contacts.test.ts,
// test/clip-contacts.test.ts): per state, its contacts (geom names in its order, dist, pos, normal)
// and its floor: the largest change of any point's dist, pos or normal over 8 draws of the state
// moved by 1e-16 relative (Infinity where a draw changes the count).
import { expect } from 'vitest';
import type { ModelDesc } from '../../src/engine/model-desc.js';
import { contactXml } from '../../src/validation/contact/mujoco.js';
import { spawnAsync } from './spawn-async.js';

const SCRIPT = `
import sys, json, mujoco, numpy as np
inp = json.loads(sys.stdin.read()); m = mujoco.MjModel.from_xml_string(inp['xml']); d = mujoco.MjData(m)
rng = np.random.default_rng(1)
def contacts(q):
    d.qpos[:] = q; d.qvel[:] = 0; mujoco.mj_forward(m, d)
    return [dict(a=m.geom(int(c.geom[0])).name, b=m.geom(int(c.geom[1])).name, dist=float(c.dist), pos=c.pos.tolist(), normal=c.frame[:3].tolist()) for c in d.contact[:d.ncon]]
out = []
for q in inp['qs']:
    q = np.array(q); ref = contacts(q); floor = 0.0
    for _ in range(8):
        got = contacts(q * (1 + 1e-16 * rng.standard_normal(q.shape)))
        if len(got) != len(ref): floor = float('inf'); continue
        for x, y in zip(ref, got):
            floor = max(floor, abs(x['dist'] - y['dist']), *(abs(u - v) for k in ('pos', 'normal') for u, v in zip(x[k], y[k])))
    out.append(dict(contacts=ref, floor=floor))
print(json.dumps(out))
`;

export interface MjContact {
  a: string;
  b: string;
  dist: number;
  pos: number[];
  normal: number[];
}

export async function mujocoContacts(model: ModelDesc, qs: number[][]): Promise<{ contacts: MjContact[]; floor: number }[]> {
  const r = await spawnAsync('python3', ['-c', SCRIPT], { input: JSON.stringify({ xml: contactXml(model), qs }) });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The engine's contacts of one robot (Batch.contacts) as the test reads them. */
export interface EngineContacts {
  shapeA: ArrayLike<number> & { keys(): IterableIterator<number> };
  shapeB: ArrayLike<number>;
}

/** Per shape pair touching on either side (sorted names joined by `|`): MuJoCo's contacts of it and
 *  the indices of the engine's, each in its engine's order. */
export function pairsOf(
  contacts: readonly MjContact[],
  c: EngineContacts,
  names: readonly string[],
): { key: string; mine: MjContact[]; ours: number[] }[] {
  const keyOf = (a: string, b: string) => [a, b].sort().join('|');
  const pairs = new Set(contacts.map((x) => keyOf(x.a, x.b)));
  for (let k = 0; k < c.shapeA.length; k++) pairs.add(keyOf(names[c.shapeA[k]], names[c.shapeB[k]]));
  return [...pairs].map((key) => ({
    key,
    mine: contacts.filter((x) => keyOf(x.a, x.b) === key),
    ours: Array.from(c.shapeA.keys()).filter((k) => keyOf(names[c.shapeA[k]], names[c.shapeB[k]]) === key),
  }));
}
