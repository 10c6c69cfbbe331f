import torch
import torch.nn.functional as F

from swin.model import SwinLite


def main():
    torch.manual_seed(0)
    model = SwinLite(num_classes=10)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.05)
    images = torch.randn(2, 3, 64, 64)
    labels = torch.tensor([3, 7])
    logits = model(images)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(tuple(logits.shape), loss.item())


if __name__ == "__main__":
    main()
