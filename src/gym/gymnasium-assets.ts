// Where Gymnasium's MuJoCo model files are: the tasks name them as Gymnasium does (hopper.xml, ...)
// and read them from the installed gymnasium package, never from a copy.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

let assets: string | undefined;

/** gymnasium/envs/mujoco/assets of the Python package `python3` imports (ACHILLES_GYMNASIUM_ASSETS
 *  overrides). Found with importlib's find_spec, which does not import gymnasium (fast). */
export function gymnasiumAssets(): string {
  if (process.env.ACHILLES_GYMNASIUM_ASSETS) return process.env.ACHILLES_GYMNASIUM_ASSETS;
  if (assets !== undefined) return assets;
  const python = process.env.PYTHON ?? 'python3';
  const r = spawnSync(python, ['-c', 'import importlib.util as u; s = u.find_spec("gymnasium"); print(s.origin if s else "")'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  const origin = r.status === 0 ? r.stdout.trim() : '';
  if (!origin)
    throw new Error(
      `Gymnasium's model files are read from its Python package, which ${python} does not find (${r.error?.message ?? (r.stderr.trim() || 'no gymnasium module')}): ` +
        "python3 -m pip install 'gymnasium[mujoco]', or set ACHILLES_GYMNASIUM_ASSETS to its envs/mujoco/assets folder",
    );
  assets = join(dirname(origin), 'envs', 'mujoco', 'assets');
  return assets;
}

/** Gymnasium's MujocoEnv rule (expand_model_path): a path starting with '.' or '/' as given, '~'
 *  expanded, anything else inside Gymnasium's assets. */
export function gymnasiumModelPath(xmlFile: string): string {
  const path =
    xmlFile.startsWith('.') || xmlFile.startsWith('/')
      ? xmlFile
      : xmlFile.startsWith('~')
        ? join(homedir(), xmlFile.slice(1))
        : join(gymnasiumAssets(), xmlFile);
  if (!existsSync(path)) throw new Error(`File ${path} does not exist`);
  return path;
}
