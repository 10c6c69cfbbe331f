import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout, stride=1, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class LiteSegNet(nn.Module):
    def __init__(self, num_classes, width=32, rates=(1, 2, 4)):
        super().__init__()
        self.stem = nn.Sequential(conv_bn_relu(3, width, stride=2), conv_bn_relu(width, 2 * width, stride=2))
        self.context = nn.ModuleList([conv_bn_relu(2 * width, width, dilation=r) for r in rates])
        self.project = conv_bn_relu(len(rates) * width, width)
        self.classifier = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        f = self.stem(x)
        f = torch.cat([branch(f) for branch in self.context], dim=1)
        return self.classifier(self.project(f))


def segmentation_loss(model, images, masks, ignore_index=255):
    logits = model(images)
    logits = F.interpolate(logits, scale_factor=2, mode="bilinear", align_corners=False)
    return F.cross_entropy(logits, masks, ignore_index=ignore_index)


def pixel_accuracy(model, images, masks, ignore_index=255):
    with torch.no_grad():
        logits = F.interpolate(model(images), size=masks.shape[-2:], mode="bilinear", align_corners=False)
    valid = masks != ignore_index
    return (logits.argmax(dim=1)[valid] == masks[valid]).float().mean()


if __name__ == "__main__":
    model = LiteSegNet(num_classes=6)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(2, 3, 128, 160)
    masks = torch.randint(0, 6, (2, 128, 160))
    masks[:, :4] = 255
    loss = segmentation_loss(model, images, masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item(), pixel_accuracy(model, images, masks).item())
