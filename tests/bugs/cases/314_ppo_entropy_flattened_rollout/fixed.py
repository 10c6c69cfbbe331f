import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    advantages = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_value)
    for t in reversed(range(T)):
        next_value = last_value if t == T - 1 else values[t + 1]
        not_done = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * not_done - values[t]
        gae = delta + gamma * lam * not_done * gae
        advantages[t] = gae
    return advantages, advantages + values


def ppo_loss(logits, actions, old_logp, advantages, returns, values, clip=0.2, vf_coef=0.5, ent_coef=0.01):
    logp_all = F.log_softmax(logits, dim=-1)
    logp = logp_all.gather(1, actions.unsqueeze(1)).squeeze(1)
    ratio = torch.exp(logp - old_logp)
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
    value_loss = F.mse_loss(values, returns)
    entropy = -(logp_all.exp() * logp_all).sum(dim=1).mean()
    return policy_loss + vf_coef * value_loss - ent_coef * entropy


if __name__ == "__main__":
    T, N_ENVS, OBS, N_ACTIONS = 128, 4, 8, 4
    policy = nn.Sequential(nn.Linear(OBS, 64), nn.Tanh(), nn.Linear(64, N_ACTIONS))
    value_fn = nn.Sequential(nn.Linear(OBS, 64), nn.Tanh(), nn.Linear(64, 1))
    obs = torch.randn(T, N_ENVS, OBS)
    with torch.no_grad():
        old_logits = policy(obs)
        actions = torch.distributions.Categorical(logits=old_logits).sample()
        old_logp = F.log_softmax(old_logits, dim=-1).gather(2, actions.unsqueeze(-1)).squeeze(-1)
        values = value_fn(obs).squeeze(-1)
        last_value = value_fn(torch.randn(N_ENVS, OBS)).squeeze(-1)
    rewards = torch.randn(T, N_ENVS)
    dones = (torch.rand(T, N_ENVS) < 0.02).float()
    adv, ret = compute_gae(rewards, values, dones, last_value)
    flat = lambda z: z.reshape(T * N_ENVS, *z.shape[2:])
    loss = ppo_loss(flat(policy(obs)), flat(actions), flat(old_logp), flat(adv), flat(ret), flat(value_fn(obs).squeeze(-1)))
    loss.backward()
    print(loss.item())
