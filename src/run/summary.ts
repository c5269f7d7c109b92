// The numbers a run reports: throughput and energy drift, and their one-screen text form.
//
// Energy drift is total energy minus its value at t = 0, per recorded robot. A relative drift
// needs a scale, and |E(0)| alone fails when E(0) is 0 (a pendulum released from the height of
// its hinge), so the scale is max(|E(0)|, peak kinetic energy over the run): the energy the
// motion actually exchanges. With constant torques in the scene the total energy is not
// conserved, and "drift" includes the torques' work; the summary says so. A large drift gets its
// reason too: contacts, dry friction and damping dissipate energy, and the Euler integrator does not
// conserve it (a free body spinning under Euler gains energy), so neither is taken for a bug.

import { DEFAULT_SOLVER } from '../model-files/scene/contact-settings.js';
import { solverRun, type ModelDesc, type SolverMethod } from '../engine/model-desc.js';
import { formatSi, formatSig } from '../reports/table.js';
import type { Recorder } from './recorder.js';
import type { RunSettings } from './settings.js';
import type { EveryStepEnergy } from './simulate.js';

export interface DriftStats {
  robot: number;
  /** Drift at the last record (J). */
  final: number;
  /** Largest |drift| over the records (J). */
  maxAbs: number;
  /** max(|E(0)|, peak kinetic energy) (J). */
  scale: number;
  /** final / scale and maxAbs / scale; null when the scale is 0 (nothing moved). */
  finalRelative: number | null;
  maxAbsRelative: number | null;
}

export interface RunSummary {
  steps: number;
  copies: number;
  recordedRobots: number[];
  records: number;
  simulatedSeconds: number;
  /** Wall time from the process's start (what the user waited) and its parts (s): Node's start-up
   *  and module loading before the command began, loading the scene and allocating the batch,
   *  simulating (stepping, recording, energy monitoring), writing the files (null in run.json,
   *  which is written before the writing ends; wallSeconds there stops before the writing). */
  wallSeconds: number;
  startupSeconds: number;
  loadSeconds: number;
  simulateSeconds: number;
  writeSeconds: number | null;
  /** Inside simulate: the stepping calls only (what the throughput is timed on). */
  stepSeconds: number;
  robotStepsPerSecond: number;
  /** The recorded robot with the largest |drift|. */
  drift: DriftStats;
  /** Every recorded robot's drift. */
  driftByRobot: DriftStats[];
  /** Whether the scene applies constant generalized forces (energy then isn't conserved). */
  appliesTorque: boolean;
  /** Actuators or joint damping do work on the robot (energy is not conserved). */
  actuatedOrDamped: boolean;
  /** What in the scene dissipates energy: 'contacts' (shapes), 'dry friction', 'damping' (joints or tendons). */
  dissipation: string[];
}

export function driftStats(rec: Recorder, every?: EveryStepEnergy): DriftStats[] {
  const iRobot = rec.index('robot');
  const iKin = rec.index('kinetic');
  const iTot = rec.index('total');
  const iDrift = rec.index('drift');
  return rec.robots.map((robot) => {
    const rows = rec.rows.filter((r) => r[iRobot] === robot);
    let maxAbs = 0;
    let peakKinetic = 0;
    for (const r of rows) {
      maxAbs = Math.max(maxAbs, Math.abs(r[iDrift]));
      peakKinetic = Math.max(peakKinetic, r[iKin]);
    }
    // Over every step when known (the records are a sample of the run).
    const k = every ? every.robots.indexOf(robot) : -1;
    if (k >= 0) {
      maxAbs = Math.max(maxAbs, every!.maxAbsDrift[k]);
      peakKinetic = Math.max(peakKinetic, every!.peakKinetic[k]);
    }
    const final = rows[rows.length - 1][iDrift];
    const scale = Math.max(Math.abs(rows[0][iTot]), peakKinetic);
    const rel = (x: number) => (scale > 0 ? x / scale : null);
    return { robot, final, maxAbs, scale, finalRelative: rel(final), maxAbsRelative: rel(maxAbs) };
  });
}

