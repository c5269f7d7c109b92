// Bounded work: an absurd step count is refused with the count; the memory a batch (and a run's
// records) needs is estimated before allocating, and work that will not fit is refused with the
// estimate and the free memory.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Batch, batchBytes } from '../src/engine/batch.js';
import { formatBytes, memoryProbe } from '../src/engine/memory.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');
const realFree = memoryProbe.free;
afterEach(() => {
  memoryProbe.free = realFree;
});

describe('step count', () => {
  test.each([
    // The flag's own range (src/engine/world-limits.ts) stops an absurd duration first, with the range.
    ['1e308', /--duration: 1e308 is out of range \(expected a number from 1e-9 to 10000000\)/],
    [
      '1e7',
      /--duration 10000000 s at dt 0\.002 s is 5\.00e\+9 steps; a run takes at most 1e\+9 steps: shorten --duration or lengthen --dt/,
    ],
  ])('--duration %s is refused before anything runs', async (duration, msg) => {
    const out = join(tempDir(), 'out');
    const r = await cli('run', DP, '--duration', duration, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
  });
});

describe('memory', () => {
  test("the estimate is the engine's own storage, byte for byte", () => {
    for (const name of ['arm7', 'humanoid-tree', 'spinning-box', 'domino-amplifier'])
      for (const [precision, lanes, copies] of [
        ['f32', 4, 37],
        ['f64', 1, 5],
        ['f64', 4, 100],
      ] as const) {
        const model = loadScene(join(SCENES, `${name}.arow`));
        const b = new Batch(model, { copies, precision, lanes });
        const native = (b as unknown as { native: { field(n: string): { length: number; BYTES_PER_ELEMENT: number } } }).native;
        const padded = (n: number) => Math.ceil(n / 64) * 64;
        const fields = [
          'q',
          'v',
          'tau',
          'qacc',
          'kinetic',
          'potential',
          'bodyPos',
          'bodyRot',
          'energyRef',
          'driftMax',
          'kineticPeak',
          'qaccWarm',
          'ctrl',
          'ctrlTarget',
          'actuatorForce',
          'bodyVel',
          'bodyAcc',
        ].map((f) => native.field(f));
        const elem = fields[0].BYTES_PER_ELEMENT;
        // The previous step's torques (nv per robot) are internal; a constrained scene adds the solver's warm
        // start qaccWarm (contacts are kept per block as detection finds them, not in the fields).
        const total = fields.reduce((s, f) => s + padded(f.length * elem), 0) + padded(b.nv * b.stride * elem);
        expect(batchBytes(model, copies, precision, lanes), `${name} ${precision} x${lanes}`).toBe(total);
      }
  });

  test('a batch that does not fit is refused before allocating, with the estimate and the free memory', () => {
    memoryProbe.free = () => 64 * 1024;
    const model = loadScene(join(SCENES, 'arm7.arow'));
    const need = formatBytes(batchBytes(model, 1000, 'f32', 8));
    expect(() => new Batch(model, { copies: 1000, precision: 'f32', lanes: 8 })).toThrow(
      `a batch of 1000 arm7 robots in f32 needs about ${need}, but only 64.0 KiB of memory is free; use fewer copies`,
    );
  });

  test('a run that will not fit is refused before simulating and writes nothing', async () => {
    memoryProbe.free = () => 1024 * 1024;
    const out = join(tempDir(), 'out');
    const r = await cli('run', DP, '--copies', '64', '--robots', '0,1,2,3', '--record', '1', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /this run \(64 robots, 5001 records of 4\) needs about [\d.]+ MiB, but only 1\.00 MiB of memory is free; use fewer --copies, record fewer --robots, or record less often/,
    );
    expect(r.stderr).not.toContain('Ctrl-C stops');
  });
});
