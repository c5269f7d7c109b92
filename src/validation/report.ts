// Writes reports/validation/: a CSV per stage, charts (Vega-Lite spec + SVG) and summary.md,
// all through one OutputSet, so the directory gets the whole report or nothing.

import { openOutput } from '../reports/output-dir.js';
import { errorAgainstBarChart, lineChart, scatter, type Datum } from '../reports/charts.js';
import { collisionTable, ERROR_FLOOR_SHOWN } from './collision/report.js';
import { contactTables, writeContactCharts } from './contact/report.js';
import { toCsv } from '../reports/csv.js';
import { writeChart } from '../reports/render.js';
import { formatSig, markdownTable } from '../reports/table.js';
import { F32_FACTOR, F32_ILL_CONDITIONED, F64_BAR } from './metrics.js';
import { F32_PERTURBATIONS, F32_RUN_PERTURBATIONS } from './states.js';
import { bugVerdict, runPasses, summarize, type SuiteResult } from './suite.js';
import { bugTargets } from './bug-targets.js';
import { STAGES, type CheckRow } from './types.js';

const COLUMNS = ['model', 'precision', 'state', 't', 'field', 'error', 'stateFloor', 'floor', 'factor', 'bar', 'status', 'note'] as const;

function worstPerField(rows: readonly CheckRow[]): Datum[] {
  const m = new Map<string, CheckRow>();
  for (const r of rows) {
    if (r.status === 'skip' || !Number.isFinite(r.bar)) continue; // reported-only rows have no bar to chart
    const k = `${r.model}|${r.field}`;
    const w = m.get(k);
    if (!w || r.error / r.bar > w.error / w.bar) m.set(k, r);
  }
  return [...m.values()].map((r) => ({ model: r.model, field: r.field, error: r.error, bar: r.bar }));
}

