"""Convolutional text classifier."""
