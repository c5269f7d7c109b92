// `achilles bench`: throughput of the engine, measured honestly, optionally against native MuJoCo.
// The work lives in src/bench/*; this file is the flag table and the output plumbing.

import { largeModelOption } from './large-model-option.js';
import { INTEGRATORS } from '../engine/model-desc.js';
import { LANE_WIDTHS, PRECISIONS } from '../engine/api.js';
import { resolveConfig, DEFAULT_COPIES, DEFAULT_REP_SECONDS, DEFAULT_RESTART_EVERY } from '../bench/config.js';
import { runBench } from '../bench/run.js';
import { CTRL_MODES, DEFAULT_BENCH_SPREAD, LOCKSTEP_CHOICES } from '../bench/robots.js';
import { checkTargets, targetLines } from '../bench/targets.js';
import { benchCharts, benchCsv, benchJson, benchTable, machineLines } from '../bench/report.js';
import { installSignalCleanup } from '../reports/atomic.js';
import { checkOutputDir, openOutput } from '../reports/output-dir.js';
import { writeChart } from '../reports/render.js';
import type { CommandSpec, ParsedOptions } from '../util/command-spec.js';

async function run(_args: string[], opts: ParsedOptions): Promise<number> {
  const cfg = resolveConfig(opts);
  const force = opts.force === true;
  checkOutputDir(cfg.out, { command: 'bench', force }); // before any timing
  const report = await runBench(cfg);
  if (cfg.json) process.stdout.write(benchJson(report));
  else {
    process.stdout.write(`${machineLines(report).join('\n')}\n\n${benchTable(report)}\n`);
    for (const n of report.notes) process.stdout.write(`note: ${n}\n`);
    // The project's published targets concern the seven-link arm; print them when it was timed.
    const checks = checkTargets(report);
    if (checks.some((c) => c.met !== null)) process.stdout.write(`\nTargets (arm7, euler, one core):\n${targetLines(checks).join('\n')}\n`);
  }
  // Reports are staged and moved in together: an interrupted run leaves the old ones intact.
  const uninstall = installSignalCleanup();
  const set = await openOutput(cfg.out, { command: 'bench', force });
  try {
    await set.write('bench.csv', benchCsv(report));
    await set.write('bench.json', benchJson(report));
    for (const c of benchCharts(report)) await writeChart(set, c.name, c.spec);
    const files = await set.commit();
    process.stderr.write(`wrote ${files.length} files to ${set.dir}\n`);
  } catch (e) {
    await set.abort();
    throw e;
  } finally {
    uninstall();
  }
  return 0;
}

