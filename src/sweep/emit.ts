// `achilles sweep SWEEP.yaml --emit slurm|k8s`: the job script or manifest that runs the sweep's
// shards on the user's cluster, through the scheduler as it is (we write what it reads; we never
// schedule anything ourselves). Each task or pod runs `achilles sweep` on one shard, which finds
// its index in the scheduler's environment (shards.ts); `achilles sweep merge` puts them together.

import { isAbsolute, join, normalize, resolve } from 'node:path';
import { stringify } from 'yaml';
import { achillesVersion } from '../util/version.js';
import { packageRoot } from '../util/package-root.js';
import { UsageError } from '../util/usage-error.js';

export interface EmitOptions {
  sweepFile: string;
  sweepName: string;
  out: string;
  shards: number;
  threads: number;
  /** Kubernetes: the container image (with achilles installed) and the claim holding the files. */
  image?: string;
  pvc?: string;
}

/** A word for bash, single-quoted when it needs to be. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Kubernetes and Slurm names: lowercase letters, digits and dashes. */
export function jobName(sweep: string): string {
  const n = `achilles-sweep-${sweep.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`.replace(/-+/g, '-').replace(/-$/, '');
  return n.slice(0, 63).replace(/-$/, '');
}

/** A Slurm array job: one task per shard, ids 0..n-1 (the shard indices). Paths are absolute (the
 *  compute nodes share the file system with the submitting host, as Slurm clusters do). */
export function slurmScript(o: EmitOptions): string {
  const cli = [process.execPath, join(packageRoot, 'bin', 'achilles.js')];
  const out = resolve(o.out);
  const command = [...cli, 'sweep', resolve(o.sweepFile), '--out', out, '--shards', String(o.shards), '--threads', String(o.threads)];
  const merge = [...cli, 'sweep', 'merge', out].map(shellWord).join(' ');
  return [
    '#!/bin/bash',
    `# The sweep ${o.sweepName} as a Slurm array job, one task per shard (achilles ${achillesVersion()}, achilles sweep --emit slurm).`,
    '#   submit:  sbatch THIS-FILE   (each task finds its shard in SLURM_ARRAY_TASK_ID)',
    `#   then:    ${merge}`,
    `#            (or at once: sbatch --dependency=afterok:JOBID --wrap ${shellWord(merge)})`,
    '# A failed task can be retried alone (sbatch --array=I THIS-FILE): it reproduces its shard exactly;',
    '# a shard already done is skipped.',
    `#SBATCH --job-name=${jobName(o.sweepName)}`,
    `#SBATCH --array=0-${o.shards - 1}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${o.threads}`,
    `#SBATCH --chdir=${process.cwd()}`,
    'set -euo pipefail',
    `exec ${command.map(shellWord).join(' ')}`,
    '',
  ].join('\n');
}

/** A Kubernetes Indexed Job: completions = shards, each pod's JOB_COMPLETION_INDEX its shard. The
 *  sweep file, its scene and the output directory live on the claim `pvc`, mounted at /sweep. */
export function k8sManifest(o: EmitOptions & { image: string; pvc: string }): string {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: jobName(o.sweepName), labels: { app: 'achilles-sweep' } },
    spec: {
      completionMode: 'Indexed',
      completions: o.shards,
      parallelism: o.shards,
      // A pod that fails is retried; a retried shard reproduces its results exactly.
      backoffLimit: Math.max(6, o.shards),
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'shard',
              image: o.image,
              workingDir: '/sweep',
              command: ['achilles', 'sweep', o.sweepFile, '--out', o.out, '--shards', String(o.shards), '--threads', String(o.threads)],
              resources: { requests: { cpu: String(o.threads) }, limits: { cpu: String(o.threads) } },
              volumeMounts: [{ name: 'sweep', mountPath: '/sweep' }],
            },
          ],
          volumes: [{ name: 'sweep', persistentVolumeClaim: { claimName: o.pvc } }],
        },
      },
    },
  };
  const head = [
    `# The sweep ${o.sweepName} as a Kubernetes Indexed Job, one pod per shard (achilles ${achillesVersion()}, achilles sweep --emit k8s).`,
    '#   apply:  kubectl apply -f THIS-FILE   (each pod finds its shard in JOB_COMPLETION_INDEX)',
    `#   then, where the claim ${o.pvc} is mounted as /sweep:  achilles sweep merge ${o.out}`,
    `# Paths are relative to /sweep, the claim: it holds ${o.sweepFile}, the scene it names, and receives ${o.out}.`,
  ];
  return `${head.join('\n')}\n${stringify(job, { lineWidth: 0 })}`;
}

/** The job for `kind`, after checking what it needs: a shard count (--shards or the file's), and
 *  for Kubernetes an image, a claim, and paths inside the claim. */
export function emitJob(
  kind: 'slurm' | 'k8s',
  o: Omit<EmitOptions, 'shards'>,
  f: { shards?: number; fileShards?: number; robots: number; image?: string; pvc?: string },
): string {
  const shards = f.shards ?? f.fileShards;
  if (shards === undefined)
    throw new UsageError(`--emit ${kind}: how many shards? Pass --shards N or set \`shards: N\` in ${o.sweepFile}`, 'sweep');
  if (shards > f.robots) throw new UsageError(`--shards ${shards}: more shards than the sweep's ${f.robots} robots`, 'sweep');
  if (kind === 'slurm') return slurmScript({ ...o, shards });
  if (!f.image) throw new UsageError('--emit k8s needs --image IMAGE: a container image with achilles installed', 'sweep');
  if (!f.pvc)
    throw new UsageError(
      '--emit k8s needs --pvc CLAIM: the persistent volume claim that holds the sweep file and its scene and receives the results',
      'sweep',
    );
  for (const [what, p] of [
    ['the sweep file', o.sweepFile],
    ['--out', o.out],
  ] as const) {
    if (isAbsolute(p) || normalize(p).startsWith('..'))
      throw new UsageError(
        `--emit k8s: ${what} ${p} must be a path inside the claim, relative to its root (run achilles from the claim's root)`,
        'sweep',
      );
  }
  return k8sManifest({ ...o, shards, image: f.image, pvc: f.pvc });
}
