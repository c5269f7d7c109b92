// MuJoCo's <adhesion> actuator (issue 52): a body transmission (mjTRN_BODY in mj_transmission) whose moment
// is minus the mean of the normal Jacobians of the body's contacts (with rows, or inside the gap), so the
// force gain·ctrl pulls the body onto what it touches. Fixture mjcf-adhesion.xml: a box on a welded pad
// with margin and gap, a ball at a wall (its adhesion from a default class), a condim-1 capsule with a
// forcerange. Against live MuJoCo on the same file (the transmissions stage: the contacts each adhesion
// counts, actuator_force, qacc_smooth, the converged qacc per state; Euler and RK4 runs), the planted bug
// adhesion-pushes failing it, MuJoCo's errors refused at their line, lanes and threads bit-identical.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LANE_WIDTHS, PRECISIONS } from '../src/engine/api.js';
import { Batch } from '../src/engine/batch.js';
import { widestLanes } from '../src/engine/lanes.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, SceneError } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { ADHESION_FIXTURE, transmissionsReference, transmissionsRows } from '../src/validation/transmissions/stage.js';
import type { CheckRow } from '../src/validation/types.js';
import { cpu } from './helpers/lanes.js';
import { sceneError } from './helpers/scene-error.js';

const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const dir = mkdtempSync(join(tmpdir(), 'achilles-adhesion-'));
const failed = (rows: CheckRow[]) =>
  rows.filter((r) => r.status === 'fail').map((r) => `${r.precision} ${r.field} #${r.state} t=${r.t}: ${r.error} > ${r.bar}`);
const worst = (rows: CheckRow[], field: RegExp) => Math.max(...rows.filter((r) => field.test(r.field)).map((r) => r.error));

/** A model with a free box `pad` on the floor and the actuator elements `acts` (and `defaults`). */
const padModel = (acts: string, defaults = '', padGeom = '<geom name="pad" type="box" size="0.05 0.05 0.01"/>') =>
  `<mujoco>\n  <default>${defaults}</default>\n  <worldbody>\n    <geom type="plane" size="1 1 0.1"/>\n    <body name="pad" pos="0 0 0.01">\n      <freejoint/>\n      ${padGeom}\n    </body>\n    <body name="ghost" pos="0 0 1">\n      <freejoint/>\n      <geom size="0.05" contype="0" conaffinity="0"/>\n    </body>\n  </worldbody>\n  <actuator>\n    ${acts}\n  </actuator>\n</mujoco>\n`;
