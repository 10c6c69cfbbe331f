import torch
import torch.nn as nn


class ListenerTrackMF(nn.Module):
    def __init__(self, n_listeners, n_tracks, dim=24):
        super().__init__()
        self.listener = nn.Embedding(n_listeners, dim)
        self.track = nn.Embedding(n_tracks, dim)

    def forward(self, listeners, tracks):
        return (self.listener(listeners) * self.track(tracks)).sum(-1)


def split_plays(plays, catalogue_size, n_candidates, gen):
    train = plays[plays[:, 1] < int(catalogue_size * 0.8)]
    listeners = torch.unique(plays[:, 0])
    candidates = torch.randint(0, catalogue_size, (len(listeners), n_candidates), generator=gen)
    return train, listeners, candidates


def fit_and_rank(plays, catalogue_size=2000, n_candidates=50):
    gen = torch.Generator().manual_seed(0)
    train, listeners, candidates = split_plays(plays, catalogue_size, n_candidates, gen)
    n_listeners = int(plays[:, 0].max()) + 1
    n_tracks = catalogue_size
    model = ListenerTrackMF(n_listeners, n_tracks)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    neg = torch.randint(0, n_tracks, (len(train),), generator=gen)
    loss = -(model(train[:, 0], train[:, 1]) - model(train[:, 0], neg)).sigmoid().log().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        scores = model(listeners.unsqueeze(1).expand_as(candidates), candidates)
    return scores.argsort(dim=1, descending=True)[:, :10]


if __name__ == "__main__":
    plays = torch.stack([torch.randint(0, 80, (3000,)), torch.randint(0, 2000, (3000,))], dim=1)
    print(fit_and_rank(plays).shape)
