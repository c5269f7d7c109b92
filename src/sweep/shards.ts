// Which robots a shard runs, and which shard this process is. Shard i of n runs robots
// [floor(i·N/n), floor((i+1)·N/n)): contiguous, in order, covering every robot once, and fixed by
// (i, n, N) alone, so any machine running shard i (a retry included) runs the same robots.
//
// The index comes from --shard i/n, or else from the scheduler's environment, as the schedulers
// set it (we only read it):
//   Slurm array jobs      SLURM_ARRAY_TASK_ID. With a known count (--shards, the sweep file's
//                         `shards`) the task id is the shard index (0-based, as --emit slurm
//                         submits them; a lone retried task keeps its index). Without one, the
//                         array is the split: SLURM_ARRAY_TASK_COUNT, or SLURM_ARRAY_TASK_MIN/_MAX
//                         (an --array=1-8 job is shards 0..7)
//   Kubernetes Indexed    JOB_COMPLETION_INDEX; the count is the Job's completions, which the pod
//   Jobs                  does not see: it comes from --shards or the sweep file's `shards`

import { UsageError } from '../util/usage-error.js';

export interface Shard {
  index: number;
  count: number;
}

export interface ShardChoice extends Shard {
  /** Where the index came from, for the log line: '--shard', 'Slurm array task 3', ... */
  source: string;
}

/** The robots of shard `index` of `count`, as [first, end). */
export function shardRange(robots: number, s: Shard): { first: number; end: number } {
  // Integers below 2^53: robots · count stays exact for any sweep that fits in memory.
  return { first: Math.floor((s.index * robots) / s.count), end: Math.floor(((s.index + 1) * robots) / s.count) };
}

/** `shard-03-of-10`: zero-padded to the width of the count, so names sort in shard order. */
export function shardName(s: Shard): string {
  const w = String(s.count).length;
  return `shard-${String(s.index).padStart(w, '0')}-of-${s.count}`;
}

/** The shard a directory name stands for, or null when it is not a shard's name. */
export function parseShardName(name: string): Shard | null {
  const m = /^shard-(\d+)-of-(\d+)$/.exec(name);
  if (!m) return null;
  const s = { index: Number(m[1]), count: Number(m[2]) };
  return s.index < s.count && shardName(s) === name ? s : null;
}

const INT = /^\d+$/;

/** `--shard i/n` (0-based i). */
export function parseShardFlag(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`--shard: '${text}' is not of the form i/n (expected e.g. 0/4: the first of 4 shards, 0-based)`, 'sweep');
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) throw new UsageError(`--shard: ${text}: the count must be at least 1`, 'sweep');
  if (index >= count) throw new UsageError(`--shard: ${text}: the index must be 0..${count - 1} (shards are 0-based)`, 'sweep');
  return { index, count };
}

type Env = Readonly<Record<string, string | undefined>>;

function envInt(env: Env, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (!INT.test(v.trim())) throw new UsageError(`the environment's ${name}='${v}' is not a whole number`, 'sweep');
  return Number(v.trim());
}

/**
 * The shard this process runs: --shard, else the scheduler's environment, else null (run every
 * shard here). `counts`: the shard count from --shards and from the sweep file's `shards` (the
 * flag wins); Kubernetes needs one of them.
 */
export function chooseShard(
  flag: string | undefined,
  counts: { flag?: number; file?: number },
  env: Env = process.env,
): ShardChoice | null {
  if (flag !== undefined) {
    const s = parseShardFlag(flag);
    if (counts.flag !== undefined && counts.flag !== s.count)
      throw new UsageError(`--shard ${flag} says ${s.count} shards but --shards says ${counts.flag}; give one of them`, 'sweep');
    return { ...s, source: '--shard' };
  }
  const countHint = counts.flag ?? counts.file;
  const slurmId = envInt(env, 'SLURM_ARRAY_TASK_ID');
  if (slurmId !== undefined) {
    const step = envInt(env, 'SLURM_ARRAY_TASK_STEP');
    if (step !== undefined && step !== 1)
      throw new UsageError(
        `this Slurm array has step ${step} (--array=a-b:${step}); shards must be consecutive task ids: submit --array=0-<shards - 1> (as achilles sweep --emit slurm writes it)`,
        'sweep',
      );
    if (countHint !== undefined) {
      // The count is known (--shards, or the sweep file): task ids are the shard indices, so a
      // retry of one task (sbatch --array=3, whose own array is 3-3) still runs shard 3.
      if (slurmId >= countHint)
        throw new UsageError(
          `Slurm array task ${slurmId} is not a shard of ${countHint} (0..${countHint - 1}): submit --array=0-${countHint - 1}, or any of those ids`,
          'sweep',
        );
      return { index: slurmId, count: countHint, source: `Slurm array task ${slurmId}` };
    }
    // Otherwise the array is the split: --array=1-8 is shards 0..7.
    const min = envInt(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
    const max = envInt(env, 'SLURM_ARRAY_TASK_MAX');
    const count = envInt(env, 'SLURM_ARRAY_TASK_COUNT') ?? (max === undefined ? undefined : max - min + 1);
    if (count === undefined)
      throw new UsageError(
        'SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX: the shard count is unknown; pass --shards N or --shard i/n',
        'sweep',
      );
    if (max !== undefined && max - min + 1 !== count)
      throw new UsageError(
        `the Slurm array ${min}-${max} has gaps (${count} tasks for ${max - min + 1} ids); shards must be consecutive task ids`,
        'sweep',
      );
    const index = slurmId - min;
    if (index < 0 || index >= count)
      throw new UsageError(`SLURM_ARRAY_TASK_ID ${slurmId} is outside the array ${min}-${min + count - 1}`, 'sweep');
    return { index, count, source: `Slurm array task ${slurmId} (of ${min}-${min + count - 1})` };
  }
  const k8s = envInt(env, 'JOB_COMPLETION_INDEX');
  if (k8s !== undefined) {
    if (countHint === undefined)
      throw new UsageError(
        "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but the shard count is unknown: pass --shards N (the Job's completions) or set `shards` in the sweep file",
        'sweep',
      );
    if (k8s >= countHint) throw new UsageError(`JOB_COMPLETION_INDEX ${k8s} is not below the shard count ${countHint}`, 'sweep');
    return { index: k8s, count: countHint, source: `Kubernetes completion index ${k8s}` };
  }
  return null;
}