export interface RunTimes {
  /** When the command began, in seconds from the process's start (performance.now() / 1000): Node's
   *  start-up and module loading, which the command's own clock misses. */
  startSeconds?: number;
  loadSeconds: number;
  simulateSeconds: number;
  stepSeconds: number;
}

export function summarize(
  rec: Recorder,
  s: RunSettings,
  model: ModelDesc,
  stepsDone: number,
  t: RunTimes,
  every?: EveryStepEnergy,
): RunSummary {
  const byRobot = driftStats(rec, every);
  const worst = byRobot.reduce((a, b) => (b.maxAbs > a.maxAbs ? b : a));
  return {
    steps: stepsDone,
    copies: s.copies,
    recordedRobots: [...s.robots],
    records: rec.rows.length / s.robots.length,
    simulatedSeconds: stepsDone * s.dt,
    wallSeconds: (t.startSeconds ?? 0) + t.loadSeconds + t.simulateSeconds,
    startupSeconds: t.startSeconds ?? 0,
    loadSeconds: t.loadSeconds,
    simulateSeconds: t.simulateSeconds,
    writeSeconds: null,
    stepSeconds: t.stepSeconds,
    robotStepsPerSecond: t.stepSeconds > 0 ? (s.copies * stepsDone) / t.stepSeconds : Number.POSITIVE_INFINITY,
    drift: worst,
    driftByRobot: byRobot,
    appliesTorque: model.bodies.some((b) => b.tau.some((x) => x !== 0)),
    actuatedOrDamped: (model.actuators?.length ?? 0) > 0 || model.bodies.some((b) => (b.damping ?? 0) > 0),
    dissipation: dissipation(model),
  };
}

/** What in the model turns motion into heat: contacts (any shape: soft contacts absorb energy on
 *  impact and friction in sliding), dry friction and damping, on joints or tendons. */
export function dissipation(model: ModelDesc): string[] {
  const tendons = model.tendons ?? [];
  const out: string[] = [];
  if ((model.shapes?.length ?? 0) > 0) out.push('contacts');
  if (model.bodies.some((b) => (b.frictionloss ?? 0) > 0) || tendons.some((t) => (t.frictionloss ?? 0) > 0)) out.push('dry friction');
  if (model.bodies.some((b) => (b.damping ?? 0) > 0) || tendons.some((t) => (t.damping ?? 0) > 0)) out.push('damping');
  return out;
}

/** A relative drift from which the summary explains where the energy went (0.1%). */
export const NOTABLE_DRIFT = 1e-3;

/** Why the energy drifted, when it drifted notably: dissipation in the scene, else the Euler integrator. */
export function driftReason(sum: Pick<RunSummary, 'drift' | 'dissipation'>, integrator: string): string | null {
  const rel = sum.drift.maxAbsRelative;
  if (rel === null || rel < NOTABLE_DRIFT) return null;
  if (sum.dissipation.length) {
    const what =
      sum.dissipation.length === 1
        ? sum.dissipation[0]
        : `${sum.dissipation.slice(0, -1).join(', ')} and ${sum.dissipation[sum.dissipation.length - 1]}`;
    return `${what} ${sum.dissipation.length === 1 ? 'dissipates' : 'dissipate'} energy, so a drift of this size is expected: it is not an integration error.`;
  }
  if (integrator === 'euler')
    return 'the Euler integrator does not conserve energy: the drift is its error at this dt (a smaller --dt, or --integrator rk4, drifts far less).';
  if (integrator === 'implicitfast')
    return 'the implicitfast integrator (semi-implicit Euler, implicit in the velocity forces) does not conserve energy: the drift is its error at this dt (a smaller --dt, or --integrator rk4, drifts far less).';
  return null;
}

const pct = (x: number | null): string => (x === null ? 'n/a: nothing moved' : `${formatSig(x * 100, 3)}%`);

