"""Training on the JAX fast path (``cardenvs.fast``): masked PPO in which rollouts, opponents, advantages and
updates run as one jitted program. ``python -m cardenvs.experiments.train_fast --game <id>``; ``docs/training.md``
("Training on the fast path") has the recipe and its throughput."""
