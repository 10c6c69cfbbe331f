import torch
import torch.nn as nn


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


def make_roi_head(backbone):
    if backbone == "vgg16":
        head = nn.Sequential(nn.Flatten(), nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU())
        return head, 512, 4096
    head = nn.Sequential(
        nn.Conv2d(1024, 2048, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )
    return head, 1024, 2048


class DomainAdaptiveHead(nn.Module):
    def __init__(self, n_classes, backbone="resnet50", alpha=0.1):
        super().__init__()
        self.alpha = alpha
        self.head, self.in_channels, feat_dim = make_roi_head(backbone)
        self.cls_score = nn.Linear(feat_dim, n_classes)
        self.bbox_pred = nn.Linear(feat_dim, 4 * n_classes)
        self.domain_clf = nn.Sequential(nn.Linear(feat_dim, 256), nn.ReLU(), nn.Linear(256, 1))

    def forward(self, roi_feats, domain_label):
        feats = self.head(roi_feats)
        logits, deltas = self.cls_score(feats), self.bbox_pred(feats)
        dom = self.domain_clf(GradReverse.apply(feats, self.alpha)).squeeze(1)
        target = torch.full_like(dom, float(domain_label))
        return logits, deltas, nn.functional.binary_cross_entropy_with_logits(dom, target)


if __name__ == "__main__":
    head = DomainAdaptiveHead(n_classes=9, backbone="resnet50")
    rois = torch.randn(64, head.in_channels, 7, 7)
    logits, deltas, da_loss = head(rois, domain_label=1)
    da_loss.backward()
    print(logits.shape, deltas.shape, da_loss.item())
