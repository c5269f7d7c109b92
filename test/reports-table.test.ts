import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration, type ProgressStream } from '../src/reports/progress.js';
import { formatRatio, formatSi, formatSig, markdownTable, textTable } from '../src/reports/table.js';

describe('number formatting', () => {
  it('formatSi picks the prefix and rolls over on rounding', () => {
    expect(formatSi(1234567, 'steps/s')).toBe('1.23 Msteps/s');
    expect(formatSi(999.6e3, 'Hz')).toBe('1.00 MHz');
    expect(formatSi(0.00042, 's')).toBe('420 µs');
    expect(formatSi(12)).toBe('12.0');
    expect(formatSi(-2.5e-9, 's')).toBe('-2.50 ns');
    expect(formatSi(0, 's')).toBe('0 s');
    expect(formatSi(NaN, 's')).toBe('NaN s');
  });

  it('formatSig keeps significant digits and switches to exponents at the extremes', () => {
    expect(formatSig(14.125899871186028)).toBe('14.13');
    expect(formatSig(0.5, 3)).toBe('0.500');
    expect(formatSig(3.2e-9)).toBe('3.200e-9');
    expect(formatSig(7.1e8, 2)).toBe('7.1e+8');
    expect(formatSig(0)).toBe('0');
    expect(formatSig(-Infinity)).toBe('-∞');
  });

  it('formatRatio', () => {
    expect(formatRatio(12.345)).toBe('12.3×');
    expect(formatRatio(0.4567)).toBe('0.457×');
  });
});

describe('tables', () => {
  const header = ['scene', 'steps/s', 'speed-up'];
  const rows = [
    ['two_joint_arm', 1.5e6, '12.3×'],
    ['humanoid | big', 2.25e4, null],
  ];

  it('markdownTable escapes pipes and right-aligns numeric columns', () => {
    expect(markdownTable(header, rows)).toBe(
      [
        '| scene           |  steps/s | speed-up |',
        '| --------------- | -------: | -------- |',
        '| two_joint_arm   | 1.500e+6 | 12.3×    |',
        '| humanoid \\| big | 2.250e+4 |          |',
        '',
      ].join('\n'),
    );
  });

  it('textTable aligns columns by code points (µ, × count as one)', () => {
    const out = textTable(
      ['name', 'time'],
      [
        ['a', '3 µs'],
        ['bbbb', 12],
      ],
      { align: ['left', 'right'] },
    );
    expect(out).toBe(['name   time', '----  -----', 'a      3 µs', 'bbbb  12.00', ''].join('\n'));
  });

  it('uses a custom number formatter', () => {
    expect(textTable(['x'], [[1234]], { formatNumber: (x) => formatSi(x) })).toBe('     x\n------\n1.23 k\n');
  });
});

class FakeTty implements ProgressStream {
  isTTY = true;
  columns = 100;
  chunks: string[] = [];
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
}

describe('progress', () => {
  it('is a no-op when stderr is not a TTY or CI is set', () => {
    const s = new FakeTty();
    s.isTTY = false;
    const p = createProgress({ total: 10, stream: s, env: {} });
    p.tick(5);
    p.finish();
    expect(p.active).toBe(false);
    const ci = new FakeTty();
    const q = createProgress({ total: 10, stream: ci, env: { CI: 'true' } });
    q.tick(5);
    q.finish();
    expect(q.active).toBe(false);
    expect(s.chunks).toEqual([]);
    expect(ci.chunks).toEqual([]);
  });

  it('draws percent, rate and ETA, throttled to the interval, and clears on finish', () => {
    let t = 0;
    const s = new FakeTty();
    const p = createProgress({ total: 1000, label: 'run', stream: s, env: {}, now: () => t, intervalMs: 100 });
    t = 1000;
    p.update(100); // first draw: 10%, 100 steps/s, 9 s left
    expect(s.chunks.length).toBe(1);
    expect(s.chunks[0]).toContain('10.0%');
    expect(s.chunks[0]).toContain('100 steps/s');
    expect(s.chunks[0]).toContain('ETA 9s');
    expect(s.chunks[0].startsWith('\r\x1b[2Krun [')).toBe(true);
    for (let i = 0; i < 50; i++) {
      t += 1; // 50 updates within 50 ms: no redraw
      p.tick();
    }
    expect(s.chunks.length).toBe(1);
    t += 100;
    p.tick();
    expect(s.chunks.length).toBe(2);
    p.finish();
    p.finish();
    expect(s.chunks[s.chunks.length - 1]).toBe('\r\x1b[2K');
    expect(s.chunks.length).toBe(3);
    p.tick(); // after finish: nothing
    expect(s.chunks.length).toBe(3);
  });

  it('never writes a line wider than the terminal', () => {
    let t = 0;
    const s = new FakeTty();
    s.columns = 30;
    const p = createProgress({ total: 10, label: 'a-very-long-label-for-a-run', stream: s, env: {}, now: () => (t += 500) });
    p.tick(3);
    const visible = s.chunks[0].replace('\r\x1b[2K', '');
    expect([...visible].length).toBeLessThan(30);
  });

  it('formatDuration', () => {
    expect(formatDuration(12.4)).toBe('12s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3720)).toBe('1h02m');
    expect(formatDuration(NaN)).toBe('--');
  });
});
