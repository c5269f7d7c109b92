#!/usr/bin/env python3
"""PPO in one file (PyTorch, CPU), on Gymnasium's MuJoCo tasks stepped by Achilles, exporting the
policy to ONNX for `achilles run MODEL --policy policy.onnx --task ENV`.

  python3 examples/ppo.py --env InvertedPendulum-v5 --steps 100000 --out policy.onnx
  python3 examples/ppo.py --backend gymnasium ...        # the same training on Gymnasium's own envs

The algorithm is the usual clipped-surrogate PPO for continuous actions (Schulman et al. 2017, as in
CleanRL's ppo_continuous_action): a Gaussian policy with a state-independent log-std, GAE(λ),
minibatch epochs, advantage normalisation, gradient clipping. Vector envs reset themselves on the
step after an episode ends (Gymnasium 1.x's next-step autoreset): that step's transition is not a
real one and is left out of the loss; a truncated episode bootstraps from its final observation.
Seeded: the same seed gives the same run, whatever the thread count.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np
import torch
from torch import nn


def make_env(backend: str, env_id: str, num_envs: int, precision: str, threads: int):
    if backend == "achilles":
        from achilles.gym import make_vec

        return make_vec(env_id, num_envs, precision=precision, threads=threads)
    import gymnasium

    return gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync")


class Agent(nn.Module):
    def __init__(self, obs_dim: int, act_dim: int, hidden: int = 64):
        super().__init__()

        def layer(i, o, std=np.sqrt(2)):
            lin = nn.Linear(i, o)
            nn.init.orthogonal_(lin.weight, std)
            nn.init.constant_(lin.bias, 0.0)
            return lin

        self.critic = nn.Sequential(layer(obs_dim, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(obs_dim, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, act_dim, 0.01))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def value(self, obs):
        return self.critic(obs).squeeze(-1)

    def act(self, obs, action=None):
        mean = self.actor(obs)
        dist = torch.distributions.Normal(mean, self.log_std.exp().expand_as(mean))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action).sum(-1), dist.entropy().sum(-1), self.value(obs)


def export_onnx(agent: Agent, low: np.ndarray, high: np.ndarray, path: str, meta: dict) -> None:
    """The deterministic policy (the actor's mean, clipped to the action range) as an ONNX graph of
    Gemm and Tanh nodes: input `obs` [batch, obs_dim] float32, output `action` [batch, act_dim]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    lin = [m for m in agent.actor if isinstance(m, nn.Linear)]
    nodes, inits, x = [], [], "obs"
    for i, m in enumerate(lin):
        inits += [numpy_helper.from_array(m.weight.detach().numpy().astype(np.float32), f"W{i}"),
                  numpy_helper.from_array(m.bias.detach().numpy().astype(np.float32), f"b{i}")]
        nodes.append(helper.make_node("Gemm", [x, f"W{i}", f"b{i}"], [f"z{i}"], transB=1))
        x = f"z{i}"
        if i < len(lin) - 1:
            nodes.append(helper.make_node("Tanh", [x], [f"h{i}"]))
            x = f"h{i}"
    inits += [numpy_helper.from_array(low.astype(np.float32), "low"), numpy_helper.from_array(high.astype(np.float32), "high")]
    nodes += [helper.make_node("Max", [x, "low"], ["lo"]), helper.make_node("Min", ["lo", "high"], ["action"])]
    obs_dim, act_dim = lin[0].in_features, lin[-1].out_features
    graph = helper.make_graph(
        nodes, "policy",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", obs_dim])],
        [helper.make_tensor_value_info("action", TensorProto.FLOAT, ["batch", act_dim])],
        inits,
    )
    # IR 8 with opset 13: what onnxruntime (Python and onnxruntime-node) of the last years all load
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8, producer_name="achilles examples/ppo.py")
    for k, v in meta.items():
        model.metadata_props.append(onnx.StringStringEntryProto(key=k, value=str(v)))
    onnx.checker.check_model(model)
    onnx.save(model, path)


