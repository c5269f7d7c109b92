#!/usr/bin/env node
// `npm run build:native`: compiles the native core from source with cmake-js into build/native
// (the engine, its planted-bug twin and the C++ test programs). cmake-js is resolved from the
// package directory, so this also works when the package is installed as a dependency.
import { spawnSync } from 'node:child_process';
import { cmakeJsBin, packageRoot } from './cmake-js.mjs';

let bin;
try {
  bin = cmakeJsBin();
} catch (e) {
  console.error(`[achilles] cannot build the native engine: ${e.message}`);
  process.exit(1);
}
const args = [bin, 'compile', '--directory', 'native', '--out', 'build/native', '--config', 'Release'];
const r = spawnSync(process.execPath, args, { cwd: packageRoot, stdio: 'inherit' });
process.exit(r.status ?? 1);
