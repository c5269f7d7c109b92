// The project's throughput targets (seven-link arm, one core), checked against a report so
// RESULTS.md and the terminal say plainly which were reached and by what ratio.

import type { BenchReport, BenchResult } from './run.js';

export interface TargetCheck {
  target: string;
  /** null: the run lacks the cells needed. */
  met: boolean | null;
  measured: string;
}

const f = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

export function checkTargets(rep: BenchReport, scene = 'arm7'): TargetCheck[] {
  const one = rep.results.filter((r) => r.scene === scene && r.threads === 1);
  const ours = (integ: string, p: string, lanes?: number) =>
    one.filter((r) => r.engine === 'achilles' && r.integrator === integ && r.precision === p && (lanes === undefined || r.lanes === lanes));
  const mjBest = (integ: string, copies: number) =>
    Math.max(...one.filter((r) => r.engine !== 'achilles' && r.integrator === integ && r.copies === copies).map((r) => r.robotStepsPerSec));
  const out: TargetCheck[] = [];
  const missing = (target: string): TargetCheck => ({ target, met: null, measured: 'not measured in this run' });

  // 1–2: big batches against MuJoCo's best single-threaded mode, worst copies count ≥ 64 quoted.
  for (const [p, lanes, goal] of [
    ['f32', 16, 10],
    ['f64', undefined, 4],
  ] as const) {
    const name = `${p}${lanes ? ` ${lanes} lanes` : ' (best lanes)'}, copies ≥ 64: ≥ ${goal}× MuJoCo best`;
    const cells = ours('euler', p, lanes).filter((r) => r.copies >= 64 && r.vsMujoco !== undefined);
    if (cells.length === 0) {
      out.push(missing(name));
      continue;
    }
    const byCopies = new Map<number, BenchResult>();
    for (const r of cells) if (!byCopies.has(r.copies) || r.vsMujoco! > byCopies.get(r.copies)!.vsMujoco!) byCopies.set(r.copies, r);
    const ratios = [...byCopies.values()].map((r) => ({ c: r.copies, x: r.vsMujoco!, l: r.lanes }));
    const worst = Math.min(...ratios.map((r) => r.x));
    out.push({
      target: name,
      met: worst >= goal,
      measured: `${f(worst)}× worst … ${f(Math.max(...ratios.map((r) => r.x)))}× best (${ratios.map((r) => `${r.c}: ${f(r.x)}× @${r.l}`).join(', ')})`,
    });
  }

  // 3: one robot, scalar lanes, against one MuJoCo robot.
  for (const p of ['f32', 'f64']) {
    const name = `${p} lanes 1, one robot: no slower than MuJoCo one robot`;
    const r = ours('euler', p, 1).find((c) => c.copies === 1);
    if (!r || r.vsMujoco === undefined) {
      out.push(missing(name));
      continue;
    }
    out.push({ target: name, met: r.vsMujoco >= 1, measured: `${f(r.vsMujoco)}×` });
  }

  // 4: 16 robots fill the 16 lanes for almost the price of one.
  {
    const name = 'f32 16 lanes: time of 16 robots < 1.5× time of 1 robot';
    const a = ours('euler', 'f32', 16).find((c) => c.copies === 1);
    const b = ours('euler', 'f32', 16).find((c) => c.copies === 16);
    if (!a || !b) out.push(missing(name));
    else out.push({ target: name, met: b.usPerStep / a.usPerStep < 1.5, measured: `${f(b.usPerStep / a.usPerStep)}×` });
  }

  // 5: large batches do not fall off a cache cliff.
  for (const p of ['f32', 'f64']) {
    const name = `${p} fastest lanes: 4096 copies within 25% of the best copies count`;
    const cells = ours('euler', p);
    const at4096 = cells.filter((r) => r.copies === 4096);
    if (at4096.length === 0) {
      out.push(missing(name));
      continue;
    }
    // The lane width that is fastest at 4096 (f32: 16; f64: measured 8 beats 16 = 2 registers).
    const widest = at4096.reduce((a, b) => (b.robotStepsPerSec > a.robotStepsPerSec ? b : a)).lanes;
    const w = cells.filter((r) => r.lanes === widest);
    const big = w.find((r) => r.copies === 4096);
    if (!big) {
      out.push(missing(name));
      continue;
    }
    const best = w.reduce((a, b) => (b.robotStepsPerSec > a.robotStepsPerSec ? b : a));
    const x = big.robotStepsPerSec / best.robotStepsPerSec;
    // Copies counts are not paired rep by rep the way engines are, so on a busy machine the
    // medians can differ by drift alone; then the least-disturbed (fastest) reps decide, and
    // both estimates are quoted.
    const bestRep = w.reduce((a, b) => (b.maxRobotStepsPerSec > a.maxRobotStepsPerSec ? b : a));
    const xr = big.maxRobotStepsPerSec / bestRep.maxRobotStepsPerSec;
    const noisy = w.some((r) => r.noisy);
    out.push({
      target: name,
      met: (noisy ? xr : x) >= 0.75,
      measured: `${f(x)} of the best by medians (copies ${best.copies}), ${f(xr)} by fastest reps (copies ${bestRep.copies}), lanes ${widest}${noisy ? '; noisy cells: fastest reps decide' : ''}`,
    });
  }

  // 6: RK4 costs four force evaluations, like MuJoCo's.
  {
    const name = 'RK4 ≈ 4× Euler cost (MuJoCo for reference)';
    const pairs: string[] = [];
    const ratios: number[] = [];
    for (const e of one.filter(
      (r) =>
        r.integrator === 'euler' &&
        (r.engine !== 'achilles' || (r.precision === 'f32' && r.lanes === Math.max(...ours('euler', 'f32').map((c) => c.lanes)))),
    )) {
      const k = one.find(
        (r) =>
          r.integrator === 'rk4' && r.engine === e.engine && r.precision === e.precision && r.lanes === e.lanes && r.copies === e.copies,
      );
      if (!k) continue;
      const x = e.robotStepsPerSec / k.robotStepsPerSec;
      if (e.copies === 64 || e.copies === 1) pairs.push(`${e.engine} ${e.copies}: ${f(x)}×`);
      if (e.engine === 'achilles') ratios.push(x);
    }
    if (ratios.length === 0) out.push(missing(name));
    else {
      const med = [...ratios].sort((a, b) => a - b)[ratios.length >> 1];
      out.push({ target: name, met: med >= 3 && med <= 5, measured: `Achilles f32 median ${f(med)}× over copies; ${pairs.join(', ')}` });
    }
  }
  return out;
}

export function targetLines(checks: TargetCheck[]): string[] {
  return checks.map((c) => `${c.met === null ? '  -  ' : c.met ? ' MET ' : 'MISSED'} ${c.target}: ${c.measured}`);
}
