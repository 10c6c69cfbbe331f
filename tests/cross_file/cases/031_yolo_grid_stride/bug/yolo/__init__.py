"""Single-scale YOLO-style detector."""
