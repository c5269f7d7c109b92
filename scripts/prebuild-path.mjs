// Where the npm package carries its prebuilt addons: prebuilds/<platform>-<arch>/ (filled by
// scripts/prepack.mjs at `npm pack`). src/engine/native.ts looks in the same place.
import { join } from 'node:path';
import { packageRoot } from './cmake-js.mjs';

export const PREBUILD_DIR = join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`);
export const ENGINE_PREBUILD = join(PREBUILD_DIR, 'achilles.node');
