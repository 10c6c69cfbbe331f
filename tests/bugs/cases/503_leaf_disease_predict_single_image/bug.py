import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torchvision import transforms

CLASSES = ["healthy", "rust", "scab", "blight"]


class LeafNet(nn.Module):
    def __init__(self, n_classes=len(CLASSES)):
        super().__init__()
        layers = []
        for c_in, c_out in [(3, 32), (32, 64), (64, 128)]:
            layers += [nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out),
                       nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(128, n_classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


preprocess = transforms.Compose([
    transforms.Resize((160, 160)),
    transforms.ToTensor(),
    transforms.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]),
])


def predict(model, image):
    model.eval()
    x = preprocess(image)
    with torch.no_grad():
        probs = model(x).softmax(dim=1)
    return CLASSES[int(probs.argmax(dim=1))], probs.max().item()


if __name__ == "__main__":
    photo = Image.fromarray(np.random.randint(0, 256, (300, 400, 3), dtype=np.uint8))
    label, confidence = predict(LeafNet(), photo)
    print(label, confidence)
