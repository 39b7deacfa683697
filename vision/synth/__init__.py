"""Synthetic cards and table scenes: for training, tests and the demo's camera."""
