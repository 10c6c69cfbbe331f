import torch


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]).clamp(min=0) * (boxes[:, 3] - boxes[:, 1]).clamp(min=0)


def box_iou(boxes1, boxes2):
    area1 = box_area(boxes1)
    area2 = box_area(boxes2)
    lt = torch.max(boxes1[:, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2 - inter)


def match_anchors(anchors, gt_boxes, threshold=0.5):
    iou = box_iou(anchors, gt_boxes)
    best_iou, best_gt = iou.max(dim=1)
    labels = torch.where(best_iou >= threshold, best_gt, torch.full_like(best_gt, -1))
    return labels, best_iou


def random_boxes(n, size=512):
    xy = torch.rand(n, 2) * size
    wh = torch.rand(n, 2) * size / 4 + 1
    return torch.cat([xy, xy + wh], dim=1)


if __name__ == "__main__":
    anchors = random_boxes(200)
    gt = random_boxes(6)
    labels, ious = match_anchors(anchors, gt)
    print(labels.shape, ious.max())
