import torch
import torch.nn.functional as F
from torchvision.ops import batched_nms


def decode_boxes(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    wx, wy, ww, wh = weights
    widths = anchors[:, 2] - anchors[:, 0]
    heights = anchors[:, 3] - anchors[:, 1]
    ctr_x = anchors[:, 0] + 0.5 * widths
    ctr_y = anchors[:, 1] + 0.5 * heights
    dx, dy = deltas[:, 0] / wx, deltas[:, 1] / wy
    dw = (deltas[:, 2] / ww).clamp(max=4.135)
    dh = (deltas[:, 3] / wh).clamp(max=4.135)
    pcx = dx * widths + ctr_x
    pcy = dy * heights + ctr_y
    pw = torch.exp(dw) * widths
    ph = torch.exp(dh) * heights
    return torch.stack([pcx - 0.5 * pw, pcy - 0.5 * ph, pcx + 0.5 * pw, pcy + 0.5 * ph], dim=1)


def postprocess(cls_logits, box_deltas, anchors, iou_thresh=0.5, max_dets=100):
    boxes = decode_boxes(box_deltas, anchors)
    probs = F.softmax(cls_logits, dim=-1)[:, 1:]
    scores, labels = probs.max(dim=1)
    labels = labels + 1
    keep = batched_nms(boxes, scores, labels, iou_thresh)[:max_dets]
    dets = torch.cat([boxes[keep], scores[keep], labels[keep].float()], dim=1)
    return dets
