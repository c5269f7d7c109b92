// `achilles run MODEL --policy FILE.onnx --task ENV`: the flags checked and the task loaded before
// anything is built; the policy controller itself is src/gym/policy.ts.

import { kindOf, unreadableText } from '../util/file-words.js';
import { statSync, type Stats } from 'node:fs';
import type { ModelDesc } from '../engine/model-desc.js';
import { loadTask, taskIds, type Task } from '../gym/task.js';
import { UsageError } from '../util/usage-error.js';
import type { RunFlags } from './settings.js';

export interface PolicyPlan {
  file: string;
  task: Task;
}

/** The policy this run will use, or undefined; usage errors for flags that do not go together. */
export function planPolicy(model: ModelDesc, flags: RunFlags): PolicyPlan | undefined {
  if (flags.policy === undefined && flags.task === undefined) return undefined;
  if (flags.policy === undefined || flags.task === undefined)
    throw new UsageError(
      '--policy FILE and --task ENV go together: the task says what the policy observes and how the run is scored',
      'run',
    );
  if (flags.controller !== undefined || flags.allowController)
    throw new UsageError('--policy is the controller: leave out --controller and --allow-controller', 'run');
  if (!flags.policy.endsWith('.onnx')) throw new UsageError(`--policy ${flags.policy}: expected an ONNX model (.onnx)`, 'run');
  const notAFile = fileProblem(flags.policy);
  if (notAFile) throw new UsageError(`--policy ${flags.policy}: ${notAFile}, expected an ONNX model file`, 'run');
  if (!taskIds().includes(flags.task))
    throw new UsageError(`--task ${flags.task}: unknown task (the tasks are ${taskIds().join(', ')})`, 'run');
  if (!model.actuators?.length) throw new UsageError(`--policy: the model declares no actuators, so a policy could drive nothing`, 'run');
  return { file: flags.policy, task: loadTask(flags.task) };
}

/** What `path` is when it is not a regular file (stat, never opened: a FIFO would block), else
 *  undefined. */
export function fileProblem(path: string): string | undefined {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : `cannot be read: ${unreadableText(e as NodeJS.ErrnoException)}`;
  }
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'is a directory';
  return `is ${kindOf(st)}, not a regular file`;
}

/** The run's flags with the task's episode as the default duration (max_episode_steps env steps). */
export function withEpisodeDuration(flags: RunFlags, model: ModelDesc, plan: PolicyPlan | undefined): RunFlags {
  if (!plan || flags.duration !== undefined) return flags;
  const dt = flags.dt ?? model.world.dt;
  return { ...flags, duration: plan.task.maxEpisodeSteps * plan.task.frameSkip * dt };
}
