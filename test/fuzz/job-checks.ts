// What an emitted job must be, whatever names and paths went into it (test/fuzz-surfaces.test.ts;
// the technique of test/sweep-emit-hostile.test.ts):
// - a Slurm script: `bash -n` reads it; sourced by bash with `exec` a function that records its
//   arguments, in an empty folder, it exits 0, prints nothing, creates no file, and would run exactly
//   the intended command; its #SBATCH lines, read as sbatch reads them, are exactly the directives
//   intended;
// - a Kubernetes manifest: `yaml`'s parseAllDocuments finds exactly one document, without errors or
//   warnings, a batch/v1 Job whose command, image, claim and counts are the values given, named as
//   Kubernetes names objects, after a header of comment lines.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';

/**
 * sbatch's reading of a script's directives (src/sbatch/opt.c: _get_argument and the loop over
 * lines): the #SBATCH lines up to the first line that is neither blank nor a comment; in each, words
 * split at unquoted whitespace, quotes ' and " group, a backslash makes the next character literal,
 * an unquoted # ends the line, and the words packjob and hetjob are blanked.
 */
export function sbatchDirectives(script: string): string[] {
  const args: string[] = [];
  for (const line of script.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    if (!line.startsWith('#')) break;
    if (!line.startsWith('#SBATCH')) continue;
    let rest = line.slice('#SBATCH'.length).replace(/packjob|hetjob/gi, (w) => ' '.repeat(w.length));
    for (;;) {
      const r = sbatchArgument(rest);
      if (!r) break;
      args.push(r.arg);
      rest = rest.slice(r.used);
    }
  }
  return args;
}

function sbatchArgument(line: string): { arg: string; used: number } | undefined {
  let i = 0;
  while (i < line.length && /\s/.test(line[i])) i++;
  if (i === line.length) return undefined;
  let arg = '';
  let quote = '';
  let escape = false;
  for (; i < line.length && (quote !== '' || !/\s/.test(line[i])); i++) {
    const c = line[i];
    if (escape) escape = false;
    else if (c === '\\') {
      escape = true;
      continue;
    } else if (quote !== '') {
      if (c === quote) {
        quote = '';
        continue;
      }
    } else if (c === '"' || c === "'") {
      quote = c;
      continue;
    } else if (c === '#') return arg === '' ? undefined : { arg, used: line.length };
    arg += c;
  }
  return { arg, used: i };
}

export interface SlurmExpected {
  /** The command `exec` must be given, word for word. */
  exec: string[];
  /** The #SBATCH arguments, in order. */
  directives: string[];
}

/** Every problem with a Slurm script (none: it is what was intended). `scratch` is a folder the
 *  checks may write in; files that appear anywhere under `watch` count as created by the script. */
export function slurmProblems(script: string, want: SlurmExpected, scratch: string, watch: string): string[] {
  const problems: string[] = [];
  const syntax = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
  if (syntax.status !== 0) problems.push(`bash -n: ${syntax.stderr.trim().slice(0, 300)}`);
  mkdirSync(scratch, { recursive: true });
  const work = mkdtempSync(join(scratch, 'source-'));
  const file = join(scratch, `${work.split('/').pop()}.sbatch`);
  const argsFile = `${file}.args`;
  writeFileSync(file, script);
  const before = listAll(watch);
  // --norc: bash whose stdin is a socket, as Node's pipes are, reads ~/.bashrc as if started by sshd
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', 'exec() { printf "%s\\0" "$@" > "$ARGS_FILE"; }; . "$1"', 'bash', file], {
    cwd: work,
    env: { PATH: process.env.PATH, ARGS_FILE: argsFile, HOME: work },
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.status !== 0) problems.push(`sourced, it exits ${r.status ?? r.signal}: ${r.stderr.trim().slice(0, 300)}`);
  else if (r.stderr !== '' || r.stdout !== '') problems.push(`sourced, it prints: ${(r.stdout + r.stderr).trim().slice(0, 300)}`);
  const made = readdirSync(work);
  if (made.length) problems.push(`sourced, it creates ${made.join(', ')}`);
  const after = [...listAll(watch)].filter((f) => !before.has(f) && !f.startsWith(scratch));
  if (after.length) problems.push(`sourced, it creates ${after.join(', ')}`);
  const exec = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').split('\0').slice(0, -1) : undefined;
  if (!exec) problems.push('sourced, it never reaches exec');
  else if (!isDeepStrictEqual(exec, want.exec)) problems.push(`it would run ${JSON.stringify(exec)}, not ${JSON.stringify(want.exec)}`);
  const directives = sbatchDirectives(script);
  if (!isDeepStrictEqual(directives, want.directives))
    problems.push(`sbatch reads the directives ${JSON.stringify(directives)}, not ${JSON.stringify(want.directives)}`);
  rmSync(work, { recursive: true, force: true });
  return problems;
}

function listAll(d: string): Set<string> {
  if (!existsSync(d)) return new Set();
  return new Set(readdirSync(d, { recursive: true, encoding: 'utf8' }).map((f) => join(d, f)));
}

export interface K8sExpected {
  command: string[];
  image: string;
  claim: string;
  shards: number;
}

/** A Kubernetes object name (DNS-1123 label, as a Job's name must be to name its pods). */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Every problem with a Kubernetes manifest (none: it is what was intended). */
export function k8sProblems(manifest: string, want: K8sExpected): string[] {
  const problems: string[] = [];
  const docs = parseAllDocuments(manifest);
  const list = Array.isArray(docs) ? docs : [docs];
  if (list.length !== 1) return [`parseAllDocuments finds ${list.length} documents`];
  const doc = list[0];
  if (doc.errors.length)
    problems.push(
      `YAML errors: ${doc.errors
        .map((e) => e.message)
        .join('; ')
        .slice(0, 300)}`,
    );
  if (doc.warnings.length)
    problems.push(
      `YAML warnings: ${doc.warnings
        .map((e) => e.message)
        .join('; ')
        .slice(0, 300)}`,
    );
  const job = doc.toJS() as Record<string, any> | null;
  if (job?.apiVersion !== 'batch/v1' || job?.kind !== 'Job')
    return [...problems, `not a batch/v1 Job: ${JSON.stringify(job).slice(0, 200)}`];
  const container = job.spec?.template?.spec?.containers?.[0];
  if (!isDeepStrictEqual(container?.command, want.command))
    problems.push(`the pod runs ${JSON.stringify(container?.command)}, not ${JSON.stringify(want.command)}`);
  if (container?.image !== want.image) problems.push(`image ${JSON.stringify(container?.image)}, not ${JSON.stringify(want.image)}`);
  const claim = job.spec?.template?.spec?.volumes?.[0]?.persistentVolumeClaim?.claimName;
  if (claim !== want.claim) problems.push(`claim ${JSON.stringify(claim)}, not ${JSON.stringify(want.claim)}`);
  if (job.spec?.completions !== want.shards || job.spec?.parallelism !== want.shards)
    problems.push(`completions ${job.spec?.completions}, parallelism ${job.spec?.parallelism} for ${want.shards} shards`);
  if (!DNS_LABEL.test(String(job.metadata?.name)))
    problems.push(`the Job's name ${JSON.stringify(job.metadata?.name)} is no DNS-1123 label`);
  const lines = manifest.split('\n');
  const body = lines.indexOf('apiVersion: batch/v1');
  if (body < 0 || !lines.slice(0, body).every((l) => l.startsWith('# '))) problems.push('the header is not comment lines only');
  return problems;
}
