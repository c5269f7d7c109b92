// The package's root directory (where package.json, scenes/ and build/ are), from this file's
// place in dist/util/. The bottom room's copy, so that the version needs nothing above it
// (src/engine/native.ts, the addon loader, computes the same directory from dist/engine/).

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
