// Adding a validation stage is one folder (src/validation/<name>/definition.ts) and one line in
// src/validation/registry.ts: the registry and the folders must agree, and together the stages must
// produce exactly the gates `validate --stage` offers.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VALIDATION_STAGES } from '../src/validation/registry.js';
import { STAGES } from '../src/validation/types.js';
import { bugTargets } from '../src/validation/bug-targets.js';

const ROOT = join(import.meta.dirname, '..', 'src', 'validation');

describe('the validation stage registry', () => {
  it('every folder of src/validation/ is a registered stage of that name with a definition.ts, and every stage has its folder', () => {
    const folders = readdirSync(ROOT, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const names = VALIDATION_STAGES.map((s) => s.name);
    expect(new Set(names).size, 'stage names are unique').toBe(names.length);
    expect([...names].sort()).toEqual(folders);
    for (const f of folders) expect(existsSync(join(ROOT, f, 'definition.ts')), `${f}/definition.ts`).toBe(true);
  });

  it('the stages produce exactly the gates of STAGES (the --stage choices), and each declares catches only for its own gates', () => {
    const gates = new Set(VALIDATION_STAGES.flatMap((s) => s.gates));
    expect([...gates].sort()).toEqual([...STAGES].sort());
    for (const s of VALIDATION_STAGES) {
      for (const g of Object.keys(s.catches)) expect(s.gates, `${s.name} declares catches for ${g}`).toContain(g);
      expect(s.precisions.length, s.name).toBeGreaterThan(0);
    }
  });

  it('a bug declared by two stages lists each gate once, in STAGES order', () => {
    // hinge-sign is declared by the per-state, trajectory, energy, exact, contact, actuators, general-actuators and import stages
    const t = bugTargets('hinge-sign')!;
    expect(t).toEqual(STAGES.filter((g) => t.includes(g)));
    expect(new Set(t).size).toBe(t.length);
    expect(t).toEqual([
      'kinematics',
      'mass-matrix',
      'bias',
      'forward',
      'step',
      'trajectory',
      'energy',
      'exact',
      'contact',
      'contact-trajectory',
      'actuators',
      'passive',
      'general-actuators',
      'import',
    ]);
  });
});
