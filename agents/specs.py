"""Policy specs: the one language that names a policy everywhere (tournaments, the benchmark, training opponents,
the demo), the resolver that builds policies from specs, and the fingerprint of the code that plays.

Accepted forms (:data:`ACCEPTED_FORMS`):

* a registered name: ``random``, ``yukushi/bluffer`` (:data:`agents.registry.POLICIES`);
* ``path/to/file.py:Name``: ``Name`` in a Python file anywhere (a path with a ``/`` or ending in ``.py``); the
  file is run from the bytes that are fingerprinted, with its folder on ``sys.path`` while it loads;
* ``package.module:Name``: ``Name`` in an importable module (the current folder is on ``sys.path`` under
  ``python -m``);
* either with keyword parameters ``…:Name?p=0.3&seed=2`` (values read as Python literals with
  ``ast.literal_eval``; ``seed`` fixes the policy's seed instead of the one the caller passes);
* ``ckpt:PATH`` / ``ckpt-greedy:PATH``: a trained checkpoint (:mod:`agents.learned.players`);
* ``zoo:GAME/NAME``: a trained agent shipped with the project (:mod:`agents.zoo`);
* ``llm:MODEL?base_url=…``: a language model asked over the chat-completions API (:mod:`agents.llm`);
* ``search:?…``, ``equilibrium:GAME-small``, ``fastbot:NAME``: the search agent, an exact equilibrium, a rule bot's
  array program (every prefix is one entry of :data:`SPEC_PREFIXES`, the one table of prefixes);
* ``py:package.module:Factory``: the older form, still accepted: always ``Factory(context, seed, **params)``.

What ``Name`` may be (the calling convention):

* a **class**: instantiated with ``context`` (a :class:`~agents.base.PolicyContext`) and ``seed`` passed to the
  ``__init__`` parameters of those names, if it has them, and the spec's parameters as keywords;
* a **factory**: a function whose first parameter is named ``context``, called the same way; it returns a policy;
* a **function policy**: any other function, ``f(observation) -> int`` (the parameters bound as keywords);
* an **object** with ``act``: the policy itself (a fresh copy per seat).

Whatever comes out needs ``act(observation) -> int`` (optionally ``reset(seed)``, ``name``,
``wants_public_view``); anything that is not an :class:`agents.Policy` is wrapped in
:class:`agents.base.ForeignPolicy`. Naming a file or module runs its code, as importing it would.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cardenvs.agents.base import ForeignPolicy, Policy, PolicyContext
from cardenvs.agents.policy_code import PolicyCodeError, load_file, load_module, module_source
from cardenvs.agents.registry import POLICIES, policy_names
from cardenvs.registry import game_name

SpecLoader = Callable[[str, PolicyContext, "int | None"], Policy]
"""``loader(argument, context, seed)``: builds a policy from the part of a spec after ``prefix:``."""

ACCEPTED_FORMS = """accepted policy specs:
  NAME                        a registered policy, e.g. random (agents.policy_names(env_id) lists them)
  path/to/file.py:Name        a class, factory, function or object with act(observation) in a Python file
  package.module:Name         the same in an importable module
  ...:Name?p=0.3&seed=2       keyword parameters for Name, as Python literals (seed fixes the policy's seed)
  ckpt:PATH, ckpt-greedy:PATH a trained checkpoint (sampling, argmax)
  zoo:GAME/NAME               a trained agent shipped with cardenvs (agents.policy_names lists them)
  equilibrium:GAME-small      the exact equilibrium of a small variant (agents.equilibria)
  search:?simulations=200     the ISMCTS search agent; rollout=NAME, prior=NAME and more (docs/search.md)
  fastbot:NAME                the array-program twin of the rule bot NAME (agents.fast_bots, needs JAX)
  llm:MODEL?base_url=URL      a language model over an OpenAI-compatible chat-completions API (docs/llm.md)
  py:package.module:Factory   the older form: Factory(context, seed, **params)"""


class SpecError(ValueError):
    """A spec that names no policy; the message says what was wrong and lists the accepted forms."""

    def __init__(self, problem: str):
        super().__init__(f"{problem}\n{ACCEPTED_FORMS}")
        self.problem = problem


@dataclass(frozen=True)
class PolicySpec:
    """A parsed spec."""

    text: str
    kind: Literal["registered", "file", "module", "legacy", "prefix"]
    target: str
    """The registered name, the file path, the module, or the prefix."""
    attribute: str = ""
    """``Name`` of a file or module spec; the argument after ``prefix:`` of a prefixed one."""
    params: tuple[tuple[str, Any], ...] = ()

    def canonical(self) -> str:
        """The spec with its parameters sorted: what the fingerprint hashes besides the code."""
        query = "&".join(f"{k}={v!r}" for k, v in sorted(self.params))
        return f"{self.kind}:{self.target}:{self.attribute}" + (f"?{query}" if query else "")


_MODULE_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def parse_spec(text: str) -> PolicySpec:
    """Read a spec (see the module docstring); raises :class:`SpecError` naming what is wrong."""
    spec = text.strip()
    if not spec:
        raise SpecError("empty policy spec")
    prefix, sep, argument = spec.partition(":")
    if sep and (prefix in SPEC_PREFIXES or prefix == LEGACY_PREFIX):
        if prefix != LEGACY_PREFIX:
            return PolicySpec(spec, "prefix", prefix, argument)
        module, sep, name = argument.partition(":")
        if not sep or not _MODULE_PATH.match(module):
            raise SpecError(f"{spec!r}: the py: form is py:package.module:Factory")
        name, params = _split_params(name, spec)
        return PolicySpec(spec, "legacy", module, _identifier(name, spec), params)
    base, params = _split_params(spec, spec)
    if ":" not in base:
        if params:
            raise SpecError(f"{spec!r}: a registered policy takes no parameters")
        return PolicySpec(spec, "registered", base)
    target, _, name = base.rpartition(":")
    if target.endswith(".py") or "/" in target or "\\" in target:
        return PolicySpec(spec, "file", target, _identifier(name, spec), params)
    if not _MODULE_PATH.match(target):
        raise SpecError(f"{spec!r}: {target!r} is neither a file path (ending in .py) nor a dotted module name")
    return PolicySpec(spec, "module", target, _identifier(name, spec), params)


def _split_params(text: str, spec: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    base, sep, query = text.partition("?")
    if not sep:
        return base, ()
    params: dict[str, Any] = {}
    for item in query.split("&"):
        key, eq, value = item.partition("=")
        if not eq or not key.isidentifier():
            raise SpecError(f"{spec!r}: parameter {item!r} is not written key=value (key a Python name)")
        if key in params:
            raise SpecError(f"{spec!r}: parameter {key!r} is given twice")
        try:
            params[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError) as error:
            raise SpecError(
                f"{spec!r}: the value of parameter {key!r}, {value!r}, is not a Python literal "
                "(a number, True/False/None, a quoted string, a list or tuple of them)"
            ) from error
    return base, tuple(params.items())


def _identifier(name: str, spec: str) -> str:
    if not name.isidentifier():
        raise SpecError(f"{spec!r}: {name!r} is not a Python name (the attribute after the last ':')")
    return name


# ---------------------------------------------------------------------------------------------- building
def resolve_policy(spec: str, context: PolicyContext, seed: int | None = None) -> Policy:
    """Build the policy ``spec`` names for the game of ``context`` (one instance plays one seat)."""
    return _resolve(spec, context, seed)[0]


def fingerprinted_policy(spec: str, context: PolicyContext, seed: int | None = None) -> tuple[Policy, str]:
    """The policy ``spec`` names and the fingerprint of what plays (see :func:`fingerprint`)."""
    policy, module_name = _resolve(spec, context, seed)
    return policy, fingerprint(parse_spec(spec), policy, module_name)


def _resolve(spec: str, context: PolicyContext, seed: int | None) -> tuple[Policy, str | None]:
    """The policy and the name of the module its spec named (file and module specs)."""
    parsed = parse_spec(spec)
    if parsed.kind == "registered":
        return _registered(parsed.target, context, seed), None
    if parsed.kind == "prefix":
        return SPEC_PREFIXES[parsed.target].loader(parsed.attribute, context, seed), None
    try:
        module = load_file(parsed.target, spec) if parsed.kind == "file" else load_module(parsed.target, spec)
    except PolicyCodeError as error:
        raise SpecError(str(error)) from error
    if not hasattr(module, parsed.attribute):
        public = sorted(n for n in vars(module) if not n.startswith("_"))
        raise SpecError(f"{spec!r}: {parsed.target} has no {parsed.attribute!r} (it defines {public})")
    return _build(getattr(module, parsed.attribute), parsed, context, seed), module.__name__


def make_policy(spec: str, env_or_context: Any, seed: int | None = None) -> Policy:
    """Build the policy ``spec`` names for an env (wrapped or raw) or a :class:`PolicyContext`."""
    context = env_or_context if isinstance(env_or_context, PolicyContext) else PolicyContext.from_env(env_or_context)
    return resolve_policy(spec, context, seed)


def _registered(name: str, context: PolicyContext, seed: int | None) -> Policy:
    if name not in POLICIES:
        raise SpecError(f"unknown policy {name!r}; registered for {context.env_id}: {policy_names(context.env_id)}")
    game, factory = POLICIES[name]
    if game is not None and game != game_name(context.env_id):
        raise SpecError(f"policy {name!r} plays {game}, not {context.env_id}")
    return factory(context, seed)


def _build(target: Any, parsed: PolicySpec, context: PolicyContext, seed: int | None) -> Policy:
    params = dict(parsed.params)
    seed = params.pop("seed", seed)
    name = parsed.attribute
    try:
        if parsed.kind == "legacy":
            built = target(context, seed, **params)
        elif isinstance(target, type) or _is_factory(target):
            built = target(**_context_and_seed(target, context, seed), **params)
        elif callable(target) and not hasattr(target, "act"):
            built = functools.partial(target, **params) if params else target
        elif params:
            raise SpecError(f"{parsed.text!r}: {name} is an object; parameters need a class or a factory")
        else:
            built = copy.deepcopy(target)
    except TypeError as error:
        raise SpecError(f"{parsed.text!r}: calling {name} failed: {error}") from error
    if isinstance(built, Policy):
        return built
    try:
        return ForeignPolicy(built, context, seed, name=str(getattr(built, "name", "") or name))
    except TypeError as error:
        raise SpecError(f"{parsed.text!r}: {name} gave {type(built).__name__}: {error}") from error


def _is_factory(target: Any) -> bool:
    if not inspect.isfunction(target):
        return False
    parameters = list(inspect.signature(target).parameters)
    return bool(parameters) and parameters[0] == "context"


def _context_and_seed(target: Any, context: PolicyContext, seed: int | None) -> dict[str, Any]:
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return {}
    given = {"context": context, "seed": seed}
    return {key: value for key, value in given.items() if key in parameters}


# ---------------------------------------------------------------------------------------------- prefixes
def _checkpoint(greedy: bool) -> SpecLoader:
    def load(path: str, context: PolicyContext, seed: int | None) -> Policy:
        from cardenvs.agents.learned.players import checkpoint_policy  # NumPy only; torch just for a bare .zip

        return checkpoint_policy(path, context, seed, greedy=greedy)

    return load


def _checkpoint_file(path: str) -> Path:
    from cardenvs.agents.learned.weights import checkpoint_file

    return checkpoint_file(path)


def _zoo(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.learned.players import zoo_policy
    from cardenvs.agents.zoo import ZooError

    try:
        return zoo_policy(argument, context, seed)
    except ZooError as error:
        raise SpecError(str(error)) from error


def _zoo_weights(argument: str) -> Path:
    from cardenvs.agents.zoo import zoo_card

    return zoo_card(argument).weights


def _equilibrium(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.equilibria import equilibrium_policy

    return equilibrium_policy(argument, context, seed)


def _equilibrium_table(argument: str) -> Path:
    from cardenvs.agents.equilibria import table_file

    return table_file(argument)


def _search(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.search import search_policy

    return search_policy(argument, context, seed, resolve_policy)  # rollout and prior are specs too


def _llm(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.llm import llm_policy

    try:
        return llm_policy(argument, context, seed)
    except ValueError as error:
        raise SpecError(str(error)) from error


def _fastbot(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.fast_bots import fast_policy  # needs JAX

    try:
        return fast_policy(argument, context, seed)
    except ValueError as error:  # a name with no array program, or another game's bot
        raise SpecError(str(error)) from error


@dataclass(frozen=True)
class SpecPrefix:
    """How ``prefix:argument`` specs are built, and the data file they play from, if any."""

    loader: SpecLoader
    played_file: Callable[[str], Path] | None = None
    """The file of an argument whose bytes play (a checkpoint, a zoo agent's weights, an equilibrium table): its
    bytes are part of the fingerprint."""


SPEC_PREFIXES: dict[str, SpecPrefix] = {
    "ckpt": SpecPrefix(_checkpoint(greedy=False), _checkpoint_file),
    "ckpt-greedy": SpecPrefix(_checkpoint(greedy=True), _checkpoint_file),
    "zoo": SpecPrefix(_zoo, _zoo_weights),
    "equilibrium": SpecPrefix(_equilibrium, _equilibrium_table),
    "search": SpecPrefix(_search),
    "llm": SpecPrefix(_llm),
    "fastbot": SpecPrefix(_fastbot),
}
"""Every spec prefix (besides the older ``py:`` form): ``ckpt:PATH`` samples a trained checkpoint's policy
(:mod:`agents.learned.players`), ``ckpt-greedy:PATH`` plays its argmax; ``zoo:GAME/NAME`` a shipped agent
(:mod:`agents.zoo`); ``equilibrium:<game>-small`` an exact equilibrium of a small variant (:mod:`agents.equilibria`);
``search:?simulations=200&rollout=NAME`` the ISMCTS agent (:mod:`agents.search`); ``llm:MODEL?base_url=URL`` a
language model (:mod:`agents.llm`); ``fastbot:NAME`` the array-program twin of the rule bot ``NAME``
(:mod:`agents.fast_bots`, needs JAX)."""

LEGACY_PREFIX = "py"
"""The older ``py:package.module:Factory`` form."""


def register_spec_prefix(prefix: str, loader: SpecLoader) -> None:
    """Make ``prefix:argument`` specs resolve through ``loader`` (replacing the prefix's loader if it has one)."""
    if not prefix.replace("-", "_").isidentifier() or prefix == LEGACY_PREFIX:
        raise ValueError(f"a spec prefix is an identifier other than {LEGACY_PREFIX!r}, got {prefix!r}")
    SPEC_PREFIXES[prefix] = SpecPrefix(loader)


# ---------------------------------------------------------------------------------------------- fingerprints
def fingerprint(parsed: PolicySpec, policy: Policy, module_name: str | None = None) -> str:
    """A hash of what plays: the spec (parameters sorted); the source of the file or module it names
    (``module_name``); the source of every module that defines a class of the policy (its own, its bases', a
    wrapped object's) or a function policy; the module of a registered factory; a checkpoint's bytes; what the
    policy says it plays from besides (:meth:`~agents.base.Policy.played_data`); and the fingerprints of the policies
    it plays through (:meth:`~agents.base.Policy.inner_policies`)."""
    digest = hashlib.sha256(parsed.canonical().encode())
    for part in _fingerprinted_bytes(parsed, policy, module_name):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:16]


def _fingerprinted_bytes(parsed: PolicySpec, policy: Policy, module_name: str | None) -> Iterator[bytes]:
    modules = [module_name] if module_name else []
    if parsed.kind == "registered":
        modules.append(POLICIES[parsed.target][1].__module__)
    elif parsed.kind == "prefix" and (played_file := SPEC_PREFIXES[parsed.target].played_file) is not None:
        yield played_file(parsed.attribute).read_bytes()
    modules += [c.__module__ for c in type(policy).__mro__]
    inner = policy.inner if isinstance(policy, ForeignPolicy) else None
    if isinstance(inner, functools.partial):
        inner = inner.func
    if inner is not None:
        modules += [inner.__module__] if inspect.isfunction(inner) else [c.__module__ for c in type(inner).__mro__]
    for name in dict.fromkeys(modules):
        source = module_source(name)
        if source is not None:
            yield source
    yield from policy.played_data()
    for spec, played_through in policy.inner_policies():
        yield fingerprint(parse_spec(spec), played_through).encode()
