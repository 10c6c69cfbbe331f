"""dup_utils: helpers that vendor blocks from vision_nets."""

from .seeding import seed_everything

__all__ = ["seed_everything"]