/** The summary's solver line for a model with shapes, limits or solver settings (the one that runs,
 *  and why when it is not the one asked for); undefined for a model without constraints. */
export function solverLine(model: ModelDesc): { method: SolverMethod; iterations: number; tolerance?: number; note?: string } | undefined {
  if (model.solver === undefined && !(model.shapes?.length ?? 0) && !model.bodies.some((b) => b.range !== undefined)) return undefined;
  const sv = model.solver ?? DEFAULT_SOLVER;
  const run = solverRun(model);
  return {
    method: run.method,
    iterations: sv.iterations,
    ...(sv.tolerance ? { tolerance: sv.tolerance } : {}),
    ...(run.note ? { note: run.note } : {}),
  };
}

/** The one-screen stdout summary. */
export function summaryText(
  sum: RunSummary,
  s: RunSettings,
  modelName: string,
  isa: string,
  outDir: string,
  solver?: { method: SolverMethod; iterations: number; tolerance?: number; note?: string },
): string {
  const d = sum.drift;
  const robotNote = sum.recordedRobots.length > 1 ? ` (robot ${d.robot}, the worst of ${sum.recordedRobots.join(', ')})` : '';
  const lines: Array<[string, string]> = [
    ['scene', `${modelName} (${s.scene})`],
    ['integrator', `${s.integrator}, dt ${s.dt} s, ${s.substeps} substep${s.substeps === 1 ? '' : 's'}, ${s.precision}`],
    [
      'batch',
      `${s.copies} robot${s.copies === 1 ? '' : 's'}, ${s.lanes} lane${s.lanes === 1 ? '' : 's'} (${isa}), ${s.threads} thread${s.threads === 1 ? '' : 's'}`,
    ],
    [
      'steps',
      `${sum.steps} (${sum.records} record${sum.records === 1 ? '' : 's'}, every ${s.recordEvery === 1 ? 'step' : `${s.recordEvery} steps`})`,
    ],
    ...(solver
      ? ([
          [
            'solver',
            `${{ newton: 'Newton', cg: 'CG', pgs: 'PGS' }[solver.method]}, ${solver.tolerance ? `up to ${solver.iterations} iterations, tolerance ${solver.tolerance}` : `${solver.iterations} iterations`}`,
          ],
        ] as Array<[string, string]>)
      : []),
    ['simulated time', `${Number(sum.simulatedSeconds.toPrecision(12))} s`],
    [
      'wall time',
      `${formatSig(sum.wallSeconds, 3)} s from process start: start-up ${formatSig(sum.startupSeconds, 3)} s, load ${formatSig(sum.loadSeconds, 3)} s, simulate ${formatSig(sum.simulateSeconds, 3)} s (stepping ${formatSig(sum.stepSeconds, 3)} s)` +
        (sum.writeSeconds === null ? '' : `, write ${formatSig(sum.writeSeconds, 3)} s`),
    ],
    ['throughput', formatSi(sum.robotStepsPerSecond, 'robot-steps/s')],
    ['energy drift, final', `${formatSig(d.final, 4)} J (${pct(d.finalRelative)})${robotNote}`],
    ['energy drift, max |.|', `${formatSig(d.maxAbs, 4)} J (${pct(d.maxAbsRelative)}), over every step`],
    ['drift relative to', `${formatSig(d.scale, 4)} J = max(|E(0)|, peak kinetic energy)`],
    ['output', outDir],
  ];
  const w = Math.max(...lines.map(([k]) => k.length));
  let text = lines.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n') + '\n';
  if (solver?.note) text += `note: ${solver.note}.\n`;
  if (sum.appliesTorque)
    text += 'note: the scene applies constant torques, so total energy is not conserved: the drift includes their work.\n';
  if (sum.actuatedOrDamped)
    text += 'note: actuators and joint damping do work, so total energy is not conserved: the drift includes their work.\n';
  const reason = driftReason(sum, s.integrator);
  if (reason) text += `note: ${reason}\n`;
  return text;
}
