// `achilles sweep SWEEP.yaml`: run a study over many robots, here or on a cluster.
//
//   no shard given     every shard of the split runs here, one after the other, then they are
//                      merged into OUT (results.csv, traces.csv, sweep.json, charts). Shards
//                      already done (OUT/shards/*/shard.json of this very sweep) are skipped, so a
//                      sweep stopped by Ctrl-C, a crash or a reboot picks up where it was.
//   --shard i/n, or a  that shard only, into OUT/shards/shard-I-of-N/; `achilles sweep merge OUT`
//   scheduler's index  puts the shards together once they are all done.
//   --emit slurm|k8s   print the job script or manifest that runs the shards on a cluster.
//
// Outcomes: a shard's files are written whole or not at all; Ctrl-C stops at the next slice and
// keeps the shards already done (exit 130); a robot whose state turns non-finite gets a row saying at
// which step (diverged_step, diverged_joint) and the others go on; the shard's line names them.

import { join } from 'node:path';
import { engineAddon } from '../engine/native.js';
import { laneProblem } from '../engine/lanes.js';
import type { LaneWidth } from '../engine/api.js';
import { checkOutputDir } from '../reports/output-dir.js';
import { createProgress } from '../reports/progress.js';
import { loadSceneForRun } from '../run/load-scene.js';
import { Interrupt } from '../run/interrupt.js';
import { safeName } from '../run/settings.js';
import { UsageError } from '../util/usage-error.js';
import { summaryLines } from './charts.js';
import { resultColumns, traceColumns } from './columns.js';
import { emitJob } from './emit.js';
import { checkSweepSize, estimateSweep } from './estimate.js';
import { mergeSweep, SweepMergeError } from './merge.js';
import { planSweep, type SweepPlan } from './plan.js';
import type { SceneRandomization } from '../model-files/scene/randomize-read.js';
import { fileSha256, provenance } from './provenance.js';
import { runRobots } from './run-robots.js';
import { runInfo, shardDir, shardState, SHARDS_DIR, writeShard } from './shard-files.js';
import { chooseShard, shardName, shardRange, type Shard } from './shards.js';
import { readSweepFile } from './sweep-file.js';

export { SweepMergeError } from './merge.js';

export interface SweepFlags {
  out?: string;
  shard?: string;
  shards?: number;
  threads?: number;
  lanes?: LaneWidth;
  batch?: number;
  redo?: boolean;
  force?: boolean;
  emit?: 'slurm' | 'k8s';
  image?: string;
  pvc?: string;
  /** Run or emit it even past the size limits (estimate.ts). */
  yes?: boolean;
}

const say = (line: string): void => void process.stderr.write(`achilles sweep: ${line}\n`);

export async function runSweepCommand(file: string, flags: SweepFlags): Promise<number> {
  const sweep = readSweepFile(file);
  // The whole sweep is checked against its scene before anything runs or is emitted.
  let scene: SceneRandomization | undefined;
  const model = loadSceneForRun(sweep.scene, { command: 'sweep', randomize: (r) => (scene = r), allowLarge: flags.yes === true });
  const plan = planSweep(sweep, model, scene);
  const out = flags.out ?? join('reports', 'sweep', safeName(sweep.name));
  const threads = flags.threads ?? 1;
  if (flags.emit) return emitSweep(flags.emit, plan, file, out, flags);
  if (flags.lanes) {
    const problem = laneProblem(engineAddon().cpuInfo(), plan.precision, flags.lanes);
    if (problem) throw new UsageError(`--lanes: ${problem}`, 'sweep');
  }
  const choice = chooseShard(flags.shard, { flag: flags.shards, file: sweep.shards });
  // Run here without a split given: one shard per batch, so a long sweep keeps what it has done
  // batch by batch (a restart skips it), and the merged files are the same for any split.
  const count = choice?.count ?? flags.shards ?? sweep.shards ?? Math.ceil(sweep.robots / (flags.batch ?? sweep.batch));
  if (count > sweep.robots)
    throw new UsageError(
      `${count} shards for ${sweep.robots} robots: some shards would hold no robot; use at most ${sweep.robots}`,
      'sweep',
    );
  // Before anything is written: the size of what runs here (one shard, or every shard and the merge).
  const scope = {
    count,
    batch: flags.batch ?? sweep.batch,
    ...(choice ? { only: choice } : {}),
    ...(flags.lanes ? { lanes: flags.lanes } : {}),
  };
  checkSweepSize(estimateSweep(plan, scope), { yes: flags.yes === true, emit: false });
  checkOutputDir(out, { command: 'sweep', force: flags.force, managed: SHARDS_DIR });
  const sceneSha = fileSha256(sweep.scene);
  const shards: Shard[] = choice ? [choice] : Array.from({ length: count }, (_, index) => ({ index, count }));
  if (choice) say(`shard ${choice.index}/${choice.count} (from ${choice.source})`);

  const todo: Shard[] = [];
  for (const s of shards) {
    const state = shardState(out, s, sweep.sha256, sceneSha);
    if (state === 'done' && !flags.redo) say(`${shardName(s)} is already done (${shardDir(out, s)}): skipped (--redo runs it again)`);
    else {
      if (state === 'other') say(`${shardName(s)} in ${out} is from another sweep file, scene or version: running it again`);
      todo.push(s);
    }
  }
  const ran = await runShards(plan, out, todo, threads, sceneSha, flags);
  if (ran !== 0) return ran;

  if (choice) {
    say(`when all ${count} shards are done: achilles sweep merge ${out}`);
    return 0;
  }
  return mergeSweepCommand(out, { shards: count, force: flags.force });
}

