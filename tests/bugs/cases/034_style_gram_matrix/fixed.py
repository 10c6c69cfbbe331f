import torch
import torch.nn.functional as F


def gram_matrix(features):
    b, c, h, w = features.shape
    f = features.view(b, c, h * w)
    return torch.bmm(f, f.transpose(1, 2)) / (c * h * w)


def style_loss(gen_feats, style_feats):
    loss = 0.0
    for g, s in zip(gen_feats, style_feats):
        loss = loss + F.mse_loss(gram_matrix(g), gram_matrix(s))
    return loss


if __name__ == "__main__":
    layers = [(64, 32), (128, 16), (256, 8)]
    generated = [torch.randn(1, c, s, s, requires_grad=True) for c, s in layers]
    style = [torch.randn(1, c, s, s) for c, s in layers]
    loss = style_loss(generated, style)
    loss.backward()
    print(loss.item())
