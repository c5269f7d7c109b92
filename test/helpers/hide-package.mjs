// `node --import ./test/helpers/hide-package.mjs`: the package named by ACHILLES_HIDE_PACKAGE cannot be
// imported (as if it were not installed), so a test can see what a command says without an optional
// dependency that this machine has (run --policy without onnxruntime-node).
import { register } from 'node:module';

const hidden = process.env.ACHILLES_HIDE_PACKAGE;
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(hidden)}) {
    const e = new Error("Cannot find package '" + specifier + "' (hidden by test/helpers/hide-package.mjs)");
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}`;
if (hidden) register(`data:text/javascript,${encodeURIComponent(hooks)}`);