/** Prints the job for a cluster, once it is checked: what it needs (emitJob), and the size of the
 *  whole sweep, every shard and the merge (its tasks run with --yes when the user gave it). */
function emitSweep(kind: 'slurm' | 'k8s', plan: SweepPlan, file: string, out: string, flags: SweepFlags): number {
  const sweep = plan.sweep;
  const yes = flags.yes === true;
  const job = emitJob(
    kind,
    { sweepFile: file, sweepName: sweep.name, out, threads: flags.threads ?? 1, yes },
    { ...flags, robots: sweep.robots, fileShards: sweep.shards },
  );
  // emitJob has refused a sweep without a shard count.
  const count = (flags.shards ?? sweep.shards)!;
  checkSweepSize(estimateSweep(plan, { count, batch: flags.batch ?? sweep.batch }), { yes, emit: true });
  process.stdout.write(job);
  return 0;
}

async function runShards(
  plan: SweepPlan,
  out: string,
  todo: Shard[],
  threads: number,
  sceneSha: string,
  flags: SweepFlags,
): Promise<number> {
  const sweep = plan.sweep;
  const meta = provenance(plan, sceneSha);
  const columns = resultColumns(plan);
  const batch = flags.batch ?? sweep.batch;
  const interrupt = new Interrupt((sig) => {
    say(`${sig} again: stopped immediately; the shards already done are kept`);
    process.exit(sig === 'SIGTERM' ? 143 : 130);
  });
  // One bar per shard (on a terminal only), cleared before the shard's line is printed.
  let progress = createProgress({ total: 0 });
  try {
    for (const [k, s] of todo.entries()) {
      const range = shardRange(sweep.robots, s);
      const label = todo.length > 1 ? `shard ${s.index}/${s.count} (${k + 1} of ${todo.length} here)` : `shard ${s.index}/${s.count}`;
      progress = createProgress({ total: (range.end - range.first) * plan.steps, label, unit: 'robot-steps' });
      let done = 0;
      const t0 = performance.now();
      const r = await runRobots(plan, {
        ...range,
        batchSize: batch,
        ...(flags.lanes ? { lanes: flags.lanes } : {}),
        threads,
        shouldStop: () => interrupt.requested,
        onSteps: (n) => progress.update((done += n)),
      });
      if (r.stopped) {
        progress.finish();
        say(
          `interrupted (${interrupt.signal}) in ${shardName(s)}; nothing was written for it. The shards already done are kept: run the same command again to go on`,
        );
        return interrupt.exitCode;
      }
      const seconds = (performance.now() - t0) / 1000;
      const dir = await writeShard(
        out,
        {
          shard: s,
          robots: range,
          meta,
          resultColumns: columns,
          results: r.results,
          ...(plan.trace ? { traceColumns: traceColumns(plan), traces: r.traces } : {}),
          sweepName: sweep.name,
          sweepSha256: sweep.sha256,
          sceneSha256: sceneSha,
          ran: runInfo(r.lanes, r.isa, threads, batch, seconds),
        },
        flags.force ?? false,
      );
      const rate = ((range.end - range.first) * plan.steps) / Math.max(seconds, 1e-9);
      progress.finish();
      say(
        `${shardName(s)}: robots ${range.first}..${range.end - 1} in ${seconds.toFixed(2)} s (${Math.round(rate)} robot-steps/s) → ${dir}`,
      );
      if (r.diverged.length)
        say(
          `${shardName(s)}: ${r.diverged.length} robot${r.diverged.length === 1 ? '' : 's'} diverged (${listRobots(r.diverged)}): their rows give the step (diverged_step) and joint, and no metrics`,
        );
    }
    return 0;
  } finally {
    progress.finish();
    interrupt.dispose();
  }
}

/** "2, 5, 9" or "2, 5, 9, ... (40 in all)". */
function listRobots(robots: number[]): string {
  const shown = robots.slice(0, 10).join(', ');
  return robots.length > 10 ? `robots ${shown}, ... (${robots.length} in all)` : `robot${robots.length === 1 ? '' : 's'} ${shown}`;
}

function mergedText(dir: string, summary: Parameters<typeof summaryLines>[0], count: number): string {
  const lines = summaryLines(summary).map((l) => `  ${l}`);
  return [`sweep merged from ${count} shard${count === 1 ? '' : 's'} into ${dir}: results.csv, sweep.json, charts`, ...lines, ''].join(
    '\n',
  );
}

export async function mergeSweepCommand(dir: string, flags: { shards?: number; force?: boolean }): Promise<number> {
  try {
    const merged = await mergeSweep(dir, flags);
    process.stdout.write(mergedText(merged.dir, merged.summary, merged.count));
    return 0;
  } catch (e) {
    if (!(e instanceof SweepMergeError)) throw e;
    process.stderr.write(`achilles sweep merge: ${e.message}\n`);
    return 1;
  }
}
