// Finds cmake-js wherever npm put it: in the package's own node_modules (a development checkout)
// or hoisted beside the package (installed as a dependency: node_modules/cmake-js next to
// node_modules/achilles-sim). Only the source build needs it, so a miss is reported when a build
// is asked for, with what to install, never when the prebuilt engine is used.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (this file is scripts/cmake-js.mjs). */
export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const SOURCE_BUILD_HINT =
  'install cmake-js and a C++ toolchain to build from source: `npm install cmake-js node-addon-api` in your ' +
  'project, and `sudo apt-get install -y cmake g++ libxsimd-dev` (Debian/Ubuntu)';

/** Absolute path of cmake-js's command-line script, resolved from the package directory. */
export function cmakeJsBin(root = packageRoot) {
  let manifest;
  try {
    manifest = createRequire(join(root, 'package.json')).resolve('cmake-js/package.json');
  } catch {
    throw new Error(`cmake-js is not installed (looked from ${root}): ${SOURCE_BUILD_HINT}`);
  }
  const bin = createRequire(manifest)('./package.json').bin;
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin['cmake-js']);
}