def train(a) -> dict:
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)  # the same numbers whatever the machine's core count
    np_rng = np.random.default_rng(a.seed)
    envs = make_env(a.backend, a.env, a.num_envs, a.precision, a.threads)
    obs_dim = envs.single_observation_space.shape[0]
    act_dim = envs.single_action_space.shape[0]
    low, high = envs.single_action_space.low, envs.single_action_space.high
    agent = Agent(obs_dim, act_dim)
    opt = torch.optim.Adam(agent.parameters(), lr=a.lr, eps=1e-5)
    N, T = a.num_envs, a.rollout
    obs_b = torch.zeros((T, N, obs_dim))
    act_b = torch.zeros((T, N, act_dim))
    logp_b = torch.zeros((T, N))
    rew_b = torch.zeros((T, N))
    done_b = torch.zeros((T, N))
    val_b = torch.zeros((T, N))
    valid_b = torch.zeros((T, N))

    obs_np, _ = envs.reset(seed=a.seed)
    digest, digested = hashlib.sha256(np.ascontiguousarray(obs_np, dtype=np.float64).tobytes()), 0
    obs = torch.as_tensor(obs_np, dtype=torch.float32)
    pending_reset = np.zeros(N, dtype=bool)
    ep_ret, ep_len = np.zeros(N), np.zeros(N, dtype=np.int64)
    returns: list[float] = []
    steps, updates, t0 = 0, 0, time.time()
    reached_at = None
    total_updates = max(1, a.steps // (N * T))  # never more env steps than --steps
    while updates < total_updates:
        lr_now = a.lr * (1.0 - updates / total_updates)
        for g in opt.param_groups:
            g["lr"] = lr_now
        for t in range(T):
            with torch.no_grad():
                action, logp, _, value = agent.act(obs)
            obs_b[t], act_b[t], logp_b[t], val_b[t] = obs, action, logp, value
            valid_b[t] = torch.as_tensor(~pending_reset, dtype=torch.float32)
            env_action = np.clip(action.numpy(), low, high).astype(np.float32)
            next_obs, reward, terminated, truncated, _ = envs.step(env_action)
            steps += int((~pending_reset).sum())
            if digested < a.digest_steps:  # the observations of the first env steps, to compare runs bit for bit
                digest.update(np.ascontiguousarray(next_obs, dtype=np.float64).tobytes())
                digested += N
            r = np.where(pending_reset, 0.0, reward)
            next_t = torch.as_tensor(next_obs, dtype=torch.float32)
            ended = (terminated | truncated) & ~pending_reset
            if np.any(truncated & ~terminated & ~pending_reset):
                with torch.no_grad():  # a time limit is not a failure: bootstrap from the final state
                    boot = agent.value(next_t).numpy()
                r = r + a.gamma * np.where(truncated & ~terminated & ~pending_reset, boot, 0.0)
            rew_b[t] = torch.as_tensor(r, dtype=torch.float32)
            done_b[t] = torch.as_tensor(ended, dtype=torch.float32)
            ep_ret += np.where(pending_reset, 0.0, reward)
            ep_len += ~pending_reset
            for i in np.flatnonzero(ended):
                returns.append(float(ep_ret[i]))
                ep_ret[i], ep_len[i] = 0.0, 0
            pending_reset = ended
            obs = next_t
        with torch.no_grad():  # GAE(λ); a transition that ended an episode does not look past it
            next_value = agent.value(obs)
            adv = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else val_b[t + 1]
                nonterminal = 1.0 - done_b[t]
                # the step after an end is the autoreset's: its value must not leak backwards
                nonterminal = nonterminal * (valid_b[t + 1] if t < T - 1 else torch.as_tensor(~pending_reset, dtype=torch.float32))
                delta = rew_b[t] + a.gamma * nv * nonterminal - val_b[t]
                last = delta + a.gamma * a.lam * nonterminal * last
                adv[t] = last
            ret = adv + val_b
        b_obs, b_act, b_logp = obs_b.reshape(-1, obs_dim), act_b.reshape(-1, act_dim), logp_b.reshape(-1)
        b_adv, b_ret, b_val, b_valid = adv.reshape(-1), ret.reshape(-1), val_b.reshape(-1), valid_b.reshape(-1)
        idx = np.flatnonzero(b_valid.numpy() > 0)
        mb = max(1, len(idx) // a.minibatches)
        for _ in range(a.epochs):
            np_rng.shuffle(idx)
            for s in range(0, len(idx) - mb + 1, mb):  # whole minibatches (a leftover of one would have no std)
                j = torch.as_tensor(idx[s : s + mb])
                _, logp, ent, v = agent.act(b_obs[j], b_act[j])
                ratio = (logp - b_logp[j]).exp()
                A = b_adv[j]
                A = (A - A.mean()) / (A.std() + 1e-8)
                pg = torch.max(-A * ratio, -A * ratio.clamp(1 - a.clip, 1 + a.clip)).mean()
                vl = 0.5 * ((v - b_ret[j]) ** 2).mean()
                loss = pg + a.vf_coef * vl - a.ent_coef * ent.mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        updates += 1
        recent = float(np.mean(returns[-20:])) if returns else float("nan")
        if reached_at is None and len(returns) >= 20 and recent >= a.target:
            reached_at = steps
        if not a.quiet:
            print(f"update {updates:3d}  env steps {steps:7d}  episodes {len(returns):5d}  mean return (last 20) {recent:8.1f}  {time.time() - t0:6.1f} s", flush=True)
    envs.close()
    recent = float(np.mean(returns[-20:])) if returns else float("nan")
    export_onnx(agent, low, high, a.out, {"env": a.env, "obs_dim": obs_dim, "act_dim": act_dim, "seed": a.seed, "steps": steps, "backend": a.backend})
    return {"env": a.env, "backend": a.backend, "env_steps": steps, "obs_digest": f"{digested} env steps: {digest.hexdigest()}", "episodes": len(returns), "mean_return_last20": recent,
            "target": a.target, "reached_target_at_step": reached_at, "seconds": round(time.time() - t0, 1), "policy": a.out}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", default="InvertedPendulum-v5")
    p.add_argument("--backend", choices=["achilles", "gymnasium"], default="achilles")
    p.add_argument("--steps", type=int, default=100_000, help="env steps to train for")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--rollout", type=int, default=128, help="steps per env between updates")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--minibatches", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--precision", choices=["f32", "f64"], default="f32")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=float, default=950.0, help="mean return (last 20 episodes) to report reaching")
    p.add_argument("--require-target", action="store_true", help="exit 1 unless the target is reached within --steps")
    p.add_argument("--out", default="policy.onnx")
    p.add_argument("--digest-steps", type=int, default=10_000, help="env steps whose observations the summary's obs_digest hashes (sha256)")
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    summary = train(a)
    print(json.dumps(summary))
    if a.require_target and summary["reached_target_at_step"] is None:
        print(f"ppo: the mean return {summary['mean_return_last20']:.1f} did not reach {a.target} within {a.steps} env steps", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
