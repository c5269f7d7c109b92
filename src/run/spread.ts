// `achilles run --spread RAD`: the offsets live in the engine (engine/spread.ts), one layer down, so
// that `achilles bench --spread` gives its robots (and MuJoCo's) the very same starts.
export { applySpread, spreadRobot, unitOffset } from '../engine/spread.js';
