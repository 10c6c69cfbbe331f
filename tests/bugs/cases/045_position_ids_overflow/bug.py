import torch
import torch.nn as nn


class BertEmbeddings(nn.Module):
    def __init__(self, vocab_size=30522, hidden=128, max_position=512, type_vocab=2, dropout=0.1):
        super().__init__()
        self.word = nn.Embedding(vocab_size, hidden, padding_idx=0)
        self.position = nn.Embedding(max_position, hidden)
        self.token_type = nn.Embedding(type_vocab, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input_ids, token_type_ids=None):
        seq_len = input_ids.size(1)
        positions = torch.arange(seq_len, device=input_ids.device).unsqueeze(0)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = self.word(input_ids) + self.position(positions) + self.token_type(token_type_ids)
        return self.dropout(self.norm(x))


if __name__ == "__main__":
    embeddings = BertEmbeddings()
    document = torch.randint(1, 30522, (2, 600))
    print(embeddings(document).shape)
