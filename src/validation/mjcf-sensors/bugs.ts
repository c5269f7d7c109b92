// The planted bugs of the MJCF sensor evaluation (engine/mjcf-sensors.ts MjcfSensorBug), switched in
// this process by the validation suite's sweep; the mjcf-sensors stage must catch each.

import type { MjcfSensorBug } from '../../engine/mjcf-sensors.js';

/** The host's planted bug (engine/mjcf-sensors.ts), swept through this stage alone. */
export const MJCF_SENSOR_BUGS: readonly MjcfSensorBug[] = ['mjcf-sensor-touch-zone-ignored'];
/** The engine's planted bugs in its sensor pass (native bugs.hpp Mjcf*), swept with the bug build. */
export const MJCF_SENSOR_NATIVE_BUGS: readonly string[] = [
  'mjcf-sensor-gyro-world-frame',
  'mjcf-sensor-framequat-unnormalised',
  'mjcf-sensor-cutoff-ignored',
  'mjcf-sensor-subtreecom-own-body',
  'mjcf-sensor-accelerometer-no-coriolis',
];

let current: MjcfSensorBug | undefined;

/** 'none' (or any name not listed) switches the bugs off. */
export function setMjcfSensorBug(name: string): void {
  current = (MJCF_SENSOR_BUGS as readonly string[]).includes(name) ? (name as MjcfSensorBug) : undefined;
}

export function mjcfSensorBug(): MjcfSensorBug | undefined {
  return current;
}
