// What a scene says about its controller: a module to load, or the built-in PD controller.
// Data only, carried by ModelDesc.controller: the engine never runs it (src/control/ does;
// the scene reader src/model-files/scene/actuation.ts writes it).

/** A PD target over time: constant, a sine, or a table read from a CSV file at load (linear
 *  interpolation between rows, held at the ends). */
export type TargetSpec =
  | { kind: 'constant'; value: number }
  | { kind: 'sine'; amplitude: number; frequency: number; phase: number; offset: number }
  | { kind: 'table'; file: string; column: string; times: number[]; values: number[] };

/** One PD term: drives actuator `actuator` (index into ModelDesc.actuators). A motor gets
 *  ctrl = kp·(target − ℓ) − kd·ℓ̇ with ℓ = g·q, ℓ̇ = g·q̇ (its length and velocity); a position
 *  servo gets ctrl = target (its own kp, kv do the rest). */
export interface PdTermSpec {
  actuator: number;
  kp: number;
  kd: number;
  target: TargetSpec;
}

export type ControllerSpec =
  /** A module (.ts or .js), path resolved against the scene's directory. */
  | { kind: 'module'; path: string }
  /** The built-in PD controller; `rate` in Hz (absent: every step). */
  | { kind: 'pd'; rate?: number; terms: PdTermSpec[] };
