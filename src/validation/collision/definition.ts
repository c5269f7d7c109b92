// Stage 9: collision detection against exact distances and MuJoCo's contacts on random shape pairs,
// MuJoCo's pair filter on every model with shapes, and the batch path of detection (the machinery:
// stage.ts, filter.ts, batch-check.ts beside this file).

import { PRECISIONS } from '../../engine/api.js';
import { engineAddon } from '../../engine/native.js';
import type { NamedModel } from '../models.js';
import type { ValidationStage } from '../validation-stage.js';
import { batchCheckReference, batchCheckRows, type BatchCheckReference } from './batch-check.js';
import { filterRulesModel } from './filter.js';
import { collisionReference, collisionRows, engineContacts, filterRows, scatterPoints, type CollisionReference } from './stage.js';

interface CollisionStageReference {
  pairs: CollisionReference;
  /** Models whose candidate pairs are checked against MuJoCo's filter rules. */
  filterModels: NamedModel[];
  /** The batch path of detection (batch.collide()) at random states of a pile of shapes. */
  batch: BatchCheckReference;
}

export const collisionStage: ValidationStage<CollisionStageReference> = {
  name: 'collision',
  description: 'Collision pairs against exact distances and MuJoCo, the pair filter, and the batch path of detection',
  gates: ['collision'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    collision: [
      'collision-normal-flipped',
      'collision-radius-dropped',
      'collision-box-axis-swapped',
      'collision-margin-ignored',
      'collision-manifold-clip',
      'collision-filtered-pair-kept',
      'collision-broad-phase-first-lane',
      // the convex collider (GJK/EPA), on the stage's cylinder, ellipsoid and convex-hull pairs
      'convex-epa-normal-sign',
      'convex-box-support-corner-sign',
    ],
  },
  async reference(ctx) {
    ctx.log('reference: collision pairs (exact, float32 floors, MuJoCo)');
    const pairs = collisionReference(ctx.python, ctx.seed);
    pairs.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
    const filterModels = [{ name: 'filter-rules', model: filterRulesModel() }, ...ctx.all.filter((m) => m.model.shapes?.length)];
    const batch = batchCheckReference(ctx.seed);
    return { pairs: await pairs, filterModels, batch };
  },
  prepareReport(ref, result) {
    // The scatter of reported against exact distances, ours (the normal engine) and MuJoCo's.
    const ours = Object.fromEntries(
      PRECISIONS.map((p) => {
        try {
          return [p, engineContacts(engineAddon(), ref.pairs.pairs, p)];
        } catch {
          return [p, undefined];
        }
      }),
    );
    result.collision = { pairs: ref.pairs.pairs.length, scatter: scatterPoints(ref.pairs, ours), refused: ref.pairs.refused };
  },
  rows(ref, ctx) {
    return [
      ...collisionRows(ref.pairs, ctx.precision, ctx.addon),
      ...filterRows(ref.filterModels, ctx.precision, ctx.addon),
      ...batchCheckRows(ref.batch, ctx.precision, ctx.addon),
    ];
  },
};
