"""Golden transcripts: ``python -m tests.golden --update`` rewrites ``tests/transcripts/`` (review the diff!)."""

from __future__ import annotations

import sys
from pathlib import Path

import cardenvs
from cardenvs.testing import transcript

DIR = Path(__file__).parent / "transcripts"
SEED = 7


def path_for(env_id: str) -> Path:
    return DIR / (env_id.split("/")[-1] + ".txt")


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print("usage: python -m tests.golden --update", file=sys.stderr)
        return 2
    DIR.mkdir(exist_ok=True)
    for env_id in cardenvs.ENV_IDS:
        path_for(env_id).write_text(transcript(env_id, {}, SEED))
        print("wrote", path_for(env_id))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
