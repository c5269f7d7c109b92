#!/usr/bin/env node
// Locates the native MuJoCo shipped in the pip wheel (libmujoco.so.* + include/mujoco/mujoco.h)
// and optionally builds the timing addon against it. The WebAssembly MuJoCo is never a
// substitute: it would distort every speed comparison.
//
//   node scripts/find-mujoco.mjs           prints the directory (exit 1 if absent)
//   node scripts/find-mujoco.mjs --build   builds build/mujoco/Release/achilles_mujoco.node,
//                                          or skips (exit 0) with a message when MuJoCo is absent
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cmakeJsBin, packageRoot } from './cmake-js.mjs';

export const INSTALL_HINT =
  'native MuJoCo not found: run `pip install mujoco` (so that `python3 -c "import mujoco"` works) ' +
  'or set ACHILLES_MUJOCO_DIR to a directory holding libmujoco.so.* and include/mujoco/mujoco.h';

/** True when dir has both the shared library and the headers. */
export function isMujocoDir(dir) {
  if (!dir || !existsSync(join(dir, 'include', 'mujoco', 'mujoco.h'))) return false;
  try {
    return readdirSync(dir).some((f) => /^libmujoco\.so(\.\d+)*$/.test(f));
  } catch {
    return false;
  }
}

/** ACHILLES_MUJOCO_DIR first (explicit beats discovered), else the python package directory. */
export function findMujocoDir(env = process.env) {
  const explicit = env.ACHILLES_MUJOCO_DIR;
  if (explicit) return isMujocoDir(explicit) ? explicit : null;
  const python = env.ACHILLES_PYTHON || 'python3';
  const r = spawnSync(python, ['-c', 'import mujoco, os; print(os.path.dirname(mujoco.__file__))'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) return null;
  const dir = r.stdout.trim();
  return isMujocoDir(dir) ? dir : null;
}

function main() {
  const dir = findMujocoDir();
  const build = process.argv.includes('--build');
  if (!dir) {
    // A missing optional reference must not fail `npm install`; the bench reports it instead.
    console.error(`[achilles] skipping the MuJoCo timing addon: ${INSTALL_HINT}`);
    process.exit(build ? 0 : 1);
  }
  if (!build) {
    console.log(dir);
    return;
  }
  let cmakeJs;
  try {
    cmakeJs = cmakeJsBin(); // wherever npm put it: not always the package's own node_modules
  } catch (e) {
    console.error(`[achilles] cannot build the MuJoCo timing addon: ${e.message}`);
    process.exit(1);
  }
  const args = [
    cmakeJs,
    'compile',
    '--directory',
    'native/mujoco',
    '--out',
    'build/mujoco',
    '--config',
    'Release',
    `--CDMUJOCO_DIR=${dir}`,
  ];
  console.error(`[achilles] building the MuJoCo timing addon against ${dir}`);
  const r = spawnSync(process.execPath, args, { cwd: packageRoot, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
