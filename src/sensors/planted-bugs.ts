// Planted sensor bugs: the TypeScript twin of native/include/achilles/bugs.hpp. The sensors run in
// TypeScript, so there is no separate build to hide them in; instead the switch below is set only by
// the validation's planted-bug sweep (src/validation/sensors/), which always sets it back to 'none'
// in a finally block. Nothing else imports `setPlantedSensorBug` (a test checks that), and no flag or
// environment variable reaches it.

export const SENSOR_BUGS = [
  /** camera: a frame becomes visible one step before its latency has passed */
  'sensor-latency-off-by-one',
  /** streams: the 8 robots of one SIMD block draw the same noise (seeded by block, not robot) */
  'noise-stream-shared-between-lanes',
] as const;
export type SensorBug = (typeof SENSOR_BUGS)[number];

let planted: SensorBug | 'none' = 'none';

export function plantedSensorBug(): SensorBug | 'none' {
  return planted;
}

/** Only for the validation's planted-bug sweep. */
export function setPlantedSensorBug(bug: SensorBug | 'none'): void {
  if (bug !== 'none' && !SENSOR_BUGS.includes(bug))
    throw new Error(`unknown sensor bug '${String(bug)}' (known: ${SENSOR_BUGS.join(', ')})`);
  planted = bug;
}
