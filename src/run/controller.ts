// `achilles run`'s controller: which one runs, decided and loaded before the batch is built.
//
// A scene's `controller: FILE` module is code: it runs only with --allow-controller (or is replaced
// by --controller FILE). Without either the run is refused (exit 2) rather than run uncontrolled,
// which would show something other than what the scene means. A module's notice is printed before
// its top-level code runs. The built-in PD controller is data and runs without a flag.

import { resolve } from 'node:path';
import { UsageError } from '../util/usage-error.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { Controller } from '../control/controller.js';
import { ControllerNotAllowedError } from '../control/errors.js';
import { loadPlannedController, MODULE_EXTENSION, planController, type ControllerPlan } from '../control/load.js';
import { readControlFile } from '../model-files/common/control-file.js';
import type { ControllerRun } from './metadata.js';

export interface ControllerFlags {
  controller?: string;
  allowController?: boolean;
}

/** The controller this run will use; usage errors for a refused module or a pointless flag. */
export function planRunController(scene: string, model: ModelDesc, flags: ControllerFlags): ControllerPlan {
  if (flags.controller !== undefined && flags.allowController) {
    throw new UsageError(
      "--allow-controller runs the scene's own controller module and --controller FILE replaces it: give one of them",
      'run',
    );
  }
  if (flags.controller !== undefined) checkControllerFlag(flags.controller);
  if (flags.controller !== undefined && !model.actuators?.length) {
    throw new UsageError(
      `--controller: ${scene} declares no actuators, so a controller could write no control (add actuators to its joints, docs/scene-format.md, or leave out --controller)`,
      'run',
    );
  }
  try {
    return planController(model, { file: flags.controller, allowSceneModule: flags.allowController === true });
  } catch (e) {
    if (!(e instanceof ControllerNotAllowedError)) throw e;
    throw new UsageError(
      `${scene} names a controller module, ${e.path}, which is code and runs only when you ask: ` +
        'add --allow-controller to run it, or --controller FILE to run another (without its controller the run would not show what the scene means)',
      'run',
    );
  }
}

/** --controller FILE: a module by its extension, and a regular text file (checked before the
 *  notice and before esbuild or node open it). */
function checkControllerFlag(file: string): void {
  if (!MODULE_EXTENSION.test(file))
    throw new UsageError(`--controller ${file}: expected a controller module ending in .ts, .mts, .js or .mjs`, 'run');
  const r = readControlFile(resolve(file), 'a .ts or .js controller module');
  if ('problem' in r) throw new UsageError(`--controller ${file}: found ${r.problem.found}, expected ${r.problem.expected}`, 'run');
}

/** Loads the planned controller; a module's notice goes to `notice` before its code runs. */
export async function loadRunController(
  model: ModelDesc,
  plan: ControllerPlan,
  notice: (line: string) => void,
): Promise<Controller | undefined> {
  if (plan.kind === 'module')
    notice(
      `achilles run: running controller ${plan.path} (${plan.from === 'scene' ? "the scene's, allowed by --allow-controller" : '--controller'})\n`,
    );
  return loadPlannedController(model, plan);
}

/** What the run's metadata records of the controller that ran. */
export function controllerRun(plan: ControllerPlan, controller: Controller, period: number): ControllerRun | undefined {
  if (plan.kind === 'none') return undefined;
  return {
    name: plan.kind === 'module' ? plan.path : plan.name,
    ...(plan.kind === 'module' ? { module: plan.path } : {}),
    ...(controller.rate === undefined ? {} : { rate: controller.rate }),
    period,
  };
}
