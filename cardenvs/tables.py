"""Print the observation and action tables of an env for its docs page.

python -m cardenvs.tables verish_ne_verish-v0 [num_players=4 deck_size=36 …]
"""

from __future__ import annotations

import ast
import sys

from cardenvs.registry import make_raw


def tables(env_id: str, **options: object) -> tuple[str, str]:
    """The Markdown observation table and action table of ``env_id`` with ``options``."""
    env = make_raw(env_id, **options)
    return (
        f"Observation: {env.layout.size} floats.\n\n{env.layout.markdown()}\n",
        f"Actions: Discrete({env.action_table.size}).\n\n{env.action_table.markdown()}\n",
    )


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    options = {}
    for item in argv[1:]:
        key, _, value = item.partition("=")
        try:
            options[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[key] = value
    print("\n".join(tables(argv[0], **options)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
