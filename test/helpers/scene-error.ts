// The SceneError a call throws (the test fails when it throws none, or another kind of error).
import { expect } from 'vitest';
import { SceneError } from '../../src/model-files/scene/index.js';

export function sceneError(f: () => unknown): SceneError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}
