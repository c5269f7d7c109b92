// One sweep fuzz case in its own process: `achilles sweep FILE --out OUT` through the CLI's own main(),
// unless the sweep is larger than a fuzz case may run. A mutated number can make a sweep that is
// legitimately hours of work below the size limits (robots: 24000 is 1.2e7 robot-steps); such a
// sweep is estimated here as `achilles sweep` estimates it, and then only emitted (--emit slurm:
// every check but the run itself). What was chosen is written to MODE_FILE as one JSON line, with
// the robot count the sweep file gives (for the output checks).
//
//   node test/fuzz/sweep-child.mjs SWEEP.yaml OUT MODE_FILE
import { writeFileSync } from 'node:fs';
import { main } from '../../dist/cli/main.js';
import { readSweepFile } from '../../dist/sweep/sweep-file.js';
import { loadSceneForRun } from '../../dist/run/load-scene.js';
import { planSweep } from '../../dist/sweep/plan.js';
import { estimateSweep } from '../../dist/sweep/estimate.js';

/** At most this much work is run (the bundled sweep is 12,000 robot-steps, about a second). */
export const RUN_ROBOT_STEPS = 50_000;
const RUN_MEMORY_BYTES = 256 * 2 ** 20;

const [file, out, modeFile] = process.argv.slice(2);
let mode = { run: true, robots: undefined, why: '' };
try {
  const sweep = readSweepFile(file);
  mode.robots = sweep.robots;
  let scene;
  const quiet = { write: () => true, isTTY: false };
  const model = loadSceneForRun(sweep.scene, { command: 'sweep', stream: quiet, randomize: (r) => (scene = r) });
  const plan = planSweep(sweep, model, scene);
  const count = sweep.shards ?? Math.ceil(sweep.robots / sweep.batch);
  const e = estimateSweep(plan, { count: Math.min(count, sweep.robots), batch: sweep.batch });
  if (e.robotSteps > RUN_ROBOT_STEPS || e.memoryBytes > RUN_MEMORY_BYTES)
    mode = { run: false, robots: sweep.robots, why: `${e.robotSteps} robot-steps, ${e.memoryBytes} bytes` };
} catch {
  // the command itself reports it
}
writeFileSync(modeFile, `${JSON.stringify(mode)}\n`);
const args = mode.run ? ['sweep', file, '--out', out] : ['sweep', file, '--emit', 'slurm', '--shards', '1', '--out', out];
process.exitCode = await main(['node', 'achilles', ...args]);
