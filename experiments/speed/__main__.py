"""``python -m cardenvs.experiments.speed``: see :mod:`experiments.speed`."""

from cardenvs.experiments.speed import main

main()
