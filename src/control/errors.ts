// What goes wrong with a controller, as errors that name the controller, and where in the run.
//
// Each stops a run with exit 1 and nothing written (src/run/index.ts), like a non-finite state:
// the rest of the trace would not show what the scene means.

export type { ControlMoment } from '../engine/control-errors.js';
export { MAX_CONTROL, NonFiniteControlError, isBadControl } from '../engine/control-errors.js';
import { at, type ControlMoment } from '../engine/control-errors.js';

/** The controller's init() or update() threw. */
export class ControllerError extends Error {
  readonly controller: string;
  readonly step: number;
  readonly time: number;
  constructor(controller: string, phase: 'init' | 'update', moment: ControlMoment, cause: unknown, frame: string | undefined) {
    const what = cause instanceof Error ? `${cause.name === 'Error' ? '' : `${cause.name}: `}${cause.message}` : String(cause);
    super(`controller ${controller} threw in ${phase}() at ${at(moment)}: ${what}${frame ? `\n    at ${frame}` : ''}`, { cause });
    this.name = 'ControllerError';
    this.controller = controller;
    this.step = moment.step;
    this.time = moment.time;
  }
}

/** The scene names a controller module, and the caller did not allow running it: opening a scene
 *  must not run code the user did not ask for. */
export class ControllerNotAllowedError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`the scene names a controller module, ${path}, which runs code; it runs only when allowed`);
    this.name = 'ControllerNotAllowedError';
    this.path = path;
  }
}
