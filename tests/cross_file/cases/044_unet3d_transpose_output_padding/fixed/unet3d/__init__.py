"""3-D UNet for volumetric segmentation."""
