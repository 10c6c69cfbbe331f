import torch

from tabnet import ResidualMLP


def test_output_shape():
    model = ResidualMLP(in_features=10, width=32, depth=2)
    out = model(torch.randn(5, 10))
    assert out.shape == (5, 1)
