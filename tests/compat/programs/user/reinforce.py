"""REINFORCE on a small corridor world, with the structure of pytorch/examples/reinforcement_learning/reinforce.py.

The agent starts in the middle of a corridor; stepping off the right end pays 1, the left
end -1, every step costs a little. The policy samples actions from
``torch.distributions.Categorical``; ``finish_episode`` weights the saved log-probabilities
by normalised discounted returns. (The corridor stands in for gym, with gym's
``reset``/``step`` API.)
"""
import argparse
from itertools import count

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


class Corridor:
    """gym-style: ``reset(seed) -> (state, info)``, ``step(a) -> (state, reward, terminated, truncated, info)``."""

    def __init__(self, length=7, max_steps=30):
        self.length, self.max_steps = length, max_steps

    def _obs(self):
        s = np.zeros(self.length, dtype=np.float32)
        s[self.pos] = 1.0
        return s

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed) if seed is not None else getattr(self, "rng", np.random.default_rng())
        self.pos, self.t = self.length // 2, 0
        return self._obs(), {}

    def step(self, action):
        if self.rng.random() < 0.1:  # a slippery floor
            action = 1 - action
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos >= self.length:
            self.pos = self.length - 1
            return self._obs(), 1.0, True, False, {}
        if self.pos < 0:
            self.pos = 0
            return self._obs(), -1.0, True, False, {}
        return self._obs(), -0.01, False, self.t >= self.max_steps, {}


class Policy(nn.Module):
    def __init__(self, n_states):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(n_states, 64)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(64, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


def main():
    parser = argparse.ArgumentParser(description="PyTorch REINFORCE example")
    parser.add_argument("--gamma", type=float, default=0.99, metavar="G", help="discount factor (default: 0.99)")
    parser.add_argument("--seed", type=int, default=543, metavar="N", help="random seed (default: 543)")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--log-interval", type=int, default=50, metavar="N", help="interval between status logs")
    args = parser.parse_args()

    env = Corridor()
    env.reset(seed=args.seed)
    torch.manual_seed(args.seed)
    policy = Policy(env.length)
    optimizer = optim.Adam(policy.parameters(), lr=1e-2)
    eps = np.finfo(np.float32).eps.item()

    def select_action(state):
        state = torch.from_numpy(state).float().unsqueeze(0)
        probs = policy(state)
        m = Categorical(probs)
        action = m.sample()
        policy.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def finish_episode():
        R = 0
        policy_loss = []
        returns = []
        for r in policy.rewards[::-1]:
            R = r + args.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + eps) if len(returns) > 1 else returns
        for log_prob, R in zip(policy.saved_log_probs, returns):
            policy_loss.append(-log_prob * R)
        optimizer.zero_grad()
        policy_loss = torch.cat(policy_loss).sum()
        policy_loss.backward()
        optimizer.step()
        del policy.rewards[:]
        del policy.saved_log_probs[:]

    running_reward = None
    for i_episode in count(1):
        state, _ = env.reset()
        ep_reward = 0
        for t in range(1, 10000):
            action = select_action(state)
            state, reward, done, truncated, _ = env.step(action)
            policy.rewards.append(reward)
            ep_reward += reward
            if done or truncated:
                break
        running_reward = ep_reward if running_reward is None else 0.05 * ep_reward + (1 - 0.05) * running_reward
        finish_episode()
        if i_episode == 1 or i_episode % args.log_interval == 0:
            print("Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}".format(i_episode, ep_reward, running_reward))
        if i_episode >= args.episodes:
            break
    policy.eval()
    with torch.no_grad():
        p_right = policy(torch.eye(env.length))[:, 1]
    print("P(right) per cell:", " ".join(f"{p:.2f}" for p in p_right.tolist()))


if __name__ == "__main__":
    main()
