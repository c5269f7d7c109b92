// The planted bugs of the MJCF sensor evaluation (engine/mjcf-sensors.ts MjcfSensorBug), switched in
// this process by the validation suite's sweep; the mjcf-sensors stage must catch each.

import type { MjcfSensorBug } from '../../engine/mjcf-sensors.js';

export const MJCF_SENSOR_BUGS: readonly MjcfSensorBug[] = [
  'mjcf-sensor-gyro-world-frame',
  'mjcf-sensor-framequat-unnormalised',
  'mjcf-sensor-cutoff-ignored',
  'mjcf-sensor-subtreecom-own-body',
  'mjcf-sensor-accelerometer-no-coriolis',
  'mjcf-sensor-touch-zone-ignored',
];

let current: MjcfSensorBug | undefined;

/** 'none' (or any name not listed) switches the bugs off. */
export function setMjcfSensorBug(name: string): void {
  current = (MJCF_SENSOR_BUGS as readonly string[]).includes(name) ? (name as MjcfSensorBug) : undefined;
}

export function mjcfSensorBug(): MjcfSensorBug | undefined {
  return current;
}
