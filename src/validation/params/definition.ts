// Stage 16: per-robot model parameters (domain randomization): a randomized robot's trace is
// bit-identical to the scene with its drawn values written in as constants, whether it runs in a batch
// of its own or with other robots, one per lane (the machinery: stage.ts and lanes.ts beside this
// file). Its planted bugs are TypeScript's (src/params/bugs.ts) and the engine's params-neighbour-lane
// (a robot's per-lane constants written into the next lane) and params-constraint-lane-zero (every
// lane's frictions and inverse weights read from lane 0's robot), which the bug build's sweep runs it for.

import { PRECISIONS } from '../../engine/api.js';
import { PARAMETER_BUGS, setParameterBug, type ParameterBug } from '../../params/bugs.js';
import type { ValidationStage } from '../validation-stage.js';
import { paramsRows } from './stage.js';

export const paramsStage: ValidationStage<null> = {
  name: 'params',
  description:
    'A robot with drawn model parameters against the scene with its values written in, bit for bit, at every lane width and thread count',
  gates: ['params'],
  precisions: PRECISIONS,
  // its own scenarios (constants.ts: every kind of parameter drawn): a --model subset skips it
  underModelSubset: false,
  bugBuild: true,
  catches: {
    params: [...PARAMETER_BUGS, 'params-neighbour-lane', 'params-constraint-lane-zero'],
  },
  ownBugs: { names: PARAMETER_BUGS, set: (name) => setParameterBug(name as ParameterBug | 'none'), listedWhenNotRun: true },
  rows: (_ref, ctx) => paramsRows(ctx.precision, ctx.addon, ctx.seed),
};
