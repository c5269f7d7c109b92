// The contact stages' part of summary.md and their charts: the error our solver leaves after the
// default 20 iterations beside MuJoCo's CG capped at 20; the incline against Coulomb, with the creep
// soft friction allows; each domino's tip time and rest angle, ours beside MuJoCo's (Newton and CG-20);
// and the charts of the domino tip times and the penetration over time.

import { lineChart, scatter } from '../../reports/charts.js';
import type { OutputSink } from '../../reports/atomic.js';
import { writeChart } from '../../reports/render.js';
import { formatSig, markdownTable } from '../../reports/table.js';
import type { SuiteResult } from '../suite-result.js';
import { DOMINO_REST_BAR, DOMINO_REST_ITERATIONS, DOMINO_TIP_BAR, DOMINO_TIP_DEG, DOMINO_TWINS } from './trajectory.js';

const median = (xs: readonly number[]) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const worst = (xs: readonly number[]) => (xs.length ? Math.max(...xs.map((x) => (Number.isNaN(x) ? Infinity : x))) : NaN);

export function contactTables(r: SuiteResult): string[] {
  const c = r.contact;
  if (!c) return [];
  const out: string[] = [];
  if (c.states.length) {
    out.push('## Contact: constrained accelerations after the default 20 iterations', '');
    out.push(
      "Per state, ‖q̈ − q̈_Newton‖∞ / ‖q̈_Newton‖∞ against MuJoCo's Newton solve at tolerance 1e-14 (the `contact` stage judges ours run to convergence; this is what the default fixed 20 conjugate-gradient iterations leave). MuJoCo's own CG capped at 20 iterations (per island, as ours; no warm start, tolerance 0) beside it. Median / worst over the states.",
      '',
    );
    out.push(
      markdownTable(
        ['model', 'precision', 'ours, 20 iterations', 'MuJoCo CG, 20 iterations'],
        c.states.map((s) => [
          s.model,
          s.precision,
          `${formatSig(median(s.iter20), 2)} / ${formatSig(worst(s.iter20), 2)}`,
          `${formatSig(median(s.mujocoCg20), 2)} / ${formatSig(worst(s.mujocoCg20), 2)}`,
        ]),
      ),
    );
  }
  if (c.incline.length) {
    out.push('## Contact: the incline against Coulomb', '');
    out.push(
      "scenes/incline.arow (30°): accelerations along the slope fitted over 0.5–1.5 s (m/s²); the sticking block's speed at 1.5 s is the creep soft friction allows (Coulomb: 0). MuJoCo runs the exported scene (Newton).",
      '',
    );
    out.push(
      markdownTable(
        ['precision', 'slide: ours / MuJoCo / Coulomb', 'roll: ours / MuJoCo / (5/7) g sin θ', 'creep (m/s): ours / MuJoCo'],
        c.incline.map((i) => [
          i.precision,
          `${formatSig(i.slide.ours, 5)} / ${formatSig(i.slide.mujoco, 5)} / ${formatSig(i.slide.exact, 5)}`,
          `${formatSig(i.roll.ours, 5)} / ${formatSig(i.roll.mujoco, 5)} / ${formatSig(i.roll.exact, 5)}`,
          `${formatSig(i.creep.ours, 3)} / ${formatSig(i.creep.mujoco, 3)}`,
        ]),
      ),
    );
  }
  for (const d of c.domino) {
    out.push(`## Contact: domino amplifier (${d.precision})`, '');
    out.push(
      `Time each domino first tips past ${DOMINO_TIP_DEG}° (s), ours at the scene's 20 iterations, and its angle at 8 s (°), ours converged (${DOMINO_REST_ITERATIONS} iterations). The amplifier turns round-off into tens of milliseconds, so MuJoCo runs from the scene's start, value first, and from ${DOMINO_TWINS} twins one ulp away, range in brackets. Bars ${DOMINO_TIP_BAR * 1000} ms and ${DOMINO_REST_BAR}° from the range of the runs named gated (tips: ${d.tip.gated.join(', ')}; rest angles: ${d.rest.gated.join(', ')}).`,
      '',
    );
    const span = (runs: number[][], b: number) => {
      const xs = runs.map((r) => r[b]);
      return `${formatSig(xs[0], 4)} (${formatSig(Math.min(...xs), 4)}–${formatSig(Math.max(...xs), 4)})`;
    };
    out.push(
      markdownTable(
        [
          'domino',
          'tip: ours',
          'tip: Newton',
          'tip: CG-20',
          'tip: Newton, f32 state',
          'rest: ours',
          'rest: Newton',
          'rest: Newton, f32 state',
        ],
        d.tip.ours.map((_, b) => [
          String(b),
          formatSig(d.tip.ours[b], 4),
          span(d.tip.mujoco.newton, b),
          span(d.tip.mujoco.cg20, b),
          span(d.tip.mujoco.newton32, b),
          formatSig(d.rest.ours[b], 4),
          span(d.rest.mujoco.newton, b),
          span(d.rest.mujoco.newton32, b),
        ]),
      ),
    );
  }
  return out;
}

export async function writeContactCharts(out: OutputSink, r: SuiteResult): Promise<void> {
  const c = r.contact;
  if (!c) return;
  for (const d of c.domino) {
    const runs = (label: string, rs: number[][], b: number) =>
      rs.map((r, k) => ({ domino: b, tip: r[b], source: k ? `${label}, one-ulp twins` : label }));
    const data = d.tip.ours
      .flatMap((_, b) => [
        { domino: b, tip: d.tip.ours[b], source: `achilles ${d.precision}` },
        ...runs('MuJoCo (Newton)', d.tip.mujoco.newton, b),
        ...runs('MuJoCo (CG, 20 iterations)', d.tip.mujoco.cg20, b),
      ])
      .filter((x) => Number.isFinite(x.tip));
    await writeChart(
      out,
      `contact-domino-tip-times-${d.precision}`,
      scatter({
        title: `domino amplifier: time each domino tips past ${DOMINO_TIP_DEG}° (${d.precision})`,
        data,
        x: 'domino',
        y: 'tip',
        color: 'source',
        xTitle: 'domino (each 1.5× the last)',
        yTitle: 'tip time (s)',
      }),
    );
    if (d.penetration.length) {
      await writeChart(
        out,
        `contact-penetration-over-time-${d.precision}`,
        lineChart({
          title: `box stack: deepest contact penetration over time (${d.precision})`,
          data: d.penetration,
          x: 't',
          y: 'depth',
          color: 'source',
          xTitle: 't (s)',
          yTitle: 'penetration (m)',
          maxPoints: 400,
        }),
      );
    }
  }
}
