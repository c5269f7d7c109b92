// `achilles sweep` and `achilles sweep merge`: the flag tables. The work lives in src/sweep/ and is
// imported only when the command runs.

import { MODEL_LIMITS } from '../model-files/import/mjcf/model-size.js';
import { LANE_WIDTHS, type LaneWidth } from '../engine/api.js';
import type { CommandSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

const EXAMPLE = 'scenes/sweeps/quadruped-drop.yaml';

export const sweepMergeCommand: CommandSpec = {
  name: 'merge',
  summary:
    "Merge a sweep's shards (DIR/shards/) into DIR: results.csv, traces.csv, sweep.json and the charts, byte-identical to the same sweep run unsharded; names any shard that is missing.",
  positionals: [{ name: 'dir', description: "the sweep's output directory (its --out)", required: true }],
  options: [
    {
      name: 'shards',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 100000 },
      defaultText: 'the one split in DIR/shards/',
      description: 'Merge the split into N shards (needed only when DIR/shards/ holds shards of several splits).',
    },
    {
      name: 'force',
      kind: { type: 'boolean' },
      description: 'Write into DIR even if it holds files achilles did not write (they are left as they are).',
    },
  ],
  examples: [
    `achilles sweep ${EXAMPLE} --shard 0/2 && achilles sweep ${EXAMPLE} --shard 1/2 && achilles sweep merge reports/sweep/quadruped-drop`,
  ],
  async run([dir], opts) {
    const { mergeSweepCommand } = await import('../sweep/index.js');
    return mergeSweepCommand(dir, { shards: opts.shards as number | undefined, force: opts.force === true });
  },
};

export const sweepCommand: CommandSpec = {
  name: 'sweep',
  summary:
    'Run a study over many robots (SWEEP.yaml: scene, robots, per-robot random initial states, duration, what to keep): per-robot results in results.csv with a provenance header, charts of their distributions; split into shards for a cluster (Slurm array jobs, Kubernetes Indexed Jobs) and merged back bit for bit.',
  positionals: [{ name: 'sweep', description: 'the sweep file (YAML; see docs/sweep-format.md)', required: true }],
  options: [
    {
      name: 'out',
      arg: 'DIR',
      kind: { type: 'string' },
      defaultText: 'reports/sweep/NAME',
      description: 'Output directory: the merged results, and each shard in DIR/shards/shard-I-of-N/.',
    },
    {
      name: 'shard',
      arg: 'I/N',
      kind: { type: 'string' },
      defaultText: "the scheduler's index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX), else every shard here",
      description:
        'Run only shard I of N (0-based): robots floor(I*R/N) to floor((I+1)*R/N)-1, into DIR/shards/; `achilles sweep merge DIR` puts the shards together.',
    },
    {
      name: 'shards',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 100000 },
      defaultText: "the sweep file's `shards`, else one per --batch of robots",
      description:
        'The split into N shards: run here one after the other (then merged), or by a scheduler (the count a Kubernetes pod cannot see; with it, a Slurm task id is the shard index).',
    },
    {
      name: 'emit',
      arg: 'KIND',
      kind: { type: 'choice', choices: ['slurm', 'k8s'] },
      description:
        'Print the job that runs the shards on a cluster instead of running anything: a Slurm array job script (sbatch), or a Kubernetes Indexed Job manifest (kubectl apply -f).',
    },
    {
      name: 'image',
      arg: 'IMAGE',
      kind: { type: 'string' },
      description: 'With --emit k8s: the container image, with achilles installed.',
    },
    {
      name: 'pvc',
      arg: 'CLAIM',
      kind: { type: 'string' },
      description:
        'With --emit k8s: the persistent volume claim mounted at /sweep, holding the sweep file and its scene and receiving --out.',
    },
    {
      name: 'threads',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 256 },
      default: 1,
      description: 'Engine worker threads per shard (results do not depend on it).',
    },
    {
      name: 'lanes',
      arg: 'W',
      kind: { type: 'choice', choices: LANE_WIDTHS.map(String) },
      defaultText: 'one register of the CPU',
      description: 'SIMD width (results do not depend on it).',
    },
    {
      name: 'batch',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 16777216 },
      defaultText: "the sweep file's `batch`, else 1024",
      description: 'Step at most N robots at once (memory; results do not depend on it).',
    },
    {
      name: 'redo',
      kind: { type: 'boolean' },
      description: 'Run shards again even when they are done (without it a shard already done for this very sweep is skipped).',
    },
    {
      name: 'force',
      kind: { type: 'boolean' },
      description: 'Write into an --out directory that holds files achilles did not write (they are left as they are).',
    },
    {
      name: 'yes',
      kind: { type: 'boolean' },
      description: `Run (or emit) a sweep past the size limits: more than 1e10 robot-steps, 10 GiB written, or 4 GiB while a shard runs (docs/sweep-format.md, "Size"), or on an MJCF scene whose <replicate>s make more than ${MODEL_LIMITS.bodies.toLocaleString('en-US')} bodies. Without it such a sweep is refused with its estimate.`,
    },
  ],
  examples: [
    `achilles sweep ${EXAMPLE}`,
    `achilles sweep ${EXAMPLE} --shard 1/4 --out reports/drop`,
    `achilles sweep ${EXAMPLE} --emit slurm > drop.sbatch`,
    `achilles sweep ${EXAMPLE} --emit k8s --image registry.example/achilles:0.1.0 --pvc sweeps > drop-job.yaml`,
  ],
  subcommands: [sweepMergeCommand],
  async run([file], opts) {
    const emit = opts.emit as 'slurm' | 'k8s' | undefined;
    for (const flag of ['image', 'pvc'] as const)
      if (opts[flag] !== undefined && emit !== 'k8s') throw new UsageError(`--${flag}: belongs to --emit k8s`, 'sweep');
    if (emit && (opts.shard !== undefined || opts.redo !== undefined))
      throw new UsageError(`--emit ${emit} writes the job for every shard: --shard and --redo belong to the run itself`, 'sweep');
    const { runSweepCommand } = await import('../sweep/index.js');
    return runSweepCommand(file, {
      out: opts.out as string | undefined,
      shard: opts.shard as string | undefined,
      shards: opts.shards as number | undefined,
      threads: opts.threads as number | undefined,
      lanes: opts.lanes === undefined ? undefined : (Number(opts.lanes) as LaneWidth),
      batch: opts.batch as number | undefined,
      redo: opts.redo === true,
      force: opts.force === true,
      emit,
      image: opts.image as string | undefined,
      pvc: opts.pvc as string | undefined,
      yes: opts.yes === true,
    });
  },
};
