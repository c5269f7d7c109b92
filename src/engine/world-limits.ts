// The one table of limits on world settings, shared by the CLI flags (src/cli/run-command.ts),
// scene files and sim_config files (src/model-files/scene/), and the Batch API: a value a flag refuses is
// refused in a file too, with the same words.

export interface NumberLimit {
  min: number;
  max: number;
  integer?: boolean;
}

export const WORLD_LIMITS = {
  /** Step length (s): 1 ns to 1 s. Longer steps than a second do not resolve any robot's motion. */
  dt: { min: 1e-9, max: 1 },
  /** Simulated time (s): up to about 116 days. The step count it implies is checked by the run. */
  duration: { min: 1e-9, max: 1e7 },
  /** Substeps per step. */
  substeps: { min: 1, max: 1_000_000, integer: true },
} as const satisfies Record<string, NumberLimit>;

/** The allowed values in words, as the CLI states them: "an integer from 1 to 1000000". */
export function limitText(l: NumberLimit): string {
  return `${l.integer ? 'an integer' : 'a number'} from ${l.min} to ${l.max}`;
}

/** Whether `x` obeys the limit. */
export function withinLimit(x: number, l: NumberLimit): boolean {
  return Number.isFinite(x) && x >= l.min && x <= l.max && (!l.integer || Number.isInteger(x));
}

/** Links in one robot. Beyond LARGE, loading warns (and shows progress on a terminal); beyond MAX
 *  (reachable through a raw archetype's `copies`) a scene is refused before anything is built. */
export const SCENE_LINKS = { large: 1000, max: 50_000 } as const;
