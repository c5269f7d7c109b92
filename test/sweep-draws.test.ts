// The per-robot draws of a sweep and the split into shards: pure functions, checked in-process.
import { describe, expect, test } from 'vitest';
import { draw, parameterKey, unitDraw, type Distribution } from '../src/params/draws.js';
import { chooseShard, parseShardFlag, parseShardName, shardName, shardRange } from '../src/sweep/shards.js';

const N = 20000;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const std = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
const robots = (d: Distribution, seed = 3, key = parameterKey('q:torso.z')) => Array.from({ length: N }, (_, r) => draw(d, seed, r, key));

describe('per-robot draws: a counter-based hash of (seed, robot, parameter)', () => {
  test('a number in (0, 1) that changes with each of seed, robot, parameter and counter', () => {
    const base = unitDraw(1, 2, 3, 0);
    expect(base).toBeGreaterThan(0);
    expect(base).toBeLessThan(1);
    expect(unitDraw(1, 2, 3, 0)).toBe(base);
    for (const other of [unitDraw(2, 2, 3, 0), unitDraw(1, 3, 3, 0), unitDraw(1, 2, 4, 0), unitDraw(1, 2, 3, 1)])
      expect(other).not.toBe(base);
    // The extremes of the hash stay strictly inside (0, 1).
    for (let r = 0; r < 1000; r++) {
      const u = unitDraw(0xffffffff, r, 0xffffffff, 0);
      expect(u > 0 && u < 1).toBe(true);
    }
  });

  test("robot r's value is the same whichever robots are drawn with it, in any order", () => {
    const d: Distribution = { kind: 'normal', mean: 0, std: 1 };
    const key = parameterKey('v:torso.vy');
    const forward = Array.from({ length: 64 }, (_, r) => draw(d, 9, r, key));
    // A "shard" of robots 40..63 drawn alone, backwards: the same numbers.
    for (let r = 63; r >= 40; r--) expect(Object.is(draw(d, 9, r, key), forward[r])).toBe(true);
    // Parameters are keyed by name: another parameter drawn before it changes nothing.
    expect(parameterKey('v:torso.vy')).toBe(key);
    expect(parameterKey('v:torso.vx')).not.toBe(key);
  });

  test('neighbouring robots are not correlated (lag-1 correlation of the uniform numbers)', () => {
    const u = Array.from({ length: N }, (_, r) => unitDraw(5, r, 7, 0));
    const m = mean(u);
    let c = 0;
    for (let r = 1; r < N; r++) c += (u[r] - m) * (u[r - 1] - m);
    expect(Math.abs(c / (N - 1) / std(u) ** 2)).toBeLessThan(0.03);
  });

  test('uniform: within [low, high), mean and spread of the uniform law', () => {
    const xs = robots({ kind: 'uniform', low: 0.3, high: 0.8 });
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0.3);
    expect(Math.max(...xs)).toBeLessThan(0.8);
    expect(mean(xs)).toBeCloseTo(0.55, 2);
    expect(std(xs)).toBeCloseTo(0.5 / Math.sqrt(12), 2);
  });

  test('normal: mean and standard deviation, and the tails of a normal law', () => {
    const xs = robots({ kind: 'normal', mean: 2, std: 0.5 });
    expect(mean(xs)).toBeCloseTo(2, 1);
    expect(Math.abs(std(xs) - 0.5)).toBeLessThan(0.01);
    // 4.55% of a normal law lies beyond 2 standard deviations.
    const far = xs.filter((x) => Math.abs(x - 2) > 1).length / N;
    expect(far).toBeGreaterThan(0.04);
    expect(far).toBeLessThan(0.051);
  });

  test('log-uniform: within [low, high), its logarithm uniform', () => {
    const xs = robots({ kind: 'log_uniform', low: 0.01, high: 100 });
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0.01);
    expect(Math.max(...xs)).toBeLessThan(100);
    const logs = xs.map(Math.log10);
    expect(mean(logs)).toBeCloseTo(0, 1);
    // Each decade holds a quarter of the robots.
    const decade = logs.filter((l) => l >= 1).length / N;
    expect(Math.abs(decade - 0.25)).toBeLessThan(0.015);
  });
});

