"""Reusable transformer building blocks."""
