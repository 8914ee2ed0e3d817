"""Research recipes, each the reproducible record of a shipped artefact (a zoo agent, an equilibrium, a table of
the docs): a recipe's docstring has a ``Produced:`` line naming the artefact and the doc section that reports it;
``advantage_fit``, ``rollout_data``, ``move_rollouts``, ``playout`` and ``mlp`` are parts of those recipes. The
product's recipes (demo, training, tournaments, benchmarks, play) sit one level up, in :mod:`cardenvs.experiments`;
speed measurements in :mod:`cardenvs.experiments.speed`."""
