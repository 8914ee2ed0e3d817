"""Measurements behind ``docs/statistics.md``: interval coverage (A/A), and variance reduction (duplicate deals,
control variates). ``python -m cardenvs.experiments.stats_study --help``."""
