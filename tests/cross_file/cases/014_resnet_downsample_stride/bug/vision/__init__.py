"""Small vision models."""
