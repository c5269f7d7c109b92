// A bad control (NaN, ±Infinity or |u| > 1e10): the rule every door applies and the error it raises.
// In the engine's room because Batch.step refuses such a control before its first step; the
// controllers (src/control) apply the same rule to what they write and re-export it from there.

/** Where in the run: the step about to be taken and its time. */
export interface ControlMoment {
  step: number;
  time: number;
}

/** A moment as errors write it: `step 12 (t = 0.012000 s)`. */
export const at = (m: ControlMoment): string => `step ${m.step} (t = ${m.time.toFixed(6)} s)`;

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
