"""A small one-stage detector: backbone, PAN neck and per-level heads."""
