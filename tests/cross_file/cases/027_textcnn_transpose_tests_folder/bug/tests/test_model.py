import torch

from textcls.model import TextCNN


def test_logits_shape():
    model = TextCNN(vocab_size=100, emb_dim=16, num_filters=8)
    logits = model(torch.randint(1, 100, (2, 20)))
    assert logits.shape == (2, 2)
