// The package version, read from package.json at run time (one source of truth for --version,
// trace headers and run.json).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

let cached: string | undefined;

export function achillesVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
