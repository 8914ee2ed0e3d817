"""The rule bots, one module per game (``verish_ne_verish``, ``yukushi``, ``kyuuri``, ``zheng_shang_you``,
``goninkan``), uniform random play (``random_policy``) and the card counting the bluffing-game bots share
(``bluffing``). Each reads only its own observation; :mod:`cardenvs.agents.registry` names them."""
