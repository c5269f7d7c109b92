// MuJoCo's side of the equality stage: the contact stages' bridge (validation/mujoco_contact.py reads
// equality rows too: efc type 0, named after the constraint).
export { initialState, mujocoConstraints, mujocoRollout, type RolloutAnswer } from '../contact/mujoco.js';
