// `achilles run MODEL --policy FILE.onnx --task ENV`: the flags checked and the task loaded before
// anything is built; the policy controller itself is src/gym/policy.ts.

import { existsSync, statSync } from 'node:fs';
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
  if (!existsSync(flags.policy) || !statSync(flags.policy).isFile()) throw new UsageError(`--policy ${flags.policy}: no such file`, 'run');
  if (!taskIds().includes(flags.task))
    throw new UsageError(`--task ${flags.task}: unknown task (the tasks are ${taskIds().join(', ')})`, 'run');
  if (!model.actuators?.length) throw new UsageError(`--policy: the model declares no actuators, so a policy could drive nothing`, 'run');
  return { file: flags.policy, task: loadTask(flags.task) };
}

/** The run's flags with the task's episode as the default duration (max_episode_steps env steps). */
export function withEpisodeDuration(flags: RunFlags, model: ModelDesc, plan: PolicyPlan | undefined): RunFlags {
  if (!plan || flags.duration !== undefined) return flags;
  const dt = flags.dt ?? model.world.dt;
  return { ...flags, duration: plan.task.maxEpisodeSteps * plan.task.frameSkip * dt };
}
