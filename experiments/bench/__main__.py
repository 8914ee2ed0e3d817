"""``python -m experiments.bench``: see :mod:`experiments.bench`."""

from experiments.bench import main

main()
