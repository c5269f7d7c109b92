// The package's root directory (where package.json, scenes/, build/ and prebuilds/ are), from this
// file's place in src/util/ or dist/util/. In the bottom room so that the version and the addon
// loader (src/engine/native.ts, which re-exports it) share one definition.

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
