// The npm package's prebuilt MuJoCo timing addon (prebuilds/<platform>-<arch>/achilles_mujoco.node,
// put there by scripts/prepack.mjs). It links one exact MuJoCo release through that release's
// SONAME (libmujoco.so.<version>), and its rpath names the packer's pip directory, absent on the
// user's machine. The dynamic loader matches a needed library against the SONAMEs already loaded,
// so loading the user's own libmujoco of that release first (found as the source build finds it:
// ACHILLES_MUJOCO_DIR, else python3's mujoco package) lets the addon load with no rpath, no
// LD_LIBRARY_PATH and no compiler. Another release is refused by name: MuJoCo's structs change
// between releases, so the addon must never run against a library it was not compiled for.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { join } from 'node:path';
import { PREBUILD_DIR } from '../engine/native.js';

export const MUJOCO_PREBUILD = join(PREBUILD_DIR, 'achilles_mujoco.node');
const MANIFEST = join(PREBUILD_DIR, 'achilles_mujoco.json');
/** glibc's RTLD_NODELETE (not in os.constants.dlopen): keeps libmujoco loaded after Node's
 *  process.dlopen gives up on it (a plain library registers no module, so Node would close it). */
const RTLD_NODELETE = 0x1000;

interface Manifest {
  mujocoVersion: string;
  /** The file name the addon needs (its SONAME), e.g. libmujoco.so.3.14.0. */
  library: string;
}

export function hasMujocoPrebuild(): boolean {
  return process.platform === 'linux' && existsSync(MUJOCO_PREBUILD) && existsSync(MANIFEST);
}

/** ACHILLES_MUJOCO_DIR first (explicit beats discovered), else the python package's directory. */
function mujocoDir(env = process.env): string | null {
  if (env.ACHILLES_MUJOCO_DIR) return env.ACHILLES_MUJOCO_DIR;
  const r = spawnSync(env.ACHILLES_PYTHON || 'python3', ['-c', 'import mujoco, os; print(os.path.dirname(mujoco.__file__))'], {
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * Loads the prebuilt timing addon against the user's MuJoCo. `hint` (how to build the addon from
 * source) ends every refusal: no MuJoCo, another release, or a library that does not load.
 */
export function loadMujocoPrebuild<T>(hint: string): T {
  const { mujocoVersion, library } = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
  const need = `the prebuilt MuJoCo timing addon (${MUJOCO_PREBUILD}) needs native MuJoCo ${mujocoVersion} (${library})`;
  const dir = mujocoDir();
  if (!dir)
    throw new Error(`${need}, and none was found: \`pip install mujoco==${mujocoVersion}\` or set ACHILLES_MUJOCO_DIR. Or: ${hint}`);
  const lib = join(dir, library);
  if (!existsSync(lib)) {
    const found = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('libmujoco.so')) : [];
    throw new Error(
      `${need}; ${dir} has ${found.length ? found.join(', ') : 'no libmujoco.so.*'}: \`pip install mujoco==${mujocoVersion}\`, or build the addon against your MuJoCo: ${hint}`,
    );
  }
  try {
    process.dlopen({ exports: {} }, lib, constants.dlopen.RTLD_NOW | constants.dlopen.RTLD_GLOBAL | RTLD_NODELETE);
  } catch (e) {
    // Expected: a plain shared library registers no Node module. It stays loaded (RTLD_NODELETE).
    if (!/did not self-register/.test((e as Error).message))
      throw new Error(`${need}; loading ${lib} failed: ${(e as Error).message}. ${hint}`);
  }
  return createRequire(import.meta.url)(MUJOCO_PREBUILD) as T;
}
