"""Trained networks as players: the pickle-free NumPy weights runtime (``weights``, reading checkpoints through
``npz_reader``), the players that play loaded weights (``players``), and the two learners that score whole moves
(``goninkan_advantage``: a rule bot's card play improved by a learned advantage; ``move_values``: a Q-value per
move). The shipped trained agents stay in :mod:`cardenvs.agents.zoo`, beside their data files."""
