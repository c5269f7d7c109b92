// The Gymnasium tasks the engine runs, by id: the list the task-file and vector-env tests check
// against Gymnasium's own envs (each test's reference script is fed it, so the two cannot drift).
export const GYM_TASKS = [
  'InvertedPendulum-v5',
  'InvertedDoublePendulum-v5',
  'Hopper-v5',
  'HalfCheetah-v5',
  'Walker2d-v5',
  'Ant-v5',
  'Humanoid-v5',
  'HumanoidStandup-v5',
  'Reacher-v5',
  'Pusher-v5',
  'Swimmer-v5',
];
