#!/usr/bin/env node
// npm `postpack`: removes the prebuilds/ that prepack made, so a development checkout always runs
// its own source build and never a copy left from an earlier `npm pack`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './cmake-js.mjs';

rmSync(join(packageRoot, 'prebuilds'), { recursive: true, force: true });
