#!/usr/bin/env node
// The `achilles` command: a thin shim over the compiled CLI in dist/ (built by `npm run build:ts`).
import { main } from '../dist/cli/main.js';

// `achilles docs | head`: a reader closing the pipe early is its choice, not a crash to report.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`achilles: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
