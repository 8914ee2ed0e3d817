"""Runnable recipes: the demo, training, tournaments and benchmarks (outputs under ``runs/``), each run as
``python -m cardenvs.experiments.<recipe>``."""

if __name__ != "cardenvs.experiments":  # the checkout's folder, imported under its own name
    raise ImportError(
        "experiments/ is the package cardenvs.experiments: run python -m cardenvs.experiments.<recipe> "
        "(under the short name every module would load twice, once per name)",
        name=__name__,  # so that python -m prints the message alone
    )
