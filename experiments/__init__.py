"""Runnable recipes: the demo, training, tournaments and benchmarks (outputs under ``runs/``)."""
