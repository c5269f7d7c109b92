// `achilles run`'s controller: which one runs, decided and loaded before the batch is built.
//
// A scene's `controller: FILE` module is code: it runs only with --allow-controller (or is replaced
// by --controller FILE). Without either the run is refused (exit 2) rather than run uncontrolled,
// which would show something other than what the scene means. A module's notice is printed before
// its top-level code runs. The built-in PD controller is data and runs without a flag. One exception:
// a bundled scene (in achilles' own scenes/ folder) with its module beside it runs its controller
// without the flag: that code ships with achilles and is as trusted as achilles itself, and a
// newcomer's `achilles run scenes/ball-on-plate.arow` should show the scene. A copy of that scene
// anywhere else needs the flag again.

import { realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { packageRoot } from '../util/package-root.js';
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
    const allowSceneModule = flags.allowController === true || isBundled(scene, model);
    return planController(model, { file: flags.controller, allowSceneModule });
  } catch (e) {
    if (!(e instanceof ControllerNotAllowedError)) throw e;
    throw new UsageError(
      `${scene} names a controller module, ${e.path}, which is code and runs only when you ask: ` +
        'add --allow-controller to run it, or --controller FILE to run another (without its controller the run would not show what the scene means)',
      'run',
    );
  }
}

/** True when the scene and its controller module both lie in achilles' own scenes/ folder (links resolved). */
export function isBundled(scene: string, model: ModelDesc): boolean {
  const spec = model.controller;
  if (spec?.kind !== 'module') return false;
  try {
    const dir = realpathSync(join(packageRoot, 'scenes')) + sep;
    return realpathSync(resolve(scene)).startsWith(dir) && realpathSync(spec.path).startsWith(dir);
  } catch {
    return false; // a path that does not resolve is not bundled; the loader reports it
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
  bundled = false,
): Promise<Controller | undefined> {
  const why =
    plan.kind === 'module' && plan.from === 'scene'
      ? bundled
        ? "the scene's, bundled with achilles"
        : "the scene's, allowed by --allow-controller"
      : '--controller';
  if (plan.kind === 'module') notice(`achilles run: running controller ${plan.path} (${why})\n`);
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
