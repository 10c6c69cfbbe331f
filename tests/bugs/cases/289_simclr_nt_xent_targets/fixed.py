import torch
import torch.nn.functional as F


def nt_xent_loss(z1, z2, temperature=0.5):
    batch_size = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = (torch.arange(2 * batch_size) + batch_size) % (2 * batch_size)
    return F.cross_entropy(sim, targets)


def simclr_step(encoder, projector, optimizer, view1, view2, temperature=0.5):
    z1 = projector(encoder(view1))
    z2 = projector(encoder(view2))
    loss = nt_xent_loss(z1, z2, temperature)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
