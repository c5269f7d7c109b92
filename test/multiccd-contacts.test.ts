// MuJoCo 3.14's multiccd contacts through the engine, point by point (issue 27, "contacts with a normal
// each"): the contact stage's multiccd model (src/validation/contact/models-multiccd.ts: a can and a drum
// on a box with a margin, a capsule on the drum's rim) at its random states; Batch.collide()'s contact
// list against MuJoCo's d.contact pair by pair, in MuJoCo's order within a pair: the count, and each
// point's dist, pos and normal (each its own: the perturbed re-runs' normals are 1e-3 rad off the first).
// The bar is the measured floor: MuJoCo's own change when the state moves by a float64 rounding (1e-16
// relative, 8 draws per state), times 10, at least 1e-14 (the stage's states avoid contacts without a
// unique witness point, where that floor is 1e-10). Planted contact-perturbed-normal-shared fails it.
// The same under <flag multiccd="disable"/> (multiccdOffModel: the drum on the box at zero margin, a
// faceted pair; the can with its margin): one GJK/EPA contact per pair; planted
// contact-multiccd-flag-ignored (the can's re-runs back) fails it.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { bugAddon, engineAddon, type NativeAddon } from '../src/engine/native.js';
import { multiccdModel, multiccdOffModel, multiccdStates } from '../src/validation/contact/models-multiccd.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { mujocoContacts, pairsOf, type MjContact } from './helpers/mujoco-contacts.js';

const model = multiccdModel();
const STATES = multiccdStates(12, 27);

/** Per state, the worst difference of the engine's points from MuJoCo's (Infinity where a pair's count differs). */
function worstErrors(model: ModelDesc, ref: { contacts: MjContact[] }[], addon: NativeAddon): number[] {
  const b = new Batch(model, { copies: STATES.length, lanes: 1, precision: 'f64' }, addon);
  STATES.forEach((s, r) => b.setRobot(r, { q: s.q }));
  b.collide();
  const names = model.shapes!.map((s) => s.name);
  return ref.map(({ contacts }, r) => {
    const c = b.contacts(r);
    let worst = 0;
    for (const { mine, ours } of pairsOf(contacts, c, names)) {
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
    const ref = await mujocoContacts(
      model,
      STATES.map((s) => s.q),
    );
    // the states touch: the can's 5 multiccd points with normals of their own in every state
    for (const { contacts } of ref) {
      const can = contacts.filter((x) => x.a.startsWith('can') || x.b.startsWith('can'));
      expect(can.length).toBe(5);
      expect(Math.max(...can.map((x) => Math.hypot(...x.normal.map((v, e) => v - can[0].normal[e]))))).toBeGreaterThan(5e-4);
    }
    const bars = ref.map((x) => Math.max(1e-14, 10 * x.floor));
    const errors = worstErrors(model, ref, engineAddon());
    console.log(`worst |Δ| per state (bar): ${errors.map((e, i) => `${e.toExponential(1)} (${bars[i].toExponential(1)})`).join(', ')}`);
    errors.forEach((e, i) => expect(e, `state ${i}`).toBeLessThanOrEqual(bars[i]));
    const bugs = bugAddon();
    try {
      bugs.setBug!('contact-perturbed-normal-shared');
      const planted = worstErrors(model, ref, bugs);
      expect(planted.some((e, i) => e > bars[i])).toBe(true);
    } finally {
      bugs.setBug!('none');
    }
  });

  it('multiccd="disable": faceted pairs at zero margin get MuJoCo’s one GJK/EPA contact, the same in the engine; the planted bug fails', async () => {
    const off = multiccdOffModel();
    const ref = await mujocoContacts(
      off,
      STATES.map((s) => s.q),
    );
    // every pair one point; the drum on the table (cylinder–box at zero margin) touches in most states
    for (const { contacts } of ref) {
      const pairs = contacts.map((x) => [x.a, x.b].sort().join('|'));
      expect(new Set(pairs).size).toBe(pairs.length);
    }
    const onTable = ref.filter(({ contacts }) => contacts.some((x) => [x.a, x.b].sort().join('|') === 'drum/cylinder|table')).length;
    expect(onTable).toBeGreaterThanOrEqual(STATES.length / 2);
    const bars = ref.map((x) => Math.max(1e-14, 10 * x.floor));
    const errors = worstErrors(off, ref, engineAddon());
    console.log(
      `multiccd off: worst |Δ| per state (bar): ${errors.map((e, i) => `${e.toExponential(1)} (${bars[i].toExponential(1)})`).join(', ')}`,
    );
    errors.forEach((e, i) => expect(e, `state ${i}`).toBeLessThanOrEqual(bars[i]));
    const bugs = bugAddon();
    try {
      bugs.setBug!('contact-multiccd-flag-ignored');
      const planted = worstErrors(off, ref, bugs);
      expect(planted.some((e) => e === Infinity)).toBe(true); // the re-runs' extra points
    } finally {
      bugs.setBug!('none');
    }
  });
});
