"""Measurements behind ``docs/statistics.md``: interval coverage (A/A), and variance reduction (duplicate deals,
control variates). ``python -m cardenvs.experiments.research.stats_study --help``.

Produced: the coverage and variance tables (``docs/statistics/``); reported in docs/statistics.md, section
"Coverage"."""
