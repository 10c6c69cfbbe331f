import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedConvEncoder(nn.Module):
    def __init__(self, n_feats=80, widths=(256, 256, 512), kernel=5, vocab_size=40, dropout=0.1):
        super().__init__()
        layers = []
        in_ch = n_feats
        for w in widths:
            layers += [
                nn.Conv1d(in_ch, 2 * w, kernel, padding=kernel // 2),
                nn.GLU(dim=1),
                nn.Dropout(dropout),
            ]
            in_ch = 2 * w
        layers.append(nn.Conv1d(in_ch, vocab_size + 1, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, feats):
        logits = self.net(feats.transpose(1, 2))
        return logits.permute(2, 0, 1).log_softmax(dim=-1)


def ctc_step(model, feats, feat_lens, targets, target_lens):
    log_probs = model(feats)
    out_lens = torch.clamp(feat_lens, max=log_probs.size(0))
    return F.ctc_loss(log_probs, targets, out_lens, target_lens, blank=0, zero_infinity=True)
