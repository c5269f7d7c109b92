// Several `achilles` commands, one after the other, in one child process (test/helpers/in-child.ts):
// the sweep tests run a dozen short commands, and one node start-up for all of them keeps the test
// fast, while the stepping never holds the test worker's event loop. Each command gets its own
// environment changes (a scheduler's variables), undone after it.
import { main } from '../../../src/cli/main.js';

export interface Step {
  args: string[];
  /** Variables set for this command only (undefined: removed). */
  env?: Record<string, string | undefined>;
  /** The working directory for this command only. */
  cwd?: string;
}

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The scheduler variables a sweep reads: never inherited from the machine running the tests. */
const SCHEDULER_VARS = [
  'SLURM_ARRAY_TASK_ID',
  'SLURM_ARRAY_TASK_COUNT',
  'SLURM_ARRAY_TASK_MIN',
  'SLURM_ARRAY_TASK_MAX',
  'SLURM_ARRAY_TASK_STEP',
  'JOB_COMPLETION_INDEX',
];

export async function runCliSequence(steps: Step[]): Promise<StepResult[]> {
  for (const v of SCHEDULER_VARS) delete process.env[v];
  const results: StepResult[] = [];
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  for (const step of steps) {
    const saved = Object.fromEntries(Object.keys(step.env ?? {}).map((k) => [k, process.env[k]]));
    for (const [k, v] of Object.entries(step.env ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const home = process.cwd();
    if (step.cwd) process.chdir(step.cwd);
    let stdout = '';
    let stderr = '';
    process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
    try {
      const code = await main(['node', 'achilles', ...step.args]);
      results.push({ code, stdout, stderr });
    } finally {
      process.chdir(home);
      process.stdout.write = write.out;
      process.stderr.write = write.err;
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }
  return results;
}
