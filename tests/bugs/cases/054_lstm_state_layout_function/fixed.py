import torch
import torch.nn as nn


def init_state(batch_size, num_layers, hidden_size, bidirectional=False):
    directions = 2 if bidirectional else 1
    shape = (num_layers * directions, batch_size, hidden_size)
    return torch.zeros(shape), torch.zeros(shape)


def encode_batch(lstm, batch):
    """batch: [batch, time, features] (lstm built with batch_first=True)."""
    state = init_state(batch.size(0), lstm.num_layers, lstm.hidden_size, lstm.bidirectional)
    outputs, (h_n, c_n) = lstm(batch, state)
    return outputs, h_n


if __name__ == "__main__":
    lstm = nn.LSTM(input_size=32, hidden_size=64, num_layers=2, batch_first=True)
    x = torch.randn(8, 15, 32)
    outputs, h_n = encode_batch(lstm, x)
    print(outputs.shape, h_n.shape)
