"""Gymnasium's MuJoCo tasks on the Achilles engine: `make_vec(env_id, num_envs, ...)`."""

from .task import load_task, task_ids
from .vector import AchillesVectorEnv, BadControlWarning, make_vec

__all__ = ["AchillesVectorEnv", "BadControlWarning", "load_task", "make_vec", "task_ids"]
