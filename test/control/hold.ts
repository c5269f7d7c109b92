// A test controller: every robot's shoulder motor pushes with 1 + robot index; at 50 Hz.
import type { ControlIO } from '../../src/control/controller.js';
export default {
  rate: 50,
  update(io: ControlIO) {
    for (let r = 0; r < io.copies; r++) io.ctrl[r] = 1 + r;
  },
};
