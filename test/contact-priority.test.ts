// A contact pair's parameters as MuJoCo 3.14 makes them (engine_collision_driver.c mj_contactParam,
// mj_setContact; native contact/contact_param.hpp): geom priority (the higher one's condim, friction,
// solref and solimp, whole), solmix (the weights of the two solrefs and solimps at equal priorities;
// a direct solref: the element-wise min), and margin and gap (summed over the pair: a contact is
// listed while dist < margin + gap, excluded, with no rows, while dist >= margin). Fixture
// mjcf-contact-priority.xml, at states about its keyframe (bodies resting and sliding, two balls
// moving in and out of their margins inside their gaps), against live MuJoCo:
//   * the contact list: the same pairs, each point's dist, and exclude (ours: dist >= the margin);
//   * the number of constraint rows (nefc) and the converged constrained q̈;
//   * the import stage's own gates on the fixture (rows, q̈, trajectory), which the planted bugs
//     contact-priority-ignored and contact-gap-row-kept fail;
//   * robots bit-identical across lane widths and thread counts.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PRECISIONS } from '../src/engine/api.js';
import { Batch } from '../src/engine/batch.js';
import { withSolver } from '../src/engine/model-desc.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { queryContact, type ConstraintAnswer } from '../src/validation/contact/mujoco.js';
import { CONVERGED_ITERATIONS } from '../src/validation/contact/engine.js';
import { constrainedFixtureReference, constrainedRows, type ConstrainedFixtureRef } from '../src/validation/import/constrained.js';
import { keyContactStates } from '../src/validation/import/key-states.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { relErr } from '../src/validation/metrics.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';

const NAME = 'import:mjcf-contact-priority.xml';
const FIXTURE = join(FIXTURE_DIR, 'mjcf-contact-priority.xml');
const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const model = importFile(FIXTURE, { keyframe: '0' }).model;
const states = keyContactStates(model, 16, 52);
const key = { q: model.bodies.flatMap((b) => b.q0), v: model.bodies.flatMap((b) => b.v0), tau: model.bodies.flatMap((b) => b.tau) };

/** One contact point: its pair (names sorted), dist, and whether it is excluded (in the gap). */
interface Point {
  pair: string;
  dist: number;
  exclude: boolean;
}
const byPair = (ps: Point[]): Point[] => [...ps].sort((a, b) => (a.pair < b.pair ? -1 : a.pair > b.pair ? 1 : a.dist - b.dist));

