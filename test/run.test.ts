// `achilles run`: the files it writes, that every recorded number belongs to its row's time
// (checked against the closed-form double pendulum), determinism across lanes/threads/copies/
// record intervals, and divergence leaving nothing behind.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { Batch } from '../src/engine/batch.js';
import { engineAddon } from '../src/engine/native.js';
import { checkFinite } from '../src/run/finite-check.js';
import { defaultLanes, isaFor, registerLanes, widestLanes } from '../src/run/lanes.js';
import { resolveSettings } from '../src/run/settings.js';
import { unitOffset } from '../src/run/spread.js';
import { doublePendulumAccel, doublePendulumEnergy, type DoublePendulumParams } from '../src/validation/double-pendulum-exact.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');

interface Trace {
  meta: Record<string, string>;
  columns: string[];
  rows: string[][];
}

function readTrace(file: string): Trace {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const meta: Record<string, string> = {};
  let i = 0;
  for (; lines[i].startsWith('# '); i++) {
    const m = /^# ([^:]+): (.*)$/.exec(lines[i])!;
    meta[m[1]] = m[2];
  }
  return { meta, columns: lines[i].split(','), rows: lines.slice(i + 1).map((l) => l.split(',')) };
}

/** Rows of one robot keyed by step, each a map column → cell text (exact, as written). */
function byStep(t: Trace, robot: number): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  for (const r of t.rows) {
    const rec = Object.fromEntries(t.columns.map((c, i) => [c, r[i]]));
    if (Number(rec.robot) === robot) out.set(Number(rec.step), rec);
  }
  return out;
}

/** Staging directories an OutputSet left next to `dir` (there must be none). */
function stagingLeftovers(dir: string): string[] {
  return readdirSync(dirname(dir)).filter((f) => f.includes('.staging-'));
}

describe('achilles run on the double pendulum for 0.2 s', async () => {
  const out = join(tempDir(), 'dp');
  const r = await cli('run', DP, '--duration', '0.2', '--out', out);

  test('exits 0 with a one-screen summary', () => {
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^steps\s+100 \(101 records, every step\)$/m);
    expect(r.stdout).toMatch(/^simulated time\s+0\.2 s$/m);
    expect(r.stdout).toMatch(/^throughput\s+[\d.]+ [kMG]?robot-steps\/s$/m);
    expect(r.stdout).toMatch(/^energy drift, final\s+-?[\d.e+-]+ J \(-?[\d.e+-]+%\)$/m);
    expect(r.stdout).toMatch(/^energy drift, max \|\.\|\s+[\d.e+-]+ J/m);
    expect(r.stdout).toContain(`output                 ${out}`);
    expect(r.stdout.split('\n').length).toBeLessThan(25);
  });

  test('writes every file, and nothing else', () => {
    expect(readdirSync(out).sort()).toEqual([
      '.achilles-files.json',
      'energy-drift.svg',
      'energy-drift.vl.json',
      'joint-angles.svg',
      'joint-angles.vl.json',
      'run.json',
      'trace.csv',
    ]);
    for (const svg of ['joint-angles.svg', 'energy-drift.svg']) expect(readFileSync(join(out, svg), 'utf8')).toContain('<svg');
    for (const vl of ['joint-angles.vl.json', 'energy-drift.vl.json'])
      expect(JSON.parse(readFileSync(join(out, vl), 'utf8')).$schema).toMatch(/vega-lite/);
    expect(stagingLeftovers(out)).toEqual([]);
  });

  test('trace.csv: provenance header, the expected columns, one row per step', () => {
    const t = readTrace(join(out, 'trace.csv'));
    expect(t.meta.scene).toBe(DP);
    expect(t.meta.scene_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(t.meta).toMatchObject({
      integrator: 'euler',
      dt: '0.002',
      substeps: '1',
      precision: 'f64',
      lanes: '1',
      isa: 'scalar',
      copies: '1',
      duration: '0.2',
      steps: '100',
    });
    expect(t.meta.achilles_version).toBe(JSON.parse(readFileSync(join(SCENES, '..', 'package.json'), 'utf8')).version);
    expect(t.meta.node_version).toBe(process.version);
    expect(Number.isNaN(Date.parse(t.meta.date))).toBe(false);
    expect(t.columns).toEqual([
      'step',
      'time',
      'robot',
      'q:upper',
      'q:lower',
      'v:upper',
      'v:lower',
      'qacc:upper',
      'qacc:lower',
      'kinetic',
      'potential',
      'total',
      'drift',
    ]);
    expect(t.rows).toHaveLength(101);
    t.rows.forEach((row, i) => {
      expect(row).toHaveLength(t.columns.length);
      expect(Number(row[0])).toBe(i);
      expect(Number(row[1])).toBe(i * 0.002);
      expect(row.every((c) => Number.isFinite(Number(c)))).toBe(true);
    });
  });

  test('run.json repeats the metadata and holds the summary', () => {
    const j = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    const t = readTrace(join(out, 'trace.csv'));
    expect(j.metadata.scene_sha256).toBe(t.meta.scene_sha256);
    expect(j.metadata.date).toBe(t.meta.date);
    expect(j.summary.steps).toBe(100);
    expect(j.summary.records).toBe(101);
    expect(j.columns).toEqual(t.columns);
    const drift = t.rows.map((r) => Number(r[12]));
    expect(j.summary.drift.final).toBe(drift[drift.length - 1]);
    expect(j.summary.drift.maxAbs).toBe(Math.max(...drift.map(Math.abs)));
  });
});

