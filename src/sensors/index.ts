// Sensors: encoders, IMUs and cameras read from the engine's state after every step, with seeded
// per-robot noise (see bank.ts for the models, rng.ts for the streams).
export { SensorBank, sensorChannels, type BodyMotion, type SensedBatch, type SensorOptions } from './bank.js';
export { SensorReadings } from './readings.js';
export { lowPassPole, lowPassGain, cutoffOfPole } from './filter.js';
export { readSensors, SENSOR_KINDS } from '../model-files/scene/sensors.js';
