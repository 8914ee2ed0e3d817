"""``--config`` takes a shipped config by name, so the docs' recipes run from an install as well as a checkout."""

from __future__ import annotations

import tomllib

import pytest

from cardenvs.experiments.train import CONFIGS, build_args


def test_a_shipped_config_is_read_by_its_name() -> None:
    shipped = tomllib.loads((CONFIGS / "verish_ne_verish_truthful_ppo.toml").read_text())
    args = build_args(["--config", "verish_ne_verish_truthful_ppo"])
    assert (args.game, args.imitate, args.lr_final) == (shipped["game"], shipped["imitate"], shipped["lr_final"])
    assert args.opponents == shipped["opponents"]


def test_an_unknown_config_says_what_is_shipped() -> None:
    refused = r"error: --config nope: no such file, nor a shipped config; shipped: \[.*kyuuri"
    with pytest.raises(SystemExit, match=refused):
        build_args(["--config", "nope"])