describe("every value in a row belongs to that row's time", async () => {
  // The bundled scene: two uniform 1 kg, 1 m rods; inertia about each pivot = 1/12 + 0.5².
  const p: DoublePendulumParams = { m1: 1, r1: 0.5, I1: 1 / 12 + 0.25, m2: 1, r2: 0.5, I2: 1 / 12 + 0.25, l1: 1, gy: 0, gz: -9.81 };
  const out = join(tempDir(), 'exact');
  const r = await cli('run', DP, '--duration', '1', '--integrator', 'rk4', '--record', '10', '--out', out);
  const t = readTrace(join(out, 'trace.csv'));
  const col = (name: string) => t.columns.indexOf(name);
  const states = t.rows.map((row) => ({
    phi: Number(row[col('q:upper')]),
    psi: Number(row[col('q:lower')]),
    phiDot: Number(row[col('v:upper')]),
    psiDot: Number(row[col('v:lower')]),
  }));

  test('the run succeeded', () => expect(r.code).toBe(0));

  test('qacc is the closed-form acceleration at the recorded q and v', () => {
    expect(t.rows).toHaveLength(51);
    let lagged = 0;
    t.rows.forEach((row, i) => {
      const [a1, a2] = doublePendulumAccel(p, states[i]);
      expect(Number(row[col('qacc:upper')])).toBeCloseTo(a1, 9);
      expect(Number(row[col('qacc:lower')])).toBeCloseTo(a2, 9);
      // The acceleration one step earlier is measurably different: a lag would be caught.
      if (i > 0) lagged = Math.max(lagged, Math.abs(doublePendulumAccel(p, states[i - 1])[0] - a1));
    });
    expect(lagged).toBeGreaterThan(1e-3);
  });

  test('the energies are those of the recorded state', () => {
    const e0 = doublePendulumEnergy(p, states[0]);
    t.rows.forEach((row, i) => {
      const e = doublePendulumEnergy(p, states[i]);
      expect(Number(row[col('kinetic')])).toBeCloseTo(e.kinetic, 9);
      expect(Number(row[col('potential')])).toBeCloseTo(e.potential, 9);
      expect(Number(row[col('drift')])).toBeCloseTo(e.kinetic + e.potential - (e0.kinetic + e0.potential), 9);
    });
  });
});

describe('determinism', () => {
  const cpu = engineAddon().cpuInfo();
  for (const precision of ['f32', 'f64'] as const) {
    const lanes = widestLanes(cpu, precision);
    test(`${precision}: lanes (1 vs ${lanes}), threads, copies and the record interval do not change a single bit`, async () => {
      const a = join(tempDir(), 'a');
      const b = join(tempDir(), 'b');
      const common = ['--duration', '0.3', '--precision', precision];
      expect((await cli('run', DP, ...common, '--lanes', '1', '--record', '1', '--out', a)).code).toBe(0);
      expect(
        (
          await cli(
            'run',
            DP,
            ...common,
            '--copies',
            '7',
            '--lanes',
            String(lanes),
            '--threads',
            '2',
            '--record',
            '7',
            '--robots',
            '0,6',
            '--out',
            b,
          )
        ).code,
      ).toBe(0);
      const ta = byStep(readTrace(join(a, 'trace.csv')), 0);
      const tb = readTrace(join(b, 'trace.csv'));
      expect(tb.meta.isa).toBe(isaFor(precision, lanes));
      for (const robot of [0, 6]) {
        const rows = byStep(tb, robot);
        expect([...rows.keys()]).toEqual([...Array.from({ length: 22 }, (_, i) => i * 7), 150]);
        for (const [step, row] of rows) expect({ ...row, robot: '0' }).toEqual(ta.get(step));
      }
    });
  }

  test('--spread moves robots 1.. by a fixed amount and leaves robot 0 exact', async () => {
    const runs = [];
    for (const k of [0, 1]) {
      const out = join(tempDir(), `s${k}`);
      expect(
        (await cli('run', DP, '--duration', '0.02', '--copies', '3', '--robots', '0,1,2', '--spread', '0.01', '--out', out)).code,
      ).toBe(0);
      runs.push(readTrace(join(out, 'trace.csv')));
    }
    expect(runs[1].rows).toEqual(runs[0].rows); // same offsets every time
    const first = byStep(runs[0], 0).get(0)!;
    expect(first['q:upper']).toBe('0');
    for (const robot of [1, 2]) {
      const row = byStep(runs[0], robot).get(0)!;
      expect(Number(row['q:upper'])).toBe(0.01 * unitOffset(robot, 0));
      expect(Number(row['q:lower'])).toBe(0.01 * unitOffset(robot, 1));
      expect(row['q:upper']).not.toBe('0');
    }
  });
});

