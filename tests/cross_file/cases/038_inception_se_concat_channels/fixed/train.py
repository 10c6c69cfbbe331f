import torch
import torch.nn.functional as F

from model import InceptionSENet


def main():
    torch.manual_seed(0)
    model = InceptionSENet(num_classes=10)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.randn(4, 3, 48, 48)
    labels = torch.randint(0, 10, (4,))
    logits = model(images)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(logits.shape, loss.item())


if __name__ == "__main__":
    main()
