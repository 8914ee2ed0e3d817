"""The plays of the array-program ``zheng_shang_you/rule`` against the Python bot's, on random hands and random
tables of every kind: wild sequences, sets with 2s and jokers, set sequences to the 2, which random games reach
rarely. The Python bot's choice is its own code (``choose_lead``, ``choose_follow``), told only that it is near the
end (so it never passes to save its 2s and jokers) and that no partner is on top."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot
from cardenvs.zheng_shang_you.combos import Combo, ComboRules, lead_shapes
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import to_bits

jax = pytest.importorskip("jax")
from cardenvs.agents.fast_bots.zheng_shang_you import ZsyRuleFast  # noqa: E402  (needs JAX)
from cardenvs.agents.fast_bots.zsy_plays import lead_play  # noqa: E402

HANDS = 400


class EagerRuleBot(ZsyRuleBot):
    """The rule bot on a given table, near the end of the deal and with no partner on top."""

    table: Combo

    def combo_to_beat(self, observation: Any) -> Combo:
        return self.table

    def endgame(self, observation: Any, left_after: int) -> bool:
        return True

    def partner_on_top(self, observation: Any) -> bool:
        return False


def random_tables(rules: ComboRules, seed: int) -> list[tuple[list[int], Combo]]:
    """Per case, the follower's hand and a table played from another hand of the same deck, its kind drawn first."""
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < HANDS:
        deck = rng.permutation(54)
        leader, follower = deck[:14], deck[14 : 14 + int(rng.integers(6, 15))]
        combos = legal_combos(to_bits([int(p) for p in leader]), None, rules)
        kinds = sorted({c.kind for c in combos if c.kind > 0 or rng.random() < 0.3})
        kind = kinds[int(rng.integers(len(kinds)))]
        of_kind = [c for c in combos if c.kind == kind]
        cases.append((sorted(int(p) for p in follower), of_kind[int(rng.integers(len(of_kind)))]))
    return cases


@pytest.mark.parametrize(
    "options", [{}, {"set_sequence_top": "2"}, {"joker_keeps_suitedness": False}], ids=lambda o: str(o)
)
def test_follows_and_leads_are_the_python_bots(options: dict[str, Any]) -> None:
    context = PolicyContext.from_env(cardenvs.make("zheng_shang_you-v0", **options))
    python, fast = EagerRuleBot(context), ZsyRuleFast(context)
    cases = random_tables(context.options.combo_rules, seed=3)
    hands = np.zeros((HANDS, 54), bool)
    for row, (hand, _) in enumerate(cases):
        hands[row, hand] = True
    tables = [table for _, table in cases]
    shape_of = {s: i for i, s in enumerate(lead_shapes())}
    columns = [
        [shape_of[t.shape] for t in tables],
        [t.top for t in tables],
        [t.wild for t in tables],
        [t.suited for t in tables],
    ]
    follows = jax.jit(jax.vmap(fast._follow))(hands, *(np.asarray(c) for c in columns))
    leads = jax.jit(jax.vmap(lead_play))(hands)
    wrong = []
    for row, (hand, table) in enumerate(cases):
        python.table = table
        want = python.choose_follow({}, hand)
        got = tuple(int(p) for p in np.flatnonzero(follows.cards[row])) if follows.found[row] else None
        if (want.cards if want else None) != got or (want and bool(follows.wild[row]) != want.wild):
            wrong.append(("follow", table.describe(), hand, want, got))
        lead = python.choose_lead({}, hand)
        got_lead = tuple(int(p) for p in np.flatnonzero(leads.cards[row]))
        if got_lead != lead.cards or int(leads.shape[row]) != shape_of[lead.shape] or int(leads.top[row]) != lead.top:
            wrong.append(("lead", hand, lead, got_lead))
    assert not wrong, f"{len(wrong)} of {2 * HANDS} plays differ; first: {wrong[:2]}"
