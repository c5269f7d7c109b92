// A measuring aid, loaded as a vitest setup file only when ACHILLES_LOOP_WATCH names an output file
// (see vitest.config.ts): records, per test, the longest stretch during which the test worker's event
// loop did not turn. A stretch over 60 s makes vitest fail the run even when every test passed
// ("[vitest-worker]: Timeout calling onTaskUpdate": birpc's fixed 60 s call timeout fires before the
// main process's answer, which waited behind the blocked loop, is read). Run for example
//   ACHILLES_LOOP_WATCH=/tmp/loop.jsonl npx vitest run test/foo.test.ts
// and read the JSON lines (file, test, longestBlockMs, durationMs), one per test plus one per file
// for the time before its first test (collection and beforeAll).
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
// The real timers (node:timers), so a test's vi.useFakeTimers cannot stop the watch.
import { clearInterval, setInterval } from 'node:timers';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';

const out = process.env.ACHILLES_LOOP_WATCH;
if (out) {
  const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  let last = performance.now();
  let label = '(before the first test: collection, beforeAll)';
  let started = last;
  let longest = 0;

  // The gap since the last sample is one stretch the loop spent without turning (less the tick period).
  const sample = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const flush = () => {
    appendFileSync(
      out,
      JSON.stringify({ file, test: label, longestBlockMs: Math.round(longest), durationMs: Math.round(performance.now() - started) }) +
        '\n',
    );
  };
  const tick = setInterval(sample, 20);
  tick.unref();

  beforeEach(() => {
    sample();
    flush();
    label = expect.getState().currentTestName ?? '(unnamed test)';
    started = last;
    longest = 0;
  });
  afterEach(() => {
    sample();
    flush();
    label = '(between tests: hooks)';
    started = last;
    longest = 0;
  });
  afterAll(() => {
    sample();
    clearInterval(tick);
  });
}
