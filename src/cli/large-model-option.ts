// --yes for the commands that read a model file: an MJCF model that replicates into more bodies
// than MODEL_LIMITS allows is refused with its estimate at the <replicate> unless the user says so
// (src/model-files/import/mjcf/model-size.ts). One spec, so every command's help says the same.

import { MODEL_LIMITS } from '../model-files/import/mjcf/model-size.js';
import type { OptionSpec } from '../util/command-spec.js';

export const largeModelOption: OptionSpec = {
  name: 'yes',
  kind: { type: 'boolean' },
  description: `Read an MJCF model whose <replicate>s make more than ${MODEL_LIMITS.bodies.toLocaleString('en-US')} bodies. Without it such a model is refused at its <replicate> with an estimate of the time and memory it takes.`,
};
