// MuJoCo 3.14's multiccd contacts through the engine, point by point (issue 27, "contacts with a normal
// each"): the contact stage's multiccd model (src/validation/contact/models-multiccd.ts: a can and a drum
// on a box with a margin, a capsule on the drum's rim) at its random states; Batch.collide()'s contact
// list against MuJoCo's d.contact pair by pair, in MuJoCo's order within a pair: the count, and each
// point's dist, pos and normal (each its own: the perturbed re-runs' normals are 1e-3 rad off the first).
// The bar is the measured floor: MuJoCo's own change when the state moves by a float64 rounding (1e-16
// relative, 8 draws per state), times 10, at least 1e-14 (the stage's states avoid contacts without a
// unique witness point, where that floor is 1e-10). Planted contact-perturbed-normal-shared fails it.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { bugAddon, engineAddon, type NativeAddon } from '../src/engine/native.js';
import { contactXml } from '../src/validation/contact/mujoco.js';
import { multiccdModel, multiccdStates } from '../src/validation/contact/models-multiccd.js';
import { spawnAsync } from './helpers/spawn-async.js';

const model = multiccdModel();
const STATES = multiccdStates(12, 27);

/** Per state, MuJoCo's contacts (geom names in its order, dist, pos, normal) and its floor: the largest
 *  change of any point's dist, pos or normal over 8 draws of the state moved by 1e-16 relative. */
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

interface MjContact {
  a: string;
  b: string;
  dist: number;
  pos: number[];
  normal: number[];
}

async function mujocoContacts(): Promise<{ contacts: MjContact[]; floor: number }[]> {
  const r = await spawnAsync('python3', ['-c', SCRIPT], { input: JSON.stringify({ xml: contactXml(model), qs: STATES.map((s) => s.q) }) });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Per state, the worst difference of the engine's points from MuJoCo's (Infinity where a pair's count differs). */
function worstErrors(ref: { contacts: MjContact[] }[], addon: NativeAddon): number[] {
  const b = new Batch(model, { copies: STATES.length, lanes: 1, precision: 'f64' }, addon);
  STATES.forEach((s, r) => b.setRobot(r, { q: s.q }));
  b.collide();
  const names = model.shapes!.map((s) => s.name);
  return ref.map(({ contacts }, r) => {
    const c = b.contacts(r);
    let worst = 0;
    const pairs = new Set(contacts.map((x) => [x.a, x.b].sort().join('|')));
    for (let k = 0; k < c.shapeA.length; k++) pairs.add([names[c.shapeA[k]], names[c.shapeB[k]]].sort().join('|'));
    for (const key of pairs) {
      const mine = contacts.filter((x) => [x.a, x.b].sort().join('|') === key);
      const ours = Array.from(c.shapeA.keys()).filter((k) => [names[c.shapeA[k]], names[c.shapeB[k]]].sort().join('|') === key);
      if (mine.length !== ours.length) return Infinity;
      mine.forEach((x, i) => {
        const k = ours[i];
        // our normal points from shape a (the lower index) to b; MuJoCo's from its geom 1 to geom 2
        const sign = names[c.shapeA[k]] === x.a ? 1 : -1;
        worst = Math.max(worst, Math.abs(c.dist[k] - x.dist));
        for (let e = 0; e < 3; e++) {
          worst = Math.max(worst, Math.abs(c.pos[3 * k + e] - x.pos[e]), Math.abs(sign * c.normal[3 * k + e] - x.normal[e]));
        }
      });
    }
    return worst;
  });
}

describe("multiccd's contacts against MuJoCo 3.14, point by point (f64)", () => {
  it('the same points in the same order, each dist, pos and normal within 10× MuJoCo’s own floor; the planted bug fails', async () => {
    const ref = await mujocoContacts();
    // the states touch: the can's 5 multiccd points with normals of their own in every state
    for (const { contacts } of ref) {
      const can = contacts.filter((x) => x.a.startsWith('can') || x.b.startsWith('can'));
      expect(can.length).toBe(5);
      expect(Math.max(...can.map((x) => Math.hypot(...x.normal.map((v, e) => v - can[0].normal[e]))))).toBeGreaterThan(5e-4);
    }
    const bars = ref.map((x) => Math.max(1e-14, 10 * x.floor));
    const errors = worstErrors(ref, engineAddon());
    console.log(`worst |Δ| per state (bar): ${errors.map((e, i) => `${e.toExponential(1)} (${bars[i].toExponential(1)})`).join(', ')}`);
    errors.forEach((e, i) => expect(e, `state ${i}`).toBeLessThanOrEqual(bars[i]));
    const bugs = bugAddon();
    try {
      bugs.setBug!('contact-perturbed-normal-shared');
      const planted = worstErrors(ref, bugs);
      expect(planted.some((e, i) => e > bars[i])).toBe(true);
    } finally {
      bugs.setBug!('none');
    }
  });
});
