// Planted bugs of per-robot model parameters: each a plausible mistake in drawing a robot's parameters
// or writing them into its model, switched on by name so that `achilles validate --stage params` shows
// its gate catching every one (the TypeScript twin of native/include/achilles/bugs.hpp). Off unless the
// validation's bug sweep sets one.

export const PARAMETER_BUGS = [
  /** Robot r runs with the model parameters drawn for robot r + 1 (its neighbour in a batch). The
   *  engine's own twin, native `params-neighbour-lane`, writes a robot's per-lane constants into the
   *  next lane. */
  'params-neighbour-robot',
  /** mass_scale scales the mass (and so the first moment) but leaves the rotational inertia as it was. */
  'params-mass-without-inertia',
  /** The draw is keyed by the robot index combined with the lane width: the same robot draws other
   *  values at 8 or 16 lanes than at 1. */
  'params-draw-lane-width',
] as const;
export type ParameterBug = (typeof PARAMETER_BUGS)[number];

let active: ParameterBug | 'none' = 'none';

/** Selects one planted parameter bug, or 'none' (the validation sweep only). */
export function setParameterBug(name: ParameterBug | 'none'): void {
  if (name !== 'none' && !(PARAMETER_BUGS as readonly string[]).includes(name))
    throw new Error(`unknown parameter bug '${name}' (${PARAMETER_BUGS.join(', ')})`);
  active = name;
}

export const parameterBug = (name: ParameterBug): boolean => active === name;
