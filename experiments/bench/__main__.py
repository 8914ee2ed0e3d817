"""``python -m cardenvs.experiments.bench``: see :mod:`experiments.bench`."""

from cardenvs.experiments.bench import main

main()
