#!/usr/bin/env node
// The `achilles` command: a thin shim over the compiled CLI in dist/.
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`achilles: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