export function summaryMarkdown(r: SuiteResult): string {
  const gates = summarize(r);
  const lines: string[] = [];
  lines.push(`# achilles validate: ${runPasses(r) ? 'PASS' : 'FAIL'}`, '');
  lines.push(
    `Seed ${r.options.seed}; ${r.options.states} random states per model and stage (positions uniform, velocities N(0, 1.5²), torques N(0, s²) with s the model's RMS gravity torque); runtime ${r.seconds.toFixed(1)} s${r.mujocoVersion ? `; MuJoCo ${r.mujocoVersion}` : ''}.`,
    '',
    `Errors are relative to each field's own scale (‖err‖∞ / ‖ref‖∞ per state). Bars: f64 ${F64_BAR} (documented constant); f32 ${F32_FACTOR} × the field's measured float32 floor (the reference's largest change over ${F32_PERTURBATIONS} seeded perturbations of every input number, state and model constants, by a float32 half-ulp relative, i.e. × (1 + δ) with |δ| ≤ 2⁻²⁴, its answer stored in float32: the floor no float32 engine can beat; for the fields solved from the equations of motion, forward q̈, mass matrix, bias and step, also of as many solves of MuJoCo's own M q̈ = τ − b with every entry of M and b perturbed the same way, the larger change counting: storing the equations in float32 is part of the floor on an ill-conditioned M; a step's floor from the equations also perturbs every intermediate the engine's integrator stores, stage velocities, positions, accelerations and sums); over time, ${F32_FACTOR} × the running floor of the largest of ${F32_RUN_PERTURBATIONS} MuJoCo runs with the model perturbed once and every step fully perturbed like a float32 engine's: M and b at every dynamics evaluation (a fresh draw each time, or one draw for the whole run), the integrator's stored intermediates and the state (each × (1 + δ), or rounded to float32) (f32), or of a run nudged by one float64 ulp per step (f64). States whose floor exceeds ${F32_ILL_CONDITIONED} are skipped and counted.`,
    '',
  );
  lines.push('## Gates', '');
  lines.push(
    markdownTable(
      ['stage', 'model', 'precision', 'status', 'worst error / bar', 'worst field', 'compared', 'skipped', 'bugs caught / judged'],
      gates.map((g) => [
        g.stage,
        g.model,
        g.precision,
        g.status,
        formatSig(g.worstRatio, 3),
        g.worstField,
        String(g.compared),
        String(g.skipped),
        `${g.bugsCaught} / ${g.bugsJudged}`,
      ]),
    ),
  );
  if (r.bugs.length) {
    lines.push('## Planted bugs', '');
    lines.push(
      `Swept with the bug build at f64 on the first ${r.options.bugStates} states of each model (same bars); the real gates above ran in full on the normal engine. A subset is judged only on the bugs its stages target (src/validation/bug-targets.ts: the stages that catch each bug in the full suite).`,
      '',
    );
    lines.push(
      markdownTable(
        ['bug', 'caught', 'target stages', 'stages that failed', 'gates failed'],
        r.bugs.map((b) => [
          b.name,
          b.reached
            ? b.failed.length
              ? 'yes'
              : 'NO (broken gate)'
            : b.targeted
              ? 'not judged: not reached by the chosen models'
              : 'not judged: its target stages did not run',
          (bugTargets(b.name) ?? ['(every stage)']).join(', '),
          [...new Set(b.failed.map((k) => k.split('/')[0]))].join(', '),
          String(b.failed.length),
        ]),
      ),
    );
    lines.push(`${bugVerdict(r)}.`, '');
  }
  const e = r.energy.f64;
  if (e) {
    lines.push('## Energy drift (double pendulum from horizontal, 10 s at 2 ms, f64)', '');
    lines.push(
      markdownTable(
        ['integrator', 'engine drift (J)', 'MuJoCo drift on its own run (J)'],
        Object.entries(e).map(([g, s]) => [g, s.drift, s.mujocoDrift]),
      ),
    );
  }
  if (r.collision) lines.push(...collisionTable(r));
  const sensors = r.rows.filter((x) => x.stage === 'sensors' && x.precision === 'f64');
  if (sensors.length) {
    // src/validation/sensors/: each statistic within 5 standard errors of its estimate (stats.ts derives them).
    lines.push(
      '## Sensors (f64 engine; f32 in sensors.csv)',
      '',
      'Bars: 5 standard errors of each estimate (derived in src/validation/sensors/stats.ts), or exact (latency and frame schedule to the step).',
      '',
    );
    lines.push(
      markdownTable(
        ['scenario', 'statistic', 'error / bar', 'status', 'measured'],
        sensors.map((x) => [x.model, x.field, formatSig(x.error === 0 ? 0 : x.error / x.bar, 3), x.status, x.note]),
      ),
    );
  }
  lines.push(...contactTables(r));
  if (r.timings.length) {
    lines.push(
      '## Time',
      '',
      `Wall seconds per phase and group of stages (${r.seconds.toFixed(1)} s in all; the MuJoCo references run two at a time, overlapping).`,
      '',
    );
    lines.push(
      markdownTable(
        ['phase', 'stages', 'seconds'],
        r.timings.map((t) => [t.phase, t.group, t.seconds.toFixed(1)]),
      ),
    );
  }
  const skipped = r.rows.filter((x) => x.status === 'skip');
  lines.push(
    '## Skipped',
    '',
    `${skipped.length} compared quantities skipped (float32 cannot resolve them, or chaos has decorrelated the reference from its own perturbed run); every one is in the stage CSV with status \`skip\` and the reason.`,
    '',
  );
  return lines.join('\n') + '\n';
}

