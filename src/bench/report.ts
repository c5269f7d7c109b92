// Renders a BenchReport: the terminal table, the --json document, CSV and Vega-Lite charts.

import type { CsvRow } from '../reports/csv.js';
import { toCsv } from '../reports/csv.js';
import { lineChart, type Datum, type VlSpec } from '../reports/charts.js';
import { formatRatio, formatSi, formatSig, textTable } from '../reports/table.js';
import type { BenchReport, BenchResult } from './run.js';
import { checkTargets } from './targets.js';

export function machineLines(rep: BenchReport): string[] {
  const m = rep.machine;
  return [
    `CPU: ${m.cpuModel} @ ${m.cpuMHz.toFixed(0)} MHz, ${m.logicalCpus} logical CPUs; ISA available: ${m.isaAvailable.join(', ')}`,
    `Engine compiler: ${m.compiler}; Node ${m.node}; ${m.platform}; MuJoCo ${m.mujoco ?? '(not compared)'}`,
    `Each cell: warm-up, then ${rep.config.reps} repetition${rep.config.reps === 1 ? '' : 's'} of ~${rep.config.repSeconds} s, interleaved with the other engine; ` +
      `median shown, spread = (max−min)/median, '*' marks spread > 10%. Trajectories restart every ${rep.config.restartEvery} steps (untimed); ` +
      `a repetition is whole restart segments (at least one), so every cell times the same steps.`,
    ...(m.peakNote ? [`FLOPs: ${m.peakNote}`] : []),
  ];
}

function engineLabel(r: BenchResult): string {
  if (r.engine === 'mujoco-merged') return `mujoco merged×${r.robotsPerModel}`;
  if (r.engine === 'mujoco-newton') return 'mujoco Newton';
  if (r.engine === 'mujoco-cg20') return 'mujoco CG≤20';
  return r.engine === 'mujoco-per-robot' ? 'mujoco per-robot' : 'achilles';
}

/** What a row timed: the plain step, detection alone, or Achilles' step with detection. */
function measureLabel(r: BenchResult): string {
  if (r.measure === 'detect') return r.engine === 'achilles' ? 'detect' : 'mj_collision';
  if (r.measure === 'step+detect') return 'step+detect';
  if (r.engine === 'mujoco-newton' || r.engine === 'mujoco-cg20') return 'step, contacts';
  return r.engine === 'achilles' ? 'step' : 'step, no contacts';
}

export function benchTable(rep: BenchReport): string {
  const hasThreads = rep.results.some((r) => r.threads !== 1);
  const hasMj = rep.results.some((r) => r.engine !== 'achilles');
  const hasFlops = rep.results.some((r) => r.gflops !== undefined);
  // Scenes with shapes add detection cells; the column says what each row timed.
  const hasMeasure = rep.results.some((r) => r.measure !== undefined);
  const hasContact = rep.results.some((r) => r.vsMujocoNewton !== undefined || r.vsMujocoCg20 !== undefined);
  // Contact scenes: MuJoCo with contacts disabled is other physics, shown apart from the headline.
  const hasOff = rep.results.some((r) => r.vsMujocoContactsOff !== undefined);
  // Robots that differ (issue 25): each row says whether its robots differed or ran in lockstep.
  const hasRobots = rep.results.some((r) => r.robots === 'differ');
  const header = [
    'scene',
    'integrator',
    ...(hasRobots ? ['robots'] : []),
    'engine',
    ...(hasMeasure ? ['measure'] : []),
    'prec',
    'lanes',
    'isa',
    'copies',
    ...(hasThreads ? ['threads'] : []),
    'robot-steps/s',
    'µs/step',
    'µs/robot-step',
    'spread',
    ...(hasMj ? ['vs MuJoCo', 'best MuJoCo'] : []),
    ...(hasContact ? ['vs MuJoCo Newton (contacts)', 'vs MuJoCo CG≤20 (contacts)'] : []),
    ...(hasOff ? ['vs MuJoCo (contacts off)'] : []),
    ...(hasThreads ? ['vs 1 thread'] : []),
    ...(hasFlops ? ['GFLOP/s', '% peak'] : []),
  ];
  const rows = rep.results.map((r) => [
    r.scene,
    r.integrator,
    ...(hasRobots ? [r.robots] : []),
    engineLabel(r),
    ...(hasMeasure ? [measureLabel(r)] : []),
    r.precision,
    r.lanes,
    r.isa,
    r.copies,
    ...(hasThreads ? [r.threads] : []),
    formatSi(r.robotStepsPerSec),
    formatSig(r.usPerStep, 4),
    formatSig(r.usPerRobotStep, 4),
    `${(r.spread * 100).toFixed(1)}%${r.noisy ? ' *' : ''}`,
    ...(hasMj ? [r.vsMujoco === undefined ? '' : formatRatio(r.vsMujoco), r.mujocoBest?.replace('mujoco-', '') ?? ''] : []),
    ...(hasContact
      ? [
          r.vsMujocoNewton === undefined ? '' : formatRatio(r.vsMujocoNewton),
          r.vsMujocoCg20 === undefined ? '' : formatRatio(r.vsMujocoCg20),
        ]
      : []),
    ...(hasOff ? [r.vsMujocoContactsOff === undefined ? '' : formatRatio(r.vsMujocoContactsOff)] : []),
    ...(hasThreads ? [r.threadScaling === undefined ? '' : formatRatio(r.threadScaling)] : []),
    ...(hasFlops
      ? [
          r.gflops === undefined ? '' : formatSig(r.gflops, 3),
          r.fractionOfPeak === undefined ? '' : `${(r.fractionOfPeak * 100).toFixed(1)}%`,
        ]
      : []),
  ]);
  // Counts (lanes, copies, threads) print as integers, not as 4-significant-digit reals.
  return textTable(header, rows, { formatNumber: (x) => (Number.isInteger(x) ? String(x) : formatSig(x, 4)) });
}

