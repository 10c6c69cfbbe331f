"""Vendored copies of third-party layers (kept byte-identical to upstream)."""