export const benchCommand: CommandSpec = {
  name: 'bench',
  summary: 'Measure robot-steps per second (median of interleaved repetitions), optionally against native MuJoCo',
  positionals: [],
  options: [
    {
      name: 'scene',
      arg: 'FILE',
      kind: { type: 'list-string' },
      description:
        "Scene to time (a scene with shapes adds detection cells: collide() alone and the step with detection, beside MuJoCo's mj_collision, and MuJoCo's step with contacts on, its default Newton solver and CG capped at 20 iterations)",
      defaultText: 'scenes/arm7.arow and scenes/double-pendulum.arow',
    },
    {
      name: 'lanes',
      arg: 'L,...',
      kind: { type: 'list-choice', choices: LANE_WIDTHS.map(String) },
      description: 'SIMD lane widths (1 scalar, 4 SSE2, 8 AVX2, 16 AVX-512)',
      defaultText: 'those this CPU supports',
    },
    {
      name: 'precision',
      arg: 'P,...',
      kind: { type: 'list-choice', choices: PRECISIONS },
      description: 'Floating-point precisions',
      default: PRECISIONS,
    },
    {
      name: 'copies',
      arg: 'N,...',
      kind: { type: 'list-number', min: 1, integer: true },
      description: 'Robots per batch',
      default: DEFAULT_COPIES,
    },
    {
      name: 'integrator',
      arg: 'I,...',
      kind: { type: 'list-choice', choices: INTEGRATORS },
      description: 'Integrators (MuJoCo compares on euler, rk4 and implicitfast)',
      default: ['euler'],
    },
    {
      name: 'threads',
      arg: 'T,...',
      kind: { type: 'list-number', min: 1, max: 256, integer: true },
      description: 'Engine worker threads; scaling is reported against 1',
      default: [1],
    },
    {
      name: 'vs',
      arg: 'ENGINE',
      kind: { type: 'choice', choices: ['mujoco'] },
      description: 'Also time native MuJoCo (per-robot and merged models), interleaved with Achilles',
    },
    {
      name: 'flops',
      kind: { type: 'boolean' },
      description: 'Report GFLOP/s and the fraction of peak (flops counted exactly by the engine)',
    },
    {
      name: 'budget',
      arg: 'S',
      kind: { type: 'number', min: 0.001, max: 60 },
      description:
        'Seconds per timed repetition, rounded to whole restart segments so every cell times the same steps (a cell slower than one segment per budget takes one segment) (lower for quick checks)',
      default: DEFAULT_REP_SECONDS,
    },
    {
      name: 'reps',
      arg: 'N',
      kind: { type: 'number', min: 1, max: 100, integer: true },
      description: 'Timed repetitions per cell',
      defaultText: '5 (3 when --budget < 0.2)',
    },
    {
      name: 'spread',
      arg: 'RAD',
      kind: { type: 'number', min: 0, max: 1 },
      description: `Robots that differ: robot r starts with achilles run --spread's offsets (robot 0 exact), in both engines alike. Given alone, only differing robots are timed (see --lockstep)`,
      defaultText: `${DEFAULT_BENCH_SPREAD} for scenes with contacts or actuators, else 0`,
    },
    {
      name: 'ctrl',
      arg: 'MODE',
      kind: { type: 'choice', choices: CTRL_MODES },
      description:
        "Differing robots' controls: random (each robot its own seeded stream, uniform in each actuator's ctrlrange, redrawn every step, the same numbers given to MuJoCo; refused for an actuator without ctrlrange) or zero",
      defaultText: 'random for actuated scenes',
    },
    {
      name: 'lockstep',
      arg: 'WHEN',
      kind: { type: 'choice', choices: LOCKSTEP_CHOICES },
      description:
        "Also time the robots in lockstep (every robot the scene's start, zero controls: a block's lanes do identical work), beside the differing ones (also), instead of them (only), or not (no)",
      defaultText: 'also for scenes with contacts or actuators (only for others); no when --spread or --ctrl is given',
    },
    {
      name: 'lane-params',
      kind: { type: 'boolean' },
      description:
        'Differing robots also differ in their model: each its own gravity (z within 5 %, x and y within 0.2 m/s²), body masses and inertias, shape frictions, and damping and armature of the joints and kp and kv of the servos that have them (within 20 %), held per lane (the cost of per-robot parameters against the same robots without them). Not with --vs mujoco',
    },
    {
      name: 'restart-every',
      arg: 'N',
      kind: { type: 'number', min: 1, integer: true },
      description: 'Restart every trajectory from its initial state after N steps (untimed; the undamped arm diverges after ~4 s)',
      default: DEFAULT_RESTART_EVERY,
    },
    { name: 'json', kind: { type: 'boolean' }, description: 'Print the results as JSON instead of a table' },
    { name: 'out', arg: 'DIR', kind: { type: 'string' }, description: 'Directory for CSV, JSON and charts', default: 'reports/bench' },
    {
      name: 'force',
      kind: { type: 'boolean' },
      description: 'Write into an --out directory that holds files achilles did not write (they are left as they are)',
    },
    largeModelOption,
  ],
  examples: [
    'achilles bench --vs mujoco',
    'achilles bench --scene scenes/arm7.arow --lanes 1,8 --precision f32 --copies 64,4096 --vs mujoco',
    'achilles bench --scene scenes/domino-amplifier.arow --vs mujoco --copies 1,64',
    'achilles bench --scene scenes/quadruped.arow --vs mujoco --copies 256 --precision f32 --lanes 8',
    'achilles bench --scene scenes/humanoid.arow --spread 0.1 --ctrl zero --copies 64',
    'achilles bench --threads 1,2 --copies 4096 --json',
    'achilles bench --flops --precision f32 --lanes 8 --copies 1024',
  ],
  run,
};
