#!/usr/bin/env node
// npm `prepack`: puts this machine's source build of the native addons into prebuilds/<platform>-<arch>/,
// so the tarball installs without compiling anything. One engine binary serves every Node >= 20
// (Node-API 8) and every x86-64 CPU (it picks SSE2, AVX2 or AVX-512 at run time). Refuses to pack
// without a loadable engine: a tarball without it would silently fall back to a source build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { packageRoot } from './cmake-js.mjs';
import { PREBUILD_DIR } from './prebuild-path.mjs';

const engine = join(packageRoot, 'build', 'native', 'Release', 'achilles.node');
const mujoco = join(packageRoot, 'build', 'mujoco', 'Release', 'achilles_mujoco.node');

/** Runs `expr` (an expression over `addon`) in a child that loads file; its stdout, or exits with why. */
function probe(file, expr) {
  const code = `const addon = require(${JSON.stringify(file)}); process.stdout.write(JSON.stringify(${expr}))`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`[achilles] prepack: ${relative(packageRoot, file)} does not load:\n${r.stderr}`);
    process.exit(1);
  }
  return JSON.parse(r.stdout);
}

if (!existsSync(engine)) {
  console.error(`[achilles] prepack: ${relative(packageRoot, engine)} is missing: run \`npm run build:native\` first`);
  process.exit(1);
}
if (probe(engine, 'addon.isBugBuild') !== false) {
  console.error('[achilles] prepack: build/native/Release/achilles.node is a planted-bug build; rebuild it');
  process.exit(1);
}
rmSync(join(packageRoot, 'prebuilds'), { recursive: true, force: true });
mkdirSync(PREBUILD_DIR, { recursive: true });
copyFileSync(engine, join(PREBUILD_DIR, 'achilles.node'));
console.error(`[achilles] prepack: ${relative(packageRoot, PREBUILD_DIR)}/achilles.node`);

// The MuJoCo timing addon links one exact MuJoCo release (libmujoco.so.<version> is its SONAME),
// found at run time in the user's own MuJoCo install (src/bench/mujoco-prebuild.ts); the manifest
// names it so a user with another release is told so instead of getting a loader error.
if (existsSync(mujoco)) {
  const info = probe(mujoco, 'addon.info()');
  copyFileSync(mujoco, join(PREBUILD_DIR, 'achilles_mujoco.node'));
  const manifest = { mujocoVersion: info.version, library: basename(info.lib) };
  writeFileSync(join(PREBUILD_DIR, 'achilles_mujoco.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.error(`[achilles] prepack: ${relative(packageRoot, PREBUILD_DIR)}/achilles_mujoco.node (MuJoCo ${info.version})`);
} else {
  console.error('[achilles] prepack: no MuJoCo timing addon (build/mujoco) to ship; `bench --vs mujoco` will explain how to build it');
}
