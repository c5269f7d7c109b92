// `achilles run` records contacts: one contacts.csv row per active slot, and a chart of the count
// and minimum distance over time. Scene: the filter-rules world with its free body dropped into the
// ground plane (one sphere–plane contact per robot), three robots at different heights.

import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { OutputSet } from '../src/reports/atomic.js';
import { contactsChart, writeContactFiles } from '../src/run/contacts.js';
import { Recorder } from '../src/run/recorder.js';
import { filterRulesModel } from '../src/validation/collision/filter.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

function batch() {
  const model = filterRulesModel();
  const b = new Batch(model, { copies: 3, precision: 'f64', lanes: 1 });
  // The free body f (q = [x, y, z, w, x, y, z] at offset 2: a0 and a1 hinge first) at heights 0.05, 0.08, 0.5.
  [0.05, 0.08, 0.5].forEach((z, r) => (b.q[4 * b.stride + r] = z));
  return { model, b };
}

describe('run: contacts', () => {
  it('records the active slots of the recorded robots, in pair then point order', () => {
    const { model, b } = batch();
    const rec = new Recorder(b, [0, 1, 2]);
    expect(rec.contacts).not.toBeNull();
    rec.record();
    const rows = rec.contacts!.rows;
    // Robots 0 and 1 touch the ground (sphere radius 0.1), robot 2 is 0.4 above it.
    expect(rows.map((r) => r.robot)).toEqual([0, 1]);
    for (const [r, z] of [
      [0, 0.05],
      [1, 0.08],
    ] as const) {
      const row = rows.find((x) => x.robot === r)!;
      expect(row.shape_a).toBe('ground');
      expect(row.shape_b).toBe('f/s');
      expect(row.dist).toBeCloseTo(z - 0.1, 12);
      expect([row.nx, row.ny, row.nz]).toEqual([0, 0, 1]);
      expect(row.z).toBeCloseTo((z - 0.1) / 2, 12); // midway between the surfaces
    }
    expect(rec.contacts!.series.map((s) => s.count)).toEqual([1, 1, 0]);
    expect(rec.contacts!.series[2].minDist).toBeNaN();
  });

  it('writes contacts.csv and the count / minimum-distance chart', async () => {
    const { b } = batch();
    const rec = new Recorder(b, [0, 2]);
    rec.record();
    b.step(10);
    rec.record();
    const dir = join(mkdtempSync(join(tmpdir(), 'achilles-contacts-')), 'out');
    const set = await OutputSet.create(dir);
    await writeContactFiles(set, rec.contacts!, { scene: 'filter-rules' }, 'filter-rules');
    await set.commit();
    const csv = readFileSync(join(dir, 'contacts.csv'), 'utf8');
    expect(csv).toContain('step,time,robot,point,shape_a,shape_b,x,y,z,nx,ny,nz,dist');
    expect(csv.split('\n').filter((l) => l.startsWith('0,0,0,')).length).toBe(1);
    expect(existsSync(join(dir, 'contacts.svg'))).toBe(true);
    const spec = contactsChart(rec.contacts!, 'filter-rules') as { vconcat: unknown[] };
    expect(spec.vconcat.length).toBe(2);
  });

  it('a scene without shape pairs records no contacts', () => {
    const model = { ...filterRulesModel(), shapes: [] };
    const rec = new Recorder(new Batch(model, { copies: 1, precision: 'f64', lanes: 1 }), [0]);
    expect(rec.contacts).toBeNull();
  });
});

describe('achilles run on a scene with shapes', () => {
  it('crossing pendulums: contacts.csv rows of the lower rods striking (t = 0.55 s), identical across lane widths', async () => {
    const csvs: string[] = [];
    for (const lanes of ['1', '4']) {
      const out = join(tempDir(), 'out');
      const r = await cli(
        'run',
        join(SCENES, 'crossing-pendulums.arow'),
        '--duration',
        '0.6',
        '--copies',
        '4',
        '--robots',
        '0,3',
        '--lanes',
        lanes,
        '--out',
        out,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(out, 'contacts.svg'))).toBe(true);
      // The rows (the provenance header names the lanes and the date).
      csvs.push(
        readFileSync(join(out, 'contacts.csv'), 'utf8')
          .split('\n')
          .filter((l) => !l.startsWith('#'))
          .join('\n'),
      );
    }
    expect(csvs[0]).toBe(csvs[1]);
    const rows = csvs[0]
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x[2]))).toEqual(new Set(['0', '3']));
    for (const x of rows) expect(Number(x[12])).toBeLessThan(0.1); // within any margin the scene could set
  });
});