describe('geom priority, solmix, margin and gap vs MuJoCo 3.14', () => {
  let mj: ConstraintAnswer[];
  let stage: ConstrainedFixtureRef;
  // MuJoCo's geom ids: the world's geoms first, then each body's (all of them collide)
  const names = ['floor', 'shelf', 'slider', 'ball', 'log', 'hover', 'soft', 'top'];
  beforeAll(async () => {
    const xml = readFileSync(FIXTURE, 'utf8');
    [mj, stage] = await Promise.all([
      queryContact(
        PYTHON,
        xml,
        // the states, then the keyframe's own state (last)
        [...states, key].map((s) => ({ kind: 'constraint' as const, qpos: s.q, qvel: s.v, tau: s.tau })),
      ) as Promise<ConstraintAnswer[]>,
      constrainedFixtureReference(PYTHON, 1, { name: NAME, path: FIXTURE }).then((r) => r!),
    ]);
  }, 120_000);

  test('the import reads priority and solmix (defaults left out of the model)', () => {
    const by = (n: string) => model.shapes!.find((s) => s.name === n)!;
    expect(model.shapes!.map((s) => s.name).sort()).toEqual([...names].sort());
    expect([by('slider').priority, by('log').priority, by('shelf').priority, by('top').priority]).toEqual([2, -1, 1, 3]);
    expect([by('ball').solmix, by('soft').solmix, by('shelf').solmix]).toEqual([3, 0, 0.5]);
    expect(by('floor').priority).toBeUndefined();
    expect(by('floor').solmix).toBeUndefined();
  });

  test.each(PRECISIONS)('%s: the same contact list (pairs, dist, exclude), nefc and constrained qacc at every state', (precision) => {
    const b = new Batch(withSolver(model, 'cg', 0, 20), { copies: states.length, precision }, engineAddon());
    states.forEach((s, r) => b.setRobot(r, s));
    const shapes = model.shapes!;
    let worstDist = 0,
      worstQacc = 0,
      excluded = 0,
      included = 0;
    b.constrain(); // detection at the states: the contacts contacts(r) lists
    states.forEach((_, r) => {
      const st = b.constraints(r, { iterations: CONVERGED_ITERATIONS, warm: false });
      const c = b.contacts(r);
      const ours: Point[] = Array.from(c.dist, (dist, i) => {
        const sa = shapes[c.shapeA[i]],
          sb = shapes[c.shapeB[i]];
        return { pair: [sa.name, sb.name].sort().join('|'), dist, exclude: dist >= sa.margin + sb.margin };
      });
      const m = mj[r].contacts;
      const theirs: Point[] = m.dist.map((dist, i) => ({
        pair: [names[m.geom[i][0]], names[m.geom[i][1]]].sort().join('|'),
        dist,
        exclude: m.exclude[i] !== 0,
      }));
      const [o, t] = [byPair(ours), byPair(theirs)];
      expect(
        o.map((p) => [p.pair, p.exclude]),
        `state ${r}`,
      ).toEqual(t.map((p) => [p.pair, p.exclude]));
      o.forEach((p, i) => (worstDist = Math.max(worstDist, Math.abs(p.dist - t[i].dist))));
      excluded += t.filter((p) => p.exclude).length;
      included += t.filter((p) => !p.exclude).length;
      // rows only for the contacts outside their gaps (the model has no other constraints)
      expect(st.rows.length, `state ${r} nefc`).toBe(mj[r].efc.type.length);
      worstQacc = Math.max(worstQacc, relErr([...st.qacc], mj[r].newton.qacc));
    });
    console.log(`${precision}: ${included} included and ${excluded} excluded contacts; worst |Δdist| ${worstDist}, qacc ${worstQacc}`);
    // both kinds occur, so the exclusion is exercised in both directions
    expect(excluded).toBeGreaterThan(5);
    expect(included).toBeGreaterThan(50);
    expect(worstDist).toBeLessThan(precision === 'f64' ? 1e-14 : 1e-6);
    expect(worstQacc).toBeLessThan(precision === 'f64' ? 1e-9 : 1e-3);
  });

  test('MuJoCo mixes as contact_param.hpp says (the fixture exercises each rule)', () => {
    // the keyframe's state (every pair in contact or in its gap): MuJoCo's contact parameters per pair
    const c = mj[states.length].contacts;
    const param = (a: string, b: string) => {
      const i = c.geom.findIndex((g) => [names[g[0]], names[g[1]]].sort().join('|') === [a, b].sort().join('|'));
      return { friction: c.friction[i][0], dim: c.dim[i], solref: c.solref[i], solimp: c.solimp[i] };
    };
    expect(param('floor', 'slider').friction).toBe(0.3); // priority 2 over 0: not the max 0.9
    expect(param('floor', 'log')).toMatchObject({ friction: 0.9, dim: 3, solref: [0.015, 1] }); // priority −1: the floor's
    expect(param('floor', 'ball').solref[0]).toBeCloseTo(0.25 * 0.015 + 0.75 * 0.03, 15); // solmix 1 : 3
    expect(param('floor', 'soft').solref).toEqual([-8000, -60]); // a direct solref: the element-wise min
    expect(param('floor', 'soft').solimp).toEqual([0.92, 0.96, 0.002, 0.5, 2]); // solmix 0: the floor's solimp
    expect(param('shelf', 'top')).toMatchObject({ friction: 0.2, dim: 6, solimp: [0.8, 0.9, 0.004, 0.4, 3] }); // priority 3 over 1
  });

  test.each(PRECISIONS)("%s: the import stage's gates on the fixture pass", (precision) => {
    const rows = constrainedRows(stage, precision, engineAddon());
    const fails = rows.filter((r) => r.status === 'fail');
    expect(rows.length).toBeGreaterThan(5);
    expect(fails.map((r) => `${r.field} ${r.error} > ${r.bar} ${r.note}`)).toEqual([]);
  });

  test.each(['contact-priority-ignored', 'contact-gap-row-kept'])('planted %s fails the import gates', (bug) => {
    const addon = bugAddon();
    addon.setBug!(bug);
    try {
      const fails = constrainedRows(stage, 'f64', addon).filter((r) => r.status === 'fail');
      console.log(bug, 'fails', [...new Set(fails.map((r) => r.field))].join(', '));
      expect(fails.length).toBeGreaterThan(0);
    } finally {
      addon.setBug!('none');
    }
  });

  test.each([
    ['priority="1.5"', /priority.*an integer priority/],
    ['solmix="-1"', /solmix.*>= 0/],
    ['solmix="inf"', /solmix/],
  ])('a geom %s is refused at its line and column', (attr, what) => {
    const f = join(mkdtempSync(join(tmpdir(), 'achilles-priority-')), 'm.xml');
    writeFileSync(f, `<mujoco>\n  <worldbody>\n    <geom type="plane" size="1 1 1" ${attr}/>\n  </worldbody>\n</mujoco>\n`);
    let e: unknown;
    try {
      importFile(f);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(SceneError);
    expect([(e as SceneError).line, (e as SceneError).column]).toEqual([3, 37]);
    expect((e as SceneError).message).toMatch(what);
  });

  test('an <option> override flag (the o_margin path) stays refused', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'achilles-priority-')), 'm.xml');
    writeFileSync(
      f,
      `<mujoco>\n  <option o_margin="0.01">\n    <flag override="enable"/>\n  </option>\n  <worldbody>\n    <geom type="plane" size="1 1 1"/>\n  </worldbody>\n</mujoco>\n`,
    );
    expect(() => importFile(f)).toThrow(/override/);
  });

  test('robots bit-identical across lane widths and thread counts', () => {
    expectSameAcrossLanesAndThreads(model, (r) => states[r % states.length], 11, 200);
  });
});
