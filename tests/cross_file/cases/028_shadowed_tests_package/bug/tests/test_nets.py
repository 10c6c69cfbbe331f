import torch

from mylib import Classifier, Encoder


def test_pipeline():
    z = Encoder()(torch.randn(2, 64))
    assert Classifier(in_dim=z.shape[1])(z).shape == (2, 10)
