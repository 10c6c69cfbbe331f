import torch


def cxcywh_to_xyxy(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def rescale_predictions(pred_logits, pred_boxes, image_sizes):
    probs = pred_logits.softmax(-1)
    scores, labels = probs[..., :-1].max(-1)
    boxes = cxcywh_to_xyxy(pred_boxes)
    img_h, img_w = image_sizes.unbind(1)
    scale = torch.stack([img_w, img_h], dim=1)
    boxes = boxes * scale[:, None, :]
    return [{"scores": s, "labels": l, "boxes": b} for s, l, b in zip(scores, labels, boxes)]
