// `achilles bench --vs mujoco` end to end on a tiny budget: both engines present, positive rates,
// ratios filled in, files written. Never checks speed (CI machines vary).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileAsync } from './helpers/spawn-async.js';
import { benchCommand } from '../src/cli/bench-command.js';
import { mujocoAddonPath } from '../src/bench/mujoco-native.js';
import { finiteRobotSteps } from '../src/bench/achilles-runner.js';
import { mergedGroup } from '../src/bench/mujoco-runner.js';
import { summarize, isNoisy } from '../src/bench/stats.js';
import { resolveConfig } from '../src/bench/config.js';
import { engineAddon } from '../src/engine/native.js';

const out = mkdtempSync(join(tmpdir(), 'achilles-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(async () => {
  if (!existsSync(mujocoAddonPath())) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    // A build of minutes: awaited, so the worker's event loop keeps turning (issue 23).
    await execFileAsync(process.execPath, ['scripts/find-mujoco.mjs', '--build'], { cwd: root, stdio: 'inherit' });
  }
}, 300_000);

async function capture(fn: () => Promise<number>): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await fn(), stdout };
  } finally {
    spy.mockRestore();
    spyErr.mockRestore();
  }
}

describe('achilles bench --vs mujoco', () => {
  it('times both engines, interleaved, and reports ratios', async () => {
    const { code, stdout } = await capture(() =>
      benchCommand.run([], {
        scene: ['scenes/arm7.arow'],
        copies: [1, 16],
        lanes: [...new Set(['1', String(engineAddon().cpuInfo().widestLanes)])],
        precision: ['f32'],
        vs: 'mujoco',
        budget: 0.05,
        reps: 2,
        json: true,
        out,
      }),
    );
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { machine: Record<string, unknown>; results: Record<string, unknown>[] };
    expect(doc.machine.mujoco).toMatch(/^\d+\.\d+/);
    expect(typeof doc.machine.cpuModel).toBe('string');
    expect(typeof doc.machine.compiler).toBe('string');
    const engines = new Set(doc.results.map((r) => r.engine));
    expect(engines).toEqual(new Set(['achilles', 'mujoco-per-robot', 'mujoco-merged']));
    for (const r of doc.results) {
      for (const k of [
        'engine',
        'scene',
        'integrator',
        'precision',
        'lanes',
        'copies',
        'threads',
        'robotStepsPerSec',
        'usPerStep',
        'spread',
      ])
        expect(r).toHaveProperty(k);
      expect(r.robotStepsPerSec).toBeGreaterThan(0);
      expect(r.usPerStep).toBeGreaterThan(0);
      expect(r.spread).toBeGreaterThanOrEqual(0);
      expect(r.nonFiniteRobotSteps).toBe(0);
    }
    const ours = doc.results.filter((r) => r.engine === 'achilles');
    // lanes 1 and the widest × copies 1, 16
    expect(ours.length).toBeGreaterThanOrEqual(2);
    for (const r of ours) {
      expect(r.vsMujoco).toBeGreaterThan(0);
      expect(['mujoco-per-robot', 'mujoco-merged']).toContain(r.mujocoBest);
    }
    expect(doc.results.filter((r) => r.engine === 'mujoco-merged' && r.copies === 16)[0].robotsPerModel).toBe(16);
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['bench.csv', 'bench.json', 'throughput-arm7-euler.svg', 'speedup-arm7-euler.vl.json']));
  });
});

describe('bench pieces', () => {
  it('summarizes repetitions with median and relative spread', () => {
    const s = summarize([10, 12, 11]);
    expect(s.median).toBe(11);
    expect(s.spread).toBeCloseTo(2 / 11);
    expect(isNoisy(s)).toBe(true);
    expect(isNoisy(summarize([100, 101, 99]))).toBe(false);
  });

  it('never counts more, or fewer than zero, robot-steps than were taken', () => {
    expect(finiteRobotSteps({ robotSteps: -52000, nonFinite: null }, 500, 1)).toBe(500);
    expect(finiteRobotSteps({ robotSteps: 300, nonFinite: { step: 3 } }, 500, 1)).toBe(300);
    expect(finiteRobotSteps({ robotSteps: 1e9, nonFinite: { step: 3 } }, 10, 2)).toBe(20);
  });

  it('merges MuJoCo robots in groups of at most 64 that divide the copies', () => {
    expect(mergedGroup(1)).toBe(1);
    expect(mergedGroup(16)).toBe(16);
    expect(mergedGroup(4096)).toBe(64);
    expect(mergedGroup(100)).toBe(50);
  });

  it('rejects lane widths the CPU lacks and unknown engines', () => {
    expect(() => resolveConfig({ vs: 'bullet' })).toThrow(/--vs only knows 'mujoco'/);
    expect(() => resolveConfig({ lanes: ['3'] })).toThrow(/--lanes/);
    expect(resolveConfig({}).copies).toEqual([1, 16, 64, 256, 1024, 4096]);
  });
});
