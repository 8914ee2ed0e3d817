"""The fast path is optional: importing cardenvs (and its vector module) never imports JAX."""

from __future__ import annotations

import subprocess
import sys


def test_importing_cardenvs_does_not_import_jax() -> None:
    code = "import sys, cardenvs, cardenvs.vector; sys.exit('jax' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
