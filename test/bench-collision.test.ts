// `achilles bench --vs mujoco` on a scene with shapes adds detection cells (Achilles collide() and
// its whole step with detection, MuJoCo mj_collision); a scene without shapes gets none. Tiny
// budget: checks the cells exist with positive rates and ratios, never speed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileAsync } from './helpers/spawn-async.js';
import { benchCommand } from '../src/cli/bench-command.js';
import { mujocoAddonPath } from '../src/bench/mujoco-native.js';

const out = mkdtempSync(join(tmpdir(), 'achilles-bench-collision-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(async () => {
  if (!existsSync(mujocoAddonPath())) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    // A build of minutes: awaited, so the worker's event loop keeps turning (issue 23).
    await execFileAsync(process.execPath, ['scripts/find-mujoco.mjs', '--build'], { cwd: root, stdio: 'inherit' });
  }
}, 300_000);

interface Row {
  robots: string;
  vsMujocoNewton?: number;
  vsMujocoCg20?: number;
  engine: string;
  scene: string;
  measure?: string;
  robotStepsPerSec: number;
  vsMujoco?: number;
  contactsPerCall?: number;
  nonFiniteRobotSteps: number;
}

async function benchJson(scene: string): Promise<Row[]> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await benchCommand.run([], {
      scene: [scene],
      copies: [1, 4],
      lanes: ['1'],
      precision: ['f64'],
      vs: 'mujoco',
      budget: 0.01,
      reps: 2,
      json: true,
      out,
      force: true,
    });
    expect(code).toBe(0);
  } finally {
    spy.mockRestore();
    spyErr.mockRestore();
  }
  return (JSON.parse(stdout) as { results: Row[] }).results;
}

describe('bench detection cells', () => {
  it('times detection and the whole step beside mj_collision for the domino scene', async () => {
    const rows = await benchJson('scenes/domino-amplifier.arow');
    // A contact scene is timed with robots that differ and in lockstep (issue 25): the same cells each.
    const kinds = (rs: Row[]) => rs.map((r) => `${r.engine}/${r.measure}`);
    expect(kinds(rows.filter((r) => r.robots === 'lockstep'))).toEqual(kinds(rows.filter((r) => r.robots === 'differ')));
    const cells = (engine: string, measure: string | undefined) =>
      rows.filter((r) => r.engine === engine && r.measure === measure && r.robots === 'differ');
    // copies 1 and 4: one cell each
    expect(cells('achilles', 'detect')).toHaveLength(2);
    expect(cells('achilles', 'step+detect')).toHaveLength(2);
    expect(cells('mujoco-per-robot', 'detect')).toHaveLength(2);
    // the plain step cells are still there, unchanged in kind
    expect(cells('achilles', undefined)).toHaveLength(2);
    expect(cells('mujoco-per-robot', undefined)).toHaveLength(2);
    expect(cells('mujoco-merged', undefined)).toHaveLength(2);
    for (const r of rows) {
      expect(r.robotStepsPerSec).toBeGreaterThan(0);
      expect(r.nonFiniteRobotSteps).toBe(0);
    }
    for (const r of [...cells('achilles', 'detect'), ...cells('achilles', 'step+detect')]) expect(r.vsMujoco).toBeGreaterThan(0);
    // MuJoCo's step with contacts on, with its default Newton solver and with CG capped at 20, beside Achilles' step
    expect(cells('mujoco-newton', undefined)).toHaveLength(2);
    expect(cells('mujoco-cg20', undefined)).toHaveLength(2);
    for (const r of cells('achilles', undefined)) {
      expect(r.vsMujocoNewton).toBeGreaterThan(0);
      expect(r.vsMujocoCg20).toBeGreaterThan(0);
    }
    // MuJoCo's detection did work: the dominoes stand on the ground, so contacts are found.
    for (const r of cells('mujoco-per-robot', 'detect')) expect(r.contactsPerCall).toBeGreaterThan(0);
  }, 120_000);

  it('adds no detection cells for a scene without shapes', async () => {
    const rows = await benchJson('scenes/arm7.arow');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.measure !== undefined)).toEqual([]);
  }, 120_000);
});
