// The models the suite validates: every bundled scene, and the shared original scenes loaded with
// their sim_config.yaml (gravity +Z, as the original ran them).

import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ModelDesc } from '../engine/model-desc.js';
import { packageRoot } from '../engine/native.js';
import { loadScene } from '../model-files/scene/index.js';

export const SHARED_DIR = join(packageRoot, '..', 'shared', 'achilles-arow');
export const SHARED_SCENES = ['two_joint_arm', 'two_joint_arm_small_swing', 'three_joint_arm', 'asymmetric_two_joint_arm'] as const;

export interface NamedModel {
  name: string;
  model: ModelDesc;
}

/** A scene's model without its actuators and controller: the per-state and trajectory stages compare
 *  the dynamics under the efforts they set themselves (MuJoCo's qfrc_applied), so a servo's own
 *  force would be an input the reference never sees. Actuators have their own stage (actuators/). */
export function unactuated(model: ModelDesc): ModelDesc {
  if (!model.actuators?.length && !model.controller) return model;
  const { actuators: _a, controller: _c, ...rest } = model;
  return rest;
}

export function suiteModels(): NamedModel[] {
  const dir = join(packageRoot, 'scenes');
  const bundled = readdirSync(dir)
    .filter((f) => f.endsWith('.arow'))
    .sort()
    .map((f) => ({ name: basename(f, '.arow'), model: unactuated(loadScene(join(dir, f))) }));
  // The shared scenes live beside the checkout (../shared); without them only bundled scenes run.
  if (!existsSync(SHARED_DIR)) return bundled;
  const config = join(SHARED_DIR, 'sim_config.yaml');
  const shared = SHARED_SCENES.map((s) => ({ name: s, model: loadScene(join(SHARED_DIR, `${s}.arow`), { config }) }));
  return [...bundled, ...shared];
}

/** The model without its constraints (shapes, joint ranges, dry friction): what the smooth-dynamics stages compare,
 *  since their MuJoCo reference runs with contacts disabled and no limits (contact stages use the full model). */
export function withoutConstraints(model: ModelDesc): ModelDesc {
  return {
    ...model,
    shapes: [],
    excludes: [],
    bodies: model.bodies.map(({ range: _r, limit: _l, frictionloss: _f, ...b }) => b),
    // fixed tendons keep their spring and damper (passive forces), not their limit and friction rows
    ...(model.tendons ? { tendons: model.tendons.map(({ range: _r, limit: _l, frictionloss: _f, ...t }) => t) } : {}),
  };
}