export function benchJson(rep: BenchReport): string {
  return `${JSON.stringify({ machine: rep.machine, config: rep.config, results: rep.results, notes: rep.notes, targets: checkTargets(rep) }, null, 2)}\n`;
}

export function benchCsv(rep: BenchReport): string {
  const rows: CsvRow[] = rep.results.map((r) => ({
    engine: r.engine,
    scene: r.scene,
    integrator: r.integrator,
    precision: r.precision,
    lanes: r.lanes,
    isa: r.isa,
    copies: r.copies,
    threads: r.threads,
    robots: r.robots,
    startSpread: r.startSpread,
    ctrl: r.ctrl,
    robotsPerModel: r.robotsPerModel,
    robotStepsPerSec: r.robotStepsPerSec,
    minRobotStepsPerSec: r.minRobotStepsPerSec,
    maxRobotStepsPerSec: r.maxRobotStepsPerSec,
    usPerStep: r.usPerStep,
    usPerRobotStep: r.usPerRobotStep,
    spread: r.spread,
    noisy: r.noisy,
    reps: r.reps,
    stepsPerRep: r.stepsPerRep,
    nonFiniteRobotSteps: r.nonFiniteRobotSteps,
    vsMujoco: r.vsMujoco,
    mujocoBest: r.mujocoBest,
    threadScaling: r.threadScaling,
    vsMujocoNewton: r.vsMujocoNewton,
    vsMujocoCg20: r.vsMujocoCg20,
    vsMujocoContactsOff: r.vsMujocoContactsOff,
    flopsPerRobotStep: r.flopsPerRobotStep,
    gflops: r.gflops,
    fractionOfPeak: r.fractionOfPeak,
    measure: r.measure,
    contactsPerCall: r.contactsPerCall,
  }));
  const m = rep.machine;
  return toCsv(rows, {
    meta: {
      cpu: m.cpuModel,
      cpuMHz: m.cpuMHz,
      compiler: m.compiler,
      node: m.node,
      mujoco: m.mujoco,
      restartEvery: rep.config.restartEvery,
      reps: rep.config.reps,
      repSeconds: rep.config.repSeconds,
    },
  });
}

/** lineChart draws a linear x; our copies axis spans 1..4096, so make it logarithmic. Every
 *  measurement is also a point (with one copies value a line has nothing to join), and the legend
 *  lists the series in natural order (×1, ×4, ×8, ×16; not ×1, ×16, ×4, ×8). */
function logX(spec: VlSpec, series: readonly string[]): VlSpec {
  const enc = spec.encoding as { x: { scale?: unknown }; color?: { sort?: unknown } };
  enc.x.scale = { type: 'log' };
  if (enc.color) enc.color.sort = naturalOrder(series);
  (spec as { mark: object }).mark = { ...(spec as { mark: object }).mark, point: true };
  return spec;
}

/** Distinct names sorted with their numbers compared as numbers. */
export function naturalOrder(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** `markLockstep`: the report also has differing robots, so its lockstep series are named apart. */
function seriesName(r: BenchResult, markLockstep: boolean): string {
  const m = (r.measure ? ` ${r.measure}` : '') + (r.robots === 'lockstep' && markLockstep ? ' lockstep' : '');
  if (r.engine !== 'achilles') return engineLabel(r).replace(/×\d+$/, '') + m;
  return `achilles ${r.precision} ×${r.lanes}${r.threads !== 1 ? ` ${r.threads}thr` : ''}${m}`;
}

/** One chart per scene × integrator: throughput against copies, and speed-up over MuJoCo. */
export function benchCharts(rep: BenchReport): { name: string; spec: VlSpec }[] {
  const markLockstep = rep.results.some((r) => r.robots === 'differ');
  const out: { name: string; spec: VlSpec }[] = [];
  const keys = [...new Set(rep.results.map((r) => `${r.scene}|${r.integrator}`))];
  for (const k of keys) {
    const [scene, integrator] = k.split('|');
    const rs = rep.results.filter((r) => r.scene === scene && r.integrator === integrator);
    const base = `${scene}-${integrator}`.replace(/[^A-Za-z0-9_.-]/g, '_');
    const rate: Datum[] = rs.map((r) => ({ copies: r.copies, rate: r.robotStepsPerSec, series: seriesName(r, markLockstep) }));
    out.push({
      name: `throughput-${base}`,
      spec: logX(
        lineChart({
          title: `${scene} (${integrator}): robot-steps per second`,
          data: rate,
          x: 'copies',
          y: 'rate',
          color: 'series',
          xTitle: 'copies (robots)',
          yTitle: 'robot-steps/s',
          logY: true,
        }),
        rate.map((d) => String(d.series)),
      ),
    });
    const sp: Datum[] = rs
      .filter((r) => r.vsMujoco !== undefined)
      .map((r) => ({ copies: r.copies, speedup: r.vsMujoco ?? 0, series: seriesName(r, markLockstep) }));
    if (sp.length > 0) {
      out.push({
        name: `speedup-${base}`,
        spec: logX(
          lineChart({
            title: `${scene} (${integrator}): Achilles / fastest single-threaded MuJoCo running the same physics`,
            data: sp,
            x: 'copies',
            y: 'speedup',
            color: 'series',
            xTitle: 'copies (robots)',
            yTitle: 'speed-up over MuJoCo (×)',
            logY: true,
          }),
          sp.map((d) => String(d.series)),
        ),
      });
    }
  }
  return out;
}
