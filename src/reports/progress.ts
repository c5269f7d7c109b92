// A terminal progress bar for long runs. It draws only on an interactive
// stderr (never into logs, pipes or CI output, where "\r" redraws become
// thousands of garbage lines) and is throttled so drawing never costs
// measurable time in a benchmark loop.
import { formatSi } from './table.js';

export interface Progress {
  /** Set the absolute number of completed steps. */
  update(done: number): void;
  /** Add `n` (default 1) completed steps. */
  tick(n?: number): void;
  /** Erase the bar (the terminal line is left clean). Idempotent. */
  finish(): void;
  /** Whether anything is drawn at all. */
  readonly active: boolean;
}

/** The subset of a tty.WriteStream we use; injectable for tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): boolean;
}

export interface ProgressOptions {
  total: number;
  label?: string;
  /** Unit for the rate display; default "steps". */
  unit?: string;
  stream?: ProgressStream;
  env?: Readonly<Record<string, string | undefined>>;
  /** Minimum ms between redraws; default 100 (10 Hz). */
  intervalMs?: number;
  now?: () => number;
}

const noop: Progress = { update() {}, tick() {}, finish() {}, active: false };

/** "1h02m", "3m05s", "12s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A progress bar on stderr when it is a TTY and CI is unset; otherwise a no-op object. */
export function createProgress(opts: ProgressOptions): Progress {
  const stream: ProgressStream = opts.stream ?? process.stderr;
  const env = opts.env ?? process.env;
  if (!stream.isTTY || env.CI) return noop;

  const now = opts.now ?? (() => performance.now());
  const interval = opts.intervalMs ?? 100;
  const unit = opts.unit ?? 'steps';
  const total = Math.max(0, opts.total);
  const start = now();
  let done = 0;
  let lastDraw = -Infinity;
  let drawn = false;
  let finished = false;

  const render = (): void => {
    const t = now();
    const elapsed = (t - start) / 1000;
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.NaN;
    const info = ` ${(frac * 100).toFixed(1).padStart(5)}%  ${formatSi(rate, `${unit}/s`)}  ETA ${formatDuration(eta)}`;
    const label = opts.label ? `${opts.label} ` : '';
    // || not ??: a pseudo-terminal without a size (script, some CI runners) reports 0 columns, and the
    // bar was cut to its first character.
    const cols = stream.columns || 80;
    const barWidth = Math.max(10, Math.min(40, cols - label.length - info.length - 3));
    const filled = Math.round(frac * barWidth);
    const line = `${label}[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${info}`;
    // \r + erase-line redraws in place; truncated so the line never wraps (a wrapped line can't be erased).
    stream.write(`\r\x1b[2K${[...line].slice(0, Math.max(1, cols - 1)).join('')}`);
    drawn = true;
    lastDraw = t;
  };

  const maybeRender = (): void => {
    if (finished) return;
    if (now() - lastDraw >= interval) render();
  };

  return {
    active: true,
    update(n) {
      done = n;
      maybeRender();
    },
    tick(n = 1) {
      done += n;
      maybeRender();
    },
    finish() {
      if (finished) return;
      finished = true;
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