export async function writeReport(r: SuiteResult, dir: string, force = false): Promise<string[]> {
  const out = await openOutput(dir, { command: 'validate', force });
  try {
    for (const stage of STAGES) {
      const rows = r.rows.filter((x) => x.stage === stage);
      if (!rows.length) continue;
      await out.write(
        `${stage}.csv`,
        toCsv(
          rows.map((x) => ({ ...x, t: x.t ?? '' })),
          { columns: COLUMNS, meta: { stage, seed: r.options.seed } },
        ),
      );
      if (stage === 'trajectory') continue; // charted over time below
      for (const p of ['f32', 'f64'] as const) {
        const data = worstPerField(rows.filter((x) => x.precision === p));
        if (!data.length) continue;
        await writeChart(
          out,
          `${stage}-${p}-error-vs-bar`,
          errorAgainstBarChart({
            title: `${stage} (${p}): worst error per field against its bar`,
            data,
            field: 'field',
            error: 'error',
            color: 'model',
            bar: { field: 'bar' },
            xTitle: 'field',
            yTitle: 'relative error',
          }),
        );
      }
    }
    const traj = r.rows.filter((x) => x.stage === 'trajectory');
    for (const p of ['f32', 'f64'] as const) {
      const data = traj
        .filter((x) => x.precision === p && x.error > 0)
        .map((x) => ({ t: x.t ?? 0, error: x.error, series: `${x.model} ${x.field}` }));
      if (data.length)
        await writeChart(
          out,
          `trajectory-${p}-error-over-time`,
          lineChart({
            title: `trajectory error over time (${p})`,
            data,
            x: 't',
            y: 'error',
            color: 'series',
            xTitle: 't (s)',
            yTitle: 'relative error',
            logY: true,
            maxPoints: 200,
          }),
        );
    }
    for (const [p, series] of Object.entries(r.energy)) {
      const data = Object.entries(series).flatMap(([g, s]) =>
        s.engine.map((E, k) => ({ t: k * 0.002, dE: E - s.engine[0], integrator: g })),
      );
      await writeChart(
        out,
        `energy-${p}-drift`,
        lineChart({
          title: `double pendulum energy E(t) − E(0), 10 s at 2 ms (${p})`,
          data,
          x: 't',
          y: 'dE',
          color: 'integrator',
          xTitle: 't (s)',
          yTitle: 'E(t) − E(0) (J)',
        }),
      );
    }
    if (r.closedForm.length) {
      const data = r.closedForm.flatMap((c) => c.t.map((t, k) => ({ t, error: c.error[k], run: `${c.model} ${c.precision}` })));
      await writeChart(
        out,
        'exact-closed-form-over-time',
        lineChart({
          title: 'double pendulum q̈: engine against the closed form at every state of a 10 s run',
          data: data.filter((d) => d.error > 0),
          x: 't',
          y: 'error',
          color: 'run',
          xTitle: 't (s)',
          yTitle: 'relative error',
          logY: true,
        }),
      );
    }
    if (r.collision?.scatter.length) {
      const data = r.collision.scatter.filter((d) => Number.isFinite(d.reported));
      await writeChart(
        out,
        'collision-reported-vs-exact',
        scatter({
          title: 'collision: reported against exact signed distance (units of the pair size; missed contacts not drawn)',
          data,
          x: 'exact',
          y: 'reported',
          color: 'source',
          xTitle: 'exact distance / size',
          yTitle: 'reported distance / size',
          tooltip: ['combo', 'source', 'note'],
        }),
      );
      const err = data.map((d) => ({ ...d, error: Math.max(Math.abs(d.reported - d.exact), ERROR_FLOOR_SHOWN) }));
      await writeChart(
        out,
        'collision-error-vs-exact',
        scatter({
          title: `collision: |reported − exact| against exact distance (units of size; exact agreement drawn at ${ERROR_FLOOR_SHOWN})`,
          data: err,
          x: 'exact',
          y: 'error',
          color: 'source',
          xTitle: 'exact distance / size',
          yTitle: '|error| / size',
          logY: true,
          tooltip: ['combo', 'source', 'note'],
        }),
      );
    }
    await writeContactCharts(out, r);
    await out.write('summary.md', summaryMarkdown(r));
    return await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
}
