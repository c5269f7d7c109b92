// `achilles sweep SWEEP.yaml --emit slurm|k8s`: the job script or manifest that runs the sweep's
// shards on the user's cluster, through the scheduler as it is (we write what it reads; we never
// schedule anything ourselves). Each task or pod runs `achilles sweep` on one shard, which finds
// its index in the scheduler's environment (shards.ts); `achilles sweep merge` puts them together.
//
// Every value written into the job is written for where it lands, since the sweep file and the
// flags may come from anyone: a word of a bash command (shellWord), an argument of an `#SBATCH`
// directive (sbatchWord), a comment line (commentText), a YAML scalar (the `yaml` package writes
// the manifest's body), a Kubernetes name (jobName). What cannot be written there is refused: a
// control character in a flag or a path (a newline would end the comment or directive it is in,
// and the shell would run the rest), an image or claim name outside its grammar.

import { isAbsolute, join, normalize, resolve } from 'node:path';
import { stringify } from 'yaml';
import { achillesVersion } from '../util/version.js';
import { packageRoot } from '../util/package-root.js';
import { UsageError } from '../util/usage-error.js';
import { commentText, controlCharacter } from './one-line.js';
import { PLAIN_WORD, shellWord } from '../util/shell-word.js';

export interface EmitOptions {
  sweepFile: string;
  sweepName: string;
  out: string;
  shards: number;
  threads: number;
  /** Kubernetes: the container image (with achilles installed) and the claim holding the files. */
  image?: string;
  pvc?: string;
  /** The sweep was accepted past its size limits (--yes): each task runs its shard with --yes too. */
  yes?: boolean;
  /** The directory the Slurm tasks run in (default: this process's). */
  cwd?: string;
}

export { shellWord };

/** An argument of an `#SBATCH` line, as sbatch reads it (src/sbatch/opt.c, _get_argument): quotes
 *  group characters, spaces included; a backslash makes the next character literal (inside quotes
 *  too); an unquoted `#` starts a comment. A line ends at a newline, which no quoting can hold, and
 *  sbatch blanks the words "packjob" and "hetjob" anywhere in the line: such values are refused. */
export function sbatchWord(what: string, s: string): string {
  refuseControl(what, s, 'an #SBATCH line ends at the newline and cannot carry it');
  const blanked = /packjob|hetjob/i.exec(s)?.[0];
  if (blanked) throw new UsageError(`${what} ${JSON.stringify(s)} holds "${blanked}", which sbatch blanks out of #SBATCH lines`, 'sweep');
  return PLAIN_WORD.test(s) ? s : `"${s.replace(/["\\]/g, '\\$&')}"`;
}

/** Refuses a value holding a character no emitted line can carry, naming it and where it is. */
function refuseControl(what: string, s: string, why: string): void {
  const c = controlCharacter(s);
  if (c) throw new UsageError(`${what} ${JSON.stringify(s)} holds ${c.what} at character ${c.at}: ${why}`, 'sweep');
}

/** Kubernetes and Slurm names: lowercase letters, digits and dashes. */
export function jobName(sweep: string): string {
  const n = `achilles-sweep-${sweep.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`
    // sbatch blanks these words in an #SBATCH line, which would split the name into options
    .replace(/hetjob|packjob/g, (w) => `${w.slice(0, -3)}-job`)
    .replace(/-+/g, '-')
    .replace(/-$/, '');
  return n.slice(0, 63).replace(/-$/, '');
}