describe('shards: which robots, and which shard this process is', () => {
  test('shards of any split cover every robot once, in order', () => {
    for (const [robots, count] of [
      [10, 3],
      [24, 3],
      [7, 7],
      [1000, 64],
      [5, 1],
    ]) {
      const covered: number[] = [];
      for (let index = 0; index < count; index++) {
        const { first, end } = shardRange(robots, { index, count });
        expect(end).toBeGreaterThan(first);
        for (let r = first; r < end; r++) covered.push(r);
      }
      expect(covered).toEqual(Array.from({ length: robots }, (_, r) => r));
    }
    expect(shardRange(10, { index: 1, count: 3 })).toEqual({ first: 3, end: 6 });
  });

  test('shard names sort in shard order and read back', () => {
    expect(shardName({ index: 3, count: 12 })).toBe('shard-03-of-12');
    expect(parseShardName('shard-03-of-12')).toEqual({ index: 3, count: 12 });
    expect(parseShardName('shard-3-of-12')).toBeNull();
    expect(parseShardName('shard-12-of-12')).toBeNull();
    expect(parseShardName('.shard-03-of-12.staging-1-x')).toBeNull();
  });

  test('--shard i/n: 0-based, and a bad value says what is allowed', () => {
    expect(parseShardFlag('2/5')).toEqual({ index: 2, count: 5 });
    expect(() => parseShardFlag('5/5')).toThrow(/the index must be 0\.\.4 \(shards are 0-based\)/);
    expect(() => parseShardFlag('2')).toThrow(/not of the form i\/n \(expected e\.g\. 0\/4/);
    expect(() => parseShardFlag('0/0')).toThrow(/at least 1/);
  });

  test("the scheduler's environment: Slurm array tasks and Kubernetes completion indices", () => {
    expect(chooseShard(undefined, {}, {})).toBeNull();
    // An array of its own: --array=0-3, or --array=1-4 (shards 0..3 either way).
    expect(chooseShard(undefined, {}, { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4' })).toMatchObject({ index: 2, count: 4 });
    expect(chooseShard(undefined, {}, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4' })).toMatchObject({
      index: 3,
      count: 4,
    });
    // With the count known, the task id is the shard: a lone retry (sbatch --array=2) is still shard 2.
    const retry = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '1', SLURM_ARRAY_TASK_MIN: '2', SLURM_ARRAY_TASK_MAX: '2' };
    expect(chooseShard(undefined, { flag: 4 }, retry)).toMatchObject({ index: 2, count: 4 });
    expect(chooseShard(undefined, { file: 4 }, retry)).toMatchObject({ index: 2, count: 4 });
    expect(() => chooseShard(undefined, { flag: 2 }, retry)).toThrow(/task 2 is not a shard of 2/);
    expect(() => chooseShard(undefined, {}, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_STEP: '2', SLURM_ARRAY_TASK_COUNT: '3' })).toThrow(
      /step 2/,
    );
    expect(() => chooseShard(undefined, {}, { SLURM_ARRAY_TASK_ID: 'x' })).toThrow(/SLURM_ARRAY_TASK_ID='x' is not a whole number/);
    // Kubernetes: the pod sees its index, never the Job's completions.
    expect(chooseShard(undefined, { flag: 3 }, { JOB_COMPLETION_INDEX: '1' })).toMatchObject({ index: 1, count: 3 });
    expect(() => chooseShard(undefined, {}, { JOB_COMPLETION_INDEX: '1' })).toThrow(/pass --shards N/);
    // --shard wins over the environment; it conflicts only with --shards.
    expect(chooseShard('0/2', { file: 4 }, { JOB_COMPLETION_INDEX: '1' })).toMatchObject({ index: 0, count: 2, source: '--shard' });
    expect(() => chooseShard('0/2', { flag: 4 }, {})).toThrow(/--shards says 4/);
  });
});
