// `bench --flops`: the flop count broken down by pass, and a fraction of peak that divides by a
// peak measured in the same run at the cell's own precision and lane width (never an assumed
// clock × pipes table). Never checks speed itself.
import { describe, expect, it } from 'vitest';
import { countFlops, describeFlopsByPass, measurePeaks, peakFor } from '../src/bench/flops.js';
import { resolveConfig } from '../src/bench/config.js';
import { runBench } from '../src/bench/run.js';
import { supportedLanes } from '../src/engine/lanes.js';
import { engineAddon } from '../src/engine/native.js';
import { loadScene } from '../src/model-files/scene/index.js';

describe('flops by pass', () => {
  it('the passes add up to the step and name the ABA sweeps', () => {
    const model = loadScene('scenes/arm7.arow');
    for (const integ of ['euler', 'rk4'] as const) {
      const f = countFlops(model, integ);
      expect(f.byPass.reduce((s, p) => s + p.total, 0)).toBe(f.total);
      const names = f.byPass.map((p) => p.pass);
      expect(names).toContain('articulated inertia (leaves→root)');
      expect(names).toContain('kinematics+velocity (root→leaves)');
      // RK4 evaluates the dynamics four times: each ABA pass costs four Euler steps' worth.
      if (integ === 'rk4') {
        const euler = countFlops(model, 'euler');
        const back = (c: typeof f) => c.byPass.find((p) => p.pass.startsWith('articulated inertia'))!.total;
        expect(back(f)).toBe(4 * back(euler));
      }
      expect(describeFlopsByPass(f)).toMatch(/articulated inertia \(leaves→root\) \d+ \(\d+%\)/);
    }
  });
});

describe('measured peak', () => {
  it('measures every pack width this CPU runs, with a plausible clock', () => {
    const cpu = engineAddon().cpuInfo();
    const cells = (['f32', 'f64'] as const).flatMap((precision) => supportedLanes(cpu, precision).map((lanes) => ({ precision, lanes })));
    const peaks = measurePeaks(cells, 0.02);
    expect(peaks.length).toBe(cells.length);
    for (const p of peaks) {
      expect(p.gflops).toBeGreaterThan(0);
      expect(p.clockMHz).toBeGreaterThan(200);
      expect(p.clockMHz).toBeLessThan(10000);
    }
    expect(peakFor(peaks, 'f32', 1)).toBeDefined();
  });

  it('refuses a width the CPU lacks and bad arguments, with what runs', () => {
    const measure = (engineAddon() as unknown as { measurePeak: (o: object) => unknown }).measurePeak;
    expect(() => measure({ precision: 'f16', lanes: 1 })).toThrow(/precision must be 'f32' or 'f64'/);
    expect(() => measure({ precision: 'f32', lanes: 3 })).toThrow(/lanes must be 1, 4, 8 or 16/);
    expect(() => measure({ precision: 'f32', lanes: 1, seconds: 0 })).toThrow(/seconds/);
    if (!engineAddon().cpuInfo().avx512) expect(() => measure({ precision: 'f32', lanes: 16 })).toThrow(/lacks .*it runs f32 at lanes/);
  });

  it("a cell's fraction of peak is its GFLOP/s over the measured peak of its width × threads", async () => {
    const cfg = resolveConfig({
      scene: ['scenes/double-pendulum.arow'],
      lanes: ['1'],
      precision: ['f64'],
      copies: ['4'],
      flops: true,
      budget: '0.01',
      reps: '1',
    });
    const rep = await runBench(cfg, { progress: () => ({ update() {}, tick() {}, finish() {} }) });
    const peak = peakFor(rep.machine.peaks ?? [], 'f64', 1)!;
    expect(peak).toBeDefined();
    const cell = rep.results.find((r) => r.engine === 'achilles' && r.measure === undefined)!;
    expect(cell.fractionOfPeak).toBeCloseTo(cell.gflops! / (peak.gflops * cell.threads), 12);
    expect(rep.machine.peakNote).toMatch(/peak measured in this run/);
    expect(rep.notes.some((n) => /flops per robot-step: .*articulated inertia/.test(n))).toBe(true);
  }, 60_000);
});