const importXml = (xml: string) => {
  const f = join(dir, `m${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(f, xml);
  return importFile(f);
};
/** The SceneError importing `xml` throws (test/helpers/scene-error.ts). */
const refusal = (xml: string): SceneError => sceneError(() => importXml(xml));

describe('adhesion actuators (body transmission)', () => {
  test('the import: each adhesion pulls its body (the link with its geoms), gain, ranges and class defaults as MuJoCo', () => {
    const m = importFile(ADHESION_FIXTURE).model;
    const acts = m.actuators!;
    expect(acts.map((a) => a.name)).toEqual(['grip', 'climb', 'hold']);
    expect(acts.map((a) => m.bodies[a.bodyTransmission!].name)).toEqual(['pad', 'climber', 'tilt']);
    expect(acts.every((a) => a.body === -1 && a.kind === 'general')).toBe(true);
    expect(acts.map((a) => a.general!.gainprm[0])).toEqual([30, 8, 5]);
    expect(acts.map((a) => [a.general!.dyntype, a.general!.gaintype, a.general!.biastype])).toEqual(
      acts.map(() => ['none', 'fixed', 'none']),
    );
    // ctrllimited is MuJoCo's shortcut's, whatever the file says
    expect(acts.map((a) => a.ctrlrange)).toEqual([
      [0, 1],
      [0, 1],
      [0, 2],
    ]);
    expect(acts[2].forcerange).toEqual([0, 6]);
    // the MJCF writer states it as <general body=""> (the same actuator to MuJoCo); the .arow writer cannot
    expect(exportMjcf(m)).toMatch(/<general name="grip" body="pad" dyntype="none" gaintype="fixed" biastype="none"/);
    expect(() => writeArow(m, [])).toThrow(/body 'pad' \(an adhesion\).*cannot write/);
  });

  test.each([
    ['gain < 0', padModel('<adhesion body="pad" gain="-1" ctrlrange="0 1"/>'), /gain cannot be negative/],
    ['a negative ctrlrange', padModel('<adhesion body="pad" gain="1" ctrlrange="-1 1"/>'), /control range cannot be negative/],
    ['a class default gain < 0', padModel('<adhesion body="pad" ctrlrange="0 1"/>', '<adhesion gain="-2"/>'), /gain cannot be negative/],
    ['no ctrlrange (limited at 0 0)', padModel('<adhesion body="pad" gain="1"/>'), /ctrlrange.*lower < upper/],
    ['a body with no geom that can collide', padModel('<adhesion body="ghost" gain="1" ctrlrange="0 1"/>'), /no geom that can collide/],
    ['an unknown body', padModel('<adhesion body="nope" gain="1" ctrlrange="0 1"/>'), /body 'nope'/],
    ['the world', padModel('<adhesion body="world" gain="1" ctrlrange="0 1"/>'), /body 'world'/],
    ['no body', padModel('<adhesion gain="1" ctrlrange="0 1"/>'), /no transmission/],
    [
      'dynamics from its class',
      padModel('<adhesion body="pad" gain="1" ctrlrange="0 1"/>', '<general dyntype="filter"/>'),
      /body transmission with dyntype filter/,
    ],
    ['a site transmission (not supported yet)', padModel('<motor site="s"/>'), /transmission through site/],
  ])('refused at its line: %s', (_, xml, message) => {
    const e = refusal(xml);
    expect(e).toBeInstanceOf(SceneError);
    expect(e.message).toMatch(message);
    expect(e.line).toBe(xml.split('\n').findIndex((l) => l.includes('<adhesion') || l.includes('<motor') || l.includes('gain="-2"')) + 1);
  });

  test('per state and along Euler and RK4 runs, f64 and f32, against MuJoCo; the planted adhesion-pushes fails', async () => {
    const ref = await transmissionsReference(PYTHON, 1);
    const states = ref.models[0].states;
    // the states reach every case: pads pulled by one or more contacts, some inside the gap only, and none
    expect(states.some((s) => s.count[0] > 1)).toBe(true);
    expect(states.some((s) => s.count[1] === 1)).toBe(true);
    expect(states.some((s) => s.count.every((n) => n === 0))).toBe(false);
    expect(states.some((s) => s.count[0] === 0)).toBe(true);
    // and points inside the pad's gap (margin <= dist < margin + gap: no row, counted all the same)
    const model = ref.models[0].model;
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 }, engineAddon());
    let inGap = 0;
    for (const s of states) {
      b.reset();
      b.setRobot(0, { q: s.q, v: s.v });
      b.forward();
      const c = b.contacts(0);
      for (let p = 0; p < c.dist.length; p++)
        if (c.dist[p] >= model.shapes![c.shapeA[p]].margin + model.shapes![c.shapeB[p]].margin) inGap++;
    }
    expect(inGap).toBeGreaterThan(5);
    for (const p of PRECISIONS) {
      const rows = transmissionsRows(ref, p, engineAddon());
      expect(failed(rows)).toEqual([]);
      if (p === 'f64') {
        expect(worst(rows, /^qacc_smooth$/)).toBeLessThan(1e-12);
        expect(worst(rows, /^actuator_force$/)).toBeLessThan(1e-15);
      }
    }
    const bugs = bugAddon();
    try {
      bugs.setBug!('adhesion-pushes');
      const rows = transmissionsRows(ref, 'f64', bugs);
      expect(worst(rows, /^qacc_smooth$/)).toBeGreaterThan(1e-2);
      expect(failed(rows).length).toBeGreaterThan(0);
    } finally {
      bugs.setBug!('none');
    }
  }, 240_000);

  test('bit-identical across lanes and threads, each robot its own controls; the controls matter', () => {
    const m: ModelDesc = importFile(ADHESION_FIXTURE).model;
    const copies = 11;
    const finalQ = (precision: (typeof PRECISIONS)[number], lanes: number, threads: number, ctrl: (r: number, a: number) => number) => {
      const b = new Batch(m, { copies, precision, lanes: lanes as (typeof LANE_WIDTHS)[number], threads }, engineAddon());
      for (let r = 0; r < copies; r++) {
        b.setRobot(r, { q: m.bodies.flatMap((bd) => bd.q0.map((x, k) => x + (bd.joint === 'free' && k === 2 ? -0.002 * (r % 4) : 0))) });
        for (let a = 0; a < b.nu; a++) b.ctrl[a * b.stride + r] = ctrl(r, a);
      }
      b.stepRaw(200, { holdControls: true });
      return Array.from({ length: copies }, (_, r) => Array.from(b.getRobot(r).q));
    };
    const pull = (r: number, a: number) => 0.1 * ((r + 3 * a) % 11);
    for (const p of PRECISIONS) {
      const one = finalQ(p, 1, 1, pull);
      expect(one.every((q) => q.every(Number.isFinite))).toBe(true);
      expect(finalQ(p, widestLanes(cpu, p), 2, pull)).toEqual(one);
      expect(finalQ(p, 1, 1, () => 0)).not.toEqual(one);
    }
  });
});