describe('divergence', () => {
  // lanes 1: the engine's own per-step check; the widest f64 lanes: whatever SIMD kernel this CPU
  // has, where the run's own record-time check is the backstop.
  for (const extra of [
    ['--lanes', '1'],
    ['--copies', '3'],
  ]) {
    test(`${extra.join(' ')}: reports the step, time, robot and joint, exits 1 and leaves no outputs`, async () => {
      const dir = tempDir();
      const scene = join(dir, 'diverge.arow');
      writeFileSync(scene, readFileSync(DP, 'utf8').replace('dt: 0.002, integrator: euler', 'dt: 1, integrator: rk4'));
      const out = join(dir, 'out');
      const r = await cli('run', scene, '--duration', '1000', ...extra, '--out', out);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/non-finite (at|by) step \d+ \(t = [\d.]+ s.*\), robot 0, joint 'upper'/);
      expect(r.stderr).toContain('no output files were written');
      expect(r.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
      expect(stagingLeftovers(out)).toEqual([]);
    });
  }

  test('the record-time check names the first bad robot and joint', () => {
    const batch = new Batch(loadScene(DP), { copies: 5, lanes: 1, precision: 'f64' });
    expect(() => checkFinite(batch)).not.toThrow();
    batch.v[1 * batch.stride + 3] = Number.NaN; // robot 3, joint 'lower'
    batch.q[1 * batch.stride + 4] = Number.POSITIVE_INFINITY;
    expect(() => checkFinite(batch)).toThrow(/robot 3, joint 'lower'/);
    batch.q[0 * batch.stride + 2] = Number.NEGATIVE_INFINITY; // robot 2, joint 'upper'
    expect(() => checkFinite(batch)).toThrow(/robot 2, joint 'upper'/);
  });
});

describe('settings', () => {
  test('default lanes: the narrowest vector that holds all copies, capped by the CPU', () => {
    expect(defaultLanes(1, 16)).toBe(1);
    expect(defaultLanes(3, 16)).toBe(4);
    expect(defaultLanes(5, 16)).toBe(8);
    expect(defaultLanes(9, 16)).toBe(16);
    expect(defaultLanes(100, 16)).toBe(16);
    expect(defaultLanes(100, 8)).toBe(8);
    expect(defaultLanes(5, 4)).toBe(4);
  });

  test('the widest lanes depend on the precision (f64 packs 4 per AVX2 register)', () => {
    const avx2 = { sse2: true, avx2: true, avx512: false };
    expect(widestLanes(avx2, 'f32')).toBe(8);
    expect(widestLanes(avx2, 'f64')).toBe(4);
    expect(widestLanes({ sse2: true, avx2: false, avx512: false }, 'f64')).toBe(1);
    expect(widestLanes({ ...avx2, avx512: true }, 'f64')).toBe(16);
    // the default is one register: f64 × 16 would take two AVX-512 registers per value
    expect(registerLanes({ ...avx2, avx512: true }, 'f64')).toBe(8);
    expect(registerLanes({ ...avx2, avx512: true }, 'f32')).toBe(16);
    expect(registerLanes(avx2, 'f64')).toBe(4);
    expect(resolveSettings(DP, loadScene(DP), { copies: 64 }, { ...avx2, avx512: true }).lanes).toBe(8);
    expect(resolveSettings(DP, loadScene(DP), { copies: 64, precision: 'f32' }, { ...avx2, avx512: true }).lanes).toBe(16);
    expect(() => resolveSettings(DP, loadScene(DP), { lanes: 8 }, avx2)).toThrow(
      /--lanes: 8 lanes of f64 need AVX-512, which this CPU lacks \(it runs f64 at lanes 1, 4\)/,
    );
  });

  test("defaults: the scene's world, ~1000 records, reports/run/<scene>-<integrator>-<precision>", () => {
    const model = loadScene(DP);
    const cpu = { sse2: true, avx2: true, avx512: true };
    const s = resolveSettings(DP, model, {}, cpu);
    expect(s).toMatchObject({
      integrator: 'euler',
      dt: 0.002,
      duration: 10,
      steps: 5000,
      recordEvery: 5,
      copies: 1,
      lanes: 1,
      precision: 'f64',
      robots: [0],
    });
    expect(s.outDir).toBe(join('reports', 'run', 'double-pendulum-euler-f64'));
    const t = resolveSettings(DP, model, { integrator: 'rk4', precision: 'f32', duration: 0.3, dt: 0.1 }, cpu);
    expect(t.steps).toBe(3); // 0.3 / 0.1 = 2.9999999999999996 must not become 2 or 4 steps
    expect(t.outDir).toBe(join('reports', 'run', 'double-pendulum-rk4-f32'));
  });
});
