"""Simple strategies of the kind a user writes in minutes: the test set that the zoo agents and the rule bots are
measured against (issue "Train at the speed of the fast path", item 4), and the style opponents a bluffing
benchmark needs.

They are not registered names (gauntlet-v2 plays them as ``style:<name>`` opponents, see
:mod:`agents.benchmark.opponents`, and the registered names' tables stay as they were); any spec reaches them as
``cardenvs.agents.yardstick.<game>:<Class>``, e.g.
``--policies truthful=cardenvs.agents.yardstick.verish_ne_verish:Truthful``. Each reads only its observation.
"""
