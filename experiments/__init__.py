"""Runnable recipes, each run as ``python -m cardenvs.experiments.<recipe>`` (outputs under ``runs/``).

The product's recipes sit here: ``demo``, training (``train`` with its parts ``train_args``, ``train_envs``,
``imitation``, ``fine_tune``, ``people_data``, ``ppo_settings``; ``train_fast/``; ``train_rllib``), evaluation
(``tournament``, ``benchmark``: a strategy's strength, ``exploitability``, ``exploitability_table``,
``training_results``), ``play/`` (people at the table), ``zoo_export`` and ``convert_checkpoint``. Two rooms beside
them: ``speed/`` (how fast: games, batches, bots, training) and ``research/`` (recipes of shipped artefacts, each
naming its artefact and the doc section that reports it)."""

if __name__ != "cardenvs.experiments":  # the checkout's folder, imported under its own name
    raise ImportError(
        "experiments/ is the package cardenvs.experiments: run python -m cardenvs.experiments.<recipe> "
        "(under the short name every module would load twice, once per name)",
        name=__name__,  # so that python -m prints the message alone
    )
