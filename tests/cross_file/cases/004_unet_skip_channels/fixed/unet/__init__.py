"""A small UNet for binary segmentation."""
