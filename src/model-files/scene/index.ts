// Scene loading entry point: detects the dialect of a `.arow` file and returns a checked ModelDesc.
//   raw (original system): top-level `archetype` + `joints`        → raw.ts
//   everyday (documented in docs/scene-format.md): `scene` + `links` → everyday.ts

import { isMap } from 'yaml';
import type { ModelDesc, WorldSettings } from '../../engine/model-desc.js';
import { loadSimConfig } from './config.js';
import { SceneError, didYouMean, quote } from '../common/errors.js';
import { loadEveryday } from './everyday.js';
import type { SceneRandomization } from './randomize-read.js';
import { loadRaw } from './raw.js';
import { checkEffectiveInertia } from './singular.js';
import { entries, notAYamlFile, parseYamlFile, type Entry } from './yaml-read.js';
import { importFile, sniffFormat } from '../import/index.js';

export { SceneError } from '../common/errors.js';
export { exportMjcf } from './mjcf-writer.js';

export interface LoadSceneOptions {
  /** A `sim_config.yaml` whose settings override the scene's world settings. */
  config?: string;
  /** Progress while reading links (large scenes); see SCENE_LINKS. */
  onLink?: (done: number, total: number) => void;
  /** An MJCF model's keyframe (name or index) to start from instead of qpos0 (src/model-files/import/keyframe.ts). */
  keyframe?: string;
  /** Called with an everyday scene's `randomize:` block (src/model-files/scene/randomize-read.ts) by
   *  the commands that honour it (run, sweep); without it a scene with one is refused at the block. */
  randomize?: (r: SceneRandomization) => void;
  /** Read an MJCF model that replicates past its size limit (the user's --yes; import/mjcf/model-size.ts). */
  allowLarge?: boolean;
}

/** The top-level keys that tell the dialects apart. */
const DIALECT_KEYS = ['scene', 'links', 'archetype'];
const SCENE_EXPECTED = 'an everyday scene (`scene:` and `links:`) or a raw archetype (`archetype:` and `joints:`)';

export function loadScene(path: string, opts: LoadSceneOptions = {}): ModelDesc {
  const file = path; // as given, so messages read like the user's own command line
  // MJCF and URDF (recognised by content): imported as MuJoCo compiles them (src/model-files/import/).
  if (sniffFormat(file)) {
    const model = importFile(file, {
      ...(opts.keyframe === undefined ? {} : { keyframe: opts.keyframe }),
      ...(opts.allowLarge ? { allowLarge: true } : {}),
    }).model;
    if (opts.config) Object.assign(model.world, loadSimConfig(opts.config));
    checkEffectiveInertia(model);
    if (opts.config) model.files.push(opts.config);
    return model;
  }
  if (opts.keyframe !== undefined) {
    throw new SceneError({
      file,
      line: 1,
      column: 1,
      subject: '--keyframe',
      found: `'${opts.keyframe}' for an .arow scene, which has no keyframes`,
      expected: "no --keyframe (an .arow scene starts from its links' `initial:`); keyframes belong to MJCF models",
    });
  }
  const files = [file];
  const pf = parseYamlFile(file);
  if (opts.onLink) pf.onLink = opts.onLink;
  const override: Partial<WorldSettings> = opts.config ? loadSimConfig(opts.config) : {};
  const root = pf.root;
  let model: ModelDesc;
  if (isMap(root) && root.has('archetype')) model = loadRaw(pf, file, override, files);
  else if (isMap(root) && (root.has('scene') || root.has('links'))) model = loadEveryday(pf, override, files, opts.randomize);
  else {
    // Anything else is said without quoting it: the path may name any file, not only a scene.
    const notScene = notAYamlFile(pf, 'scene', DIALECT_KEYS, SCENE_EXPECTED);
    if (notScene) throw notScene;
    // Keys that are typos of the dialects' own ("did you mean"): at the first of them.
    const keys = entries(pf.ctx, root, 'scene file');
    const typo = [...keys.values()].find((e) => didYouMean(e.key, DIALECT_KEYS) !== undefined) as Entry;
    throw pf.ctx.error(
      typo.keyNode,
      'scene file',
      `unknown key ${quote(typo.key, 60, '`')}`,
      SCENE_EXPECTED,
      didYouMean(typo.key, DIALECT_KEYS),
    );
  }
  checkEffectiveInertia(model);
  if (opts.config) model.files.push(opts.config);
  return model;
}
