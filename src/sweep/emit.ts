// `achilles sweep SWEEP.yaml --emit slurm|k8s`: the job script or manifest that runs the sweep's
// shards on the user's cluster, through the scheduler as it is (we write what it reads; we never
// schedule anything ourselves). Each task or pod runs `achilles sweep` on one shard, which finds
// its index in the scheduler's environment (shards.ts); `achilles sweep merge` puts them together.

import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { achillesVersion } from '../util/version.js';
import { packageRoot } from '../util/package-root.js';

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
