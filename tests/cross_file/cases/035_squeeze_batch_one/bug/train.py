import torch

from model import Classifier
from utils import count_params


def predict(model, image):
    model.eval()
    with torch.no_grad():
        logits = model(image.unsqueeze(0))
    return logits.argmax(dim=1).item()


def main():
    torch.manual_seed(0)
    model = Classifier(num_classes=10)
    print("params", count_params(model))
    image = torch.randn(3, 32, 32)
    print("predicted class", predict(model, image))


if __name__ == "__main__":
    main()
