// `achilles run`: load a scene, step a batch headless, record, write the outputs as one set.
//
// Outcomes and what is left on disk (every file is written whole or not at all; a run's files
// appear together):
//   finished                  → all files committed, summary on stdout, exit 0
//   Ctrl-C / SIGTERM          → stop at the next slice, nothing written, exit 130 / 143
//   non-finite state          → where and when on stderr, nothing written, exit 1. A trace cut
//                               at the divergence would end in numbers that are already garbage
//                               while still finite; rerun with a shorter --duration to look at
//                               the motion leading up to it.

import { Batch, NonFiniteStateError } from '../engine/batch.js';
import { engineAddon } from '../engine/native.js';
import { OutputSet } from '../reports/atomic.js';
import { createProgress, type Progress } from '../reports/progress.js';
import { loadScene } from '../scene/index.js';
import { NonFiniteRecordError } from './finite-check.js';
import { Interrupt } from './interrupt.js';
import { runMetadata } from './metadata.js';
import { writeRunFiles } from './outputs.js';
import { resolveSettings, type RunFlags } from './settings.js';
import { simulate } from './simulate.js';
import { applySpread } from './spread.js';
import { summarize, summaryText } from './summary.js';
import { writeRunReplay } from '../viewer/run-replay.js';

const MIDPOINT_ITERATIONS = 4;
/** Runs shorter than this never show a progress bar (it would only flicker). */
const PROGRESS_AFTER_MS = 1000;

/** Forwards to a real progress bar only once the run has lasted PROGRESS_AFTER_MS. */
function delayedProgress(total: number): Progress {
  const start = performance.now();
  const bar = createProgress({ total, label: 'run', unit: 'steps' });
  return {
    active: bar.active,
    update(n) {
      if (performance.now() - start >= PROGRESS_AFTER_MS) bar.update(n);
    },
    tick(n) {
      bar.tick(n);
    },
    finish() {
      bar.finish();
    },
  };
}

export async function runScene(scene: string, flags: RunFlags): Promise<number> {
  const model = loadScene(scene, flags.config === undefined ? {} : { config: flags.config });
  const addon = engineAddon();
  const s = resolveSettings(scene, model, flags, addon.cpuInfo());

  const set = await OutputSet.create(s.outDir);
  const interrupt = new Interrupt((sig) => {
    // Second Ctrl-C: the user wants out now, even mid-step or mid-render.
    set.abortSync();
    process.stderr.write(`\nachilles run: ${sig} again: stopped immediately; nothing was written to ${s.outDir}\n`);
    process.exit(sig === 'SIGTERM' ? 143 : 130);
  });
  const progress = delayedProgress(s.steps);
  try {
    const batch = new Batch(
      model,
      {
        copies: s.copies,
        precision: s.precision,
        lanes: s.lanes,
        integrator: s.integrator,
        dt: s.dt,
        substeps: s.substeps,
        midpointIterations: MIDPOINT_ITERATIONS,
        threads: s.threads,
      },
      addon,
    );
    applySpread(batch, s.spread);
    process.stderr.write(
      `achilles run: ${model.name}, ${s.copies} robot${s.copies === 1 ? '' : 's'} x ${s.steps} steps (${s.steps * s.dt} s); Ctrl-C stops without writing anything\n`,
    );

    const wall0 = performance.now();
    let result;
    try {
      result = await simulate(batch, { steps: s.steps, recordEvery: s.recordEvery, robots: s.robots, shouldStop: () => interrupt.requested, progress });
    } catch (e) {
      if (!(e instanceof NonFiniteStateError || e instanceof NonFiniteRecordError)) throw e;
      progress.finish();
      set.abortSync();
      process.stderr.write(`achilles run: ${e.message}\nachilles run: no output files were written (${s.outDir} is unchanged)\n`);
      return 1;
    }
    const wallSeconds = (performance.now() - wall0) / 1000;
    progress.finish();

    const interrupted = (): number => {
      set.abortSync();
      process.stderr.write(`achilles run: interrupted (${interrupt.signal}) at step ${result.stepsDone} of ${s.steps}; nothing was written to ${s.outDir}\n`);
      return interrupt.exitCode;
    };
    if (result.stopped) return interrupted();

    const summary = summarize(result.recorder, s, model, result.stepsDone, result.stepSeconds, wallSeconds);
    const meta = runMetadata(s, batch.isa, MIDPOINT_ITERATIONS);
    await writeRunFiles(set, result.recorder, meta, summary, model.name);
    if (flags.html) await writeRunReplay(set, model, s, meta, addon, flags.fps, () => interrupt.requested);
    // A signal during chart rendering still means "don't leave anything behind".
    if (interrupt.requested) return interrupted();
    await set.commit();
    process.stdout.write(summaryText(summary, s, model.name, batch.isa, s.outDir));
    return 0;
  } finally {
    progress.finish();
    interrupt.dispose();
    if (set.status === 'open') set.abortSync();
  }
}
