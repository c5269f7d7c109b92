// What goes wrong with a controller, as errors that name the controller, and where in the run.
//
// Each stops a run with exit 1 and nothing written (src/run/index.ts), like a non-finite state:
// the rest of the trace would not show what the scene means.

/** Where in the run: the step about to be taken and its time. */
export interface ControlMoment {
  step: number;
  time: number;
}

const at = (m: ControlMoment): string => `step ${m.step} (t = ${m.time.toFixed(6)} s)`;

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

/** MuJoCo's bound on a good number (mjMAXVAL): its mju_isBad calls NaN and any magnitude above it bad. */
export const MAX_CONTROL = 1e10;

/** The one rule for a control, in every door (controllers, Batch.step in TypeScript and Python, the
 *  native step, the Gym envs): bad when NaN or of magnitude above 1e10, ±Infinity included (MuJoCo's
 *  mju_isBad, as mj_fwdActuation applies it; MuJoCo 3.14 also rejects a finite |u| > 1e10). */
export function isBadControl(u: number): boolean {
  return !(Math.abs(u) <= MAX_CONTROL);
}

/** A control was bad (isBadControl: NaN, ±Infinity or |u| > 1e10): written by a controller, or found
 *  by Batch.step before its first step (`controller` undefined; nothing was stepped). Checked before
 *  the engine clamps it to the actuator's ctrlrange, which would turn NaN into a bound and hide it. */
export class NonFiniteControlError extends Error {
  readonly controller: string | undefined;
  readonly actuator: string;
  readonly robot: number;
  readonly step: number;
  readonly time: number;
  readonly value: number;
  constructor(controller: string | undefined, actuator: string, robot: number, value: number, moment: ControlMoment) {
    const what =
      controller === undefined
        ? `robot ${robot}'s control of actuator '${actuator}' is ${value} at ${at(moment)}; nothing was stepped`
        : `controller ${controller} wrote ${value} into actuator '${actuator}' of robot ${robot} at ${at(moment)}`;
    super(
      `${what} (a control must be a finite number of magnitude at most 1e10, MuJoCo's mjMAXVAL;` +
        ' check what it was computed from, e.g. a sensor reading or a division)',
    );
    this.name = 'NonFiniteControlError';
    this.controller = controller;
    this.actuator = actuator;
    this.robot = robot;
    this.step = moment.step;
    this.time = moment.time;
    this.value = value;
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