// A container image reference, as the runtimes parse it (github.com/distribution/reference,
// regexp.go): [HOST[:PORT]/]PATH[:TAG][@DIGEST], PATH lowercase components separated by `/`.
const IMAGE_PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const IMAGE_HOST_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const IMAGE_HOST = `(?:${IMAGE_HOST_COMPONENT}(?:\\.${IMAGE_HOST_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const IMAGE_NAME = `(?:${IMAGE_HOST}/)?${IMAGE_PATH_COMPONENT}(?:/${IMAGE_PATH_COMPONENT})*`;
const IMAGE_TAG = '\\w[\\w.-]{0,127}';
const IMAGE_DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const IMAGE_REFERENCE = new RegExp(`^(${IMAGE_NAME})(?::${IMAGE_TAG})?(?:@${IMAGE_DIGEST})?$`);
/** The longest name (distribution/reference), and a bound on the whole that keeps the match cheap. */
const IMAGE_NAME_MAX = 255;
const IMAGE_MAX = 1024;
const IMAGE_RULE =
  'a container image reference: [REGISTRY[:PORT]/]NAME[:TAG][@DIGEST], NAME of /-separated lowercase letters and digits joined by . _ or -, at most 255 characters; TAG of up to 128 letters, digits, _ . -; e.g. registry.example/achilles:0.1.0';

/** --image, checked against the image reference grammar. */
export function checkImage(image: string): void {
  refuseControl('--image', image, 'an image reference is one word');
  const name = image.length <= IMAGE_MAX ? IMAGE_REFERENCE.exec(image)?.[1] : undefined;
  if (name === undefined || name.length > IMAGE_NAME_MAX)
    throw new UsageError(`--image: ${JSON.stringify(image)} is not ${IMAGE_RULE}`, 'sweep');
}

/** A DNS-1123 subdomain (Kubernetes object names, a PersistentVolumeClaim's among them). */
const DNS_1123_SUBDOMAIN = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$/;
const DNS_1123_SUBDOMAIN_MAX = 253;

/** --pvc, checked against the grammar of a claim's name. */
export function checkClaimName(pvc: string): void {
  refuseControl('--pvc', pvc, 'a claim name is one word');
  if (pvc.length > DNS_1123_SUBDOMAIN_MAX || !DNS_1123_SUBDOMAIN.test(pvc))
    throw new UsageError(
      `--pvc: ${JSON.stringify(pvc)} is not a persistent volume claim name (a DNS-1123 subdomain: lowercase letters, digits, - and ., starting and ending with a letter or digit, at most 253 characters; e.g. sweeps)`,
      'sweep',
    );
}

/** `achilles sweep FILE --out OUT ...` as each task or pod runs it (its shard from the scheduler). */
function shardCommand(cli: string[], o: EmitOptions, sweepFile: string, out: string): string[] {
  const args = ['sweep', sweepFile, '--out', out, '--shards', String(o.shards), '--threads', String(o.threads)];
  return [...cli, ...args, ...(o.yes ? ['--yes'] : [])];
}

/** A Slurm array job: one task per shard, ids 0..n-1 (the shard indices). Paths are absolute (the
 *  compute nodes share the file system with the submitting host, as Slurm clusters do). */
export function slurmScript(o: EmitOptions): string {
  const cwd = o.cwd ?? process.cwd();
  // First: a directory sbatch cannot read back is refused before anything is written.
  const chdir = sbatchWord('the current directory', cwd);
  const cli = [process.execPath, join(packageRoot, 'bin', 'achilles.js')];
  const out = resolve(cwd, o.out);
  const command = shardCommand(cli, o, resolve(cwd, o.sweepFile), out);
  const merge = [...cli, 'sweep', 'merge', out].map(shellWord).join(' ');
  const comment = (text: string): string => `# ${commentText(text)}`;
  return [
    '#!/bin/bash',
    comment(
      `The sweep ${o.sweepName} as a Slurm array job, one task per shard (achilles ${achillesVersion()}, achilles sweep --emit slurm).`,
    ),
    comment('  submit:  sbatch THIS-FILE   (each task finds its shard in SLURM_ARRAY_TASK_ID)'),
    comment(`  then:    ${merge}`),
    comment(`           (or at once: sbatch --dependency=afterok:JOBID --wrap ${shellWord(merge)})`),
    comment('A failed task can be retried alone (sbatch --array=I THIS-FILE): it reproduces its shard exactly;'),
    comment('a shard already done is skipped.'),
    `#SBATCH --job-name=${jobName(o.sweepName)}`,
    `#SBATCH --array=0-${o.shards - 1}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${o.threads}`,
    `#SBATCH --chdir=${chdir}`,
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
              command: shardCommand(['achilles'], o, o.sweepFile, o.out),
              resources: { requests: { cpu: String(o.threads) }, limits: { cpu: String(o.threads) } },
              volumeMounts: [{ name: 'sweep', mountPath: '/sweep' }],
            },
          ],
          volumes: [{ name: 'sweep', persistentVolumeClaim: { claimName: o.pvc } }],
        },
      },
    },
  };
  // The header is comments, which stringify does not write: each value in it is escaped to stay on its line.
  const head = [
    `The sweep ${o.sweepName} as a Kubernetes Indexed Job, one pod per shard (achilles ${achillesVersion()}, achilles sweep --emit k8s).`,
    '  apply:  kubectl apply -f THIS-FILE   (each pod finds its shard in JOB_COMPLETION_INDEX)',
    `  then, where the claim ${o.pvc} is mounted as /sweep:  achilles sweep merge ${shellWord(o.out)}`,
    `Paths are relative to /sweep, the claim: it holds ${o.sweepFile}, the scene it names, and receives ${o.out}.`,
  ];
  return `${head.map((l) => `# ${commentText(l)}`).join('\n')}\n${stringify(job, { lineWidth: 0 })}`;
}

/** The paths given for a Kubernetes job must lie inside the claim, relative to its root. */
function checkInsideClaim(sweepFile: string, out: string): void {
  for (const [what, p] of [
    ['the sweep file', sweepFile],
    ['--out', out],
  ] as const) {
    if (isAbsolute(p) || normalize(p).startsWith('..'))
      throw new UsageError(
        `--emit k8s: ${what} ${p} must be a path inside the claim, relative to its root (run achilles from the claim's root)`,
        'sweep',
      );
  }
}

/** The job for `kind`, after checking what it needs: a shard count (--shards or the file's), paths
 *  and flags that fit on a line, and for Kubernetes an image, a claim, and paths inside the claim. */
export function emitJob(
  kind: 'slurm' | 'k8s',
  o: Omit<EmitOptions, 'shards'>,
  f: { shards?: number; fileShards?: number; robots: number; image?: string; pvc?: string },
): string {
  const shards = f.shards ?? f.fileShards;
  if (shards === undefined)
    throw new UsageError(`--emit ${kind}: how many shards? Pass --shards N or set \`shards: N\` in ${o.sweepFile}`, 'sweep');
  if (shards > f.robots) throw new UsageError(`--shards ${shards}: more shards than the sweep's ${f.robots} robots`, 'sweep');
  const oneLine = `--emit ${kind} writes it into comments and commands, where a newline would end the line and start a command`;
  refuseControl(`--emit ${kind}: the sweep file's path`, o.sweepFile, `${oneLine}; rename the file`);
  refuseControl('--out', o.out, oneLine);
  if (kind === 'slurm') return slurmScript({ ...o, shards });
  if (!f.image) throw new UsageError('--emit k8s needs --image IMAGE: a container image with achilles installed', 'sweep');
  if (!f.pvc)
    throw new UsageError(
      '--emit k8s needs --pvc CLAIM: the persistent volume claim that holds the sweep file and its scene and receives the results',
      'sweep',
    );
  checkImage(f.image);
  checkClaimName(f.pvc);
  checkInsideClaim(o.sweepFile, o.out);
  return k8sManifest({ ...o, shards, image: f.image, pvc: f.pvc });
}
