// Every planted bug names the stages whose gates catch it (src/validation/bug-targets.ts): a subset
// of the suite is judged only on the bugs its stages target, so the table must list every bug.
import { describe, expect, it } from 'vitest';
import { bugAddon } from '../src/engine/native.js';
import { IMPORT_BUGS } from '../src/model-files/import/bugs.js';
import { PARAMETER_BUGS } from '../src/params/bugs.js';
import { SENSOR_BUGS } from '../src/sensors/planted-bugs.js';
import { MJCF_SENSOR_BUGS } from '../src/validation/mjcf-sensors/bugs.js';
import { BUG_TARGETS, bugTargets, tableMismatches, targetedBy } from '../src/validation/bug-targets.js';
import { STAGES, type StageName } from '../src/validation/types.js';

describe('planted bugs and the stages that target them', () => {
  it('the table lists exactly the planted bugs (native, sensors, MJCF sensors, importer, parameters), each with real stages', () => {
    const planted = [...bugAddon().plantedBugs!(), ...SENSOR_BUGS, ...MJCF_SENSOR_BUGS, ...IMPORT_BUGS, ...PARAMETER_BUGS];
    expect(Object.keys(BUG_TARGETS).sort()).toEqual([...planted].sort());
    for (const [bug, stages] of Object.entries(BUG_TARGETS)) {
      expect(stages.length, bug).toBeGreaterThan(0);
      for (const s of stages) expect(STAGES, `${bug}: ${s}`).toContain(s);
    }
  });

  it('a run targets a bug when it runs one of its stages; a bug the table lacks is targeted by every stage', () => {
    expect(targetedBy('hinge-sign', new Set<StageName>(['collision']))).toBe(false);
    expect(targetedBy('collision-normal-flipped', new Set<StageName>(['collision']))).toBe(true);
    expect(bugTargets('no-such-bug')).toBeUndefined();
    expect(bugTargets('constructor')).toBeUndefined(); // not an Object.prototype key
    expect(targetedBy('no-such-bug', new Set<StageName>(['energy']))).toBe(true);
  });

  it('a full run names a declared stage that did not catch its bug', () => {
    expect(tableMismatches(new Map([['collision-box-axis-swapped', ['collision', 'import', 'contact'] as StageName[]]]))).toEqual([]);
    expect(tableMismatches(new Map([['collision-box-axis-swapped', ['import'] as StageName[]]]))).toEqual([
      'collision-box-axis-swapped (declared collision)',
    ]);
  });
});
