"""Fast paths: the games as JAX array programs over a batch (Pgx's API), optional (``pip install -e '.[fast]'``).

Nothing else in :mod:`cardenvs` imports this package, so ``import cardenvs`` never imports JAX. The reference
engines stay the oracle: ``tests/fast`` plays each fast game beside its engine. Usage and figures: ``docs/fast.md``.
"""

from cardenvs.fast.goninkan import GoninkanFast
from cardenvs.fast.kyuuri import KyuuriFast
from cardenvs.fast.verish import VerishFast
from cardenvs.fast.verish_state import State
from cardenvs.fast.yoninkan import YoninkanFast
from cardenvs.fast.yukushi import YukushiFast
from cardenvs.fast.zheng_shang_you import ZhengShangYouFast

__all__ = ["GoninkanFast", "KyuuriFast", "State", "VerishFast", "YoninkanFast", "YukushiFast", "ZhengShangYouFast"]
