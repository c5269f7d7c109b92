#!/usr/bin/env node
// npm `install`: when the package's prebuilt engine loads on this machine, there is nothing to
// compile and this exits at once. Otherwise (no prebuild for this platform, one that fails to
// load, a development checkout, or ACHILLES_BUILD_FROM_SOURCE=1) it says why and builds from
// source as before: the toolchain check, the native core, then the MuJoCo timing addon.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from './cmake-js.mjs';
import { ENGINE_PREBUILD } from './prebuild-path.mjs';

const platform = `${process.platform}-${process.arch}`;
const shown = relative(packageRoot, ENGINE_PREBUILD);

/** Why the prebuild cannot serve, or null when it loads (checked in a child: a bad binary may crash). */
function prebuildProblem() {
  if (process.env.ACHILLES_BUILD_FROM_SOURCE === '1') return 'ACHILLES_BUILD_FROM_SOURCE=1 asks for it';
  // tsconfig.json is never in the package. A clone builds its own engine even when an `npm pack`
  // that failed halfway (no postpack) left a prebuilds/ behind.
  if (existsSync(join(packageRoot, 'tsconfig.json'))) return 'a development checkout builds its own engine';
  if (!existsSync(ENGINE_PREBUILD)) {
    return existsSync(join(packageRoot, 'prebuilds'))
      ? `this package has no prebuilt engine for ${platform}`
      : 'this package has no prebuilt engine (no prebuilds/)';
  }
  const probe = `require(${JSON.stringify(ENGINE_PREBUILD)}).cpuInfo()`;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  if (r.status === 0) return null;
  const error = (r.stderr || '').split('\n').find((l) => /Error/.test(l)) ?? `exit ${r.status ?? r.signal}`;
  return `the prebuilt engine ${shown} does not load on this machine (${error.trim()})`;
}

function run(script, args = []) {
  const r = spawnSync(process.execPath, [join(packageRoot, 'scripts', script), ...args], { cwd: packageRoot, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const problem = prebuildProblem();
if (problem === null) {
  console.error(`[achilles] using the prebuilt engine (${shown}); nothing to compile`);
  process.exit(0);
}
console.error(`[achilles] building the native engine from source: ${problem}`);
run('check-toolchain.mjs');
run('build-native.mjs');
run('find-mujoco.mjs', ['--build']);
