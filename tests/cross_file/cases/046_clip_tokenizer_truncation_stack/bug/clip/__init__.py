"""A tiny CLIP-style image/text dual encoder."""
