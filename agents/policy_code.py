"""Policy code named by a spec (``path/to/file.py:Name``, ``package.module:Name``): run once per content of its
source, and the source bytes each module was run from, which fingerprints hash (:func:`agents.specs.fingerprint`)."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import sys
import types
from pathlib import Path


class PolicyCodeError(ValueError):
    """A policy file or module that cannot be loaded; the message names the spec and what went wrong."""


_FILE_MODULES: dict[tuple[str, str], types.ModuleType] = {}
"""(resolved path, sha256 of its bytes) → the module run from those bytes."""
_SOURCES: dict[str, bytes] = {}
"""Module name → the bytes it was run from (file specs) or read from at import (module specs)."""


def load_file(path_text: str, spec: str) -> types.ModuleType:
    """The module of a policy file, run once per content: an edited file is a new module, the old one stays."""
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise PolicyCodeError(f"{spec!r}: no file {path_text} (looked for {path})")
    source = path.read_bytes()
    key = (str(path), hashlib.sha256(source).hexdigest())
    if key not in _FILE_MODULES:
        name = f"_policy_file_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{key[1][:12]}"
        module = types.ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module  # classes defined in it (dataclasses, pickling) look their module up here
        sys.path.insert(0, str(path.parent))
        try:
            exec(compile(source, str(path), "exec"), module.__dict__)
        except Exception as error:
            del sys.modules[name]
            raise PolicyCodeError(f"{spec!r}: running {path} failed: {type(error).__name__}: {error}") from error
        finally:
            sys.path.remove(str(path.parent))
        _FILE_MODULES[key] = module
        _SOURCES[name] = source
    return _FILE_MODULES[key]


def load_module(module_name: str, spec: str) -> types.ModuleType:
    """An importable module, imported again if its source file changed since it was imported."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PolicyCodeError(
            f"{spec!r}: cannot import {module_name} ({error}); is it on sys.path? "
            "A file is written path/to/file.py:Name"
        ) from error
    current = read_source(module)
    if module_name in _SOURCES and current is not None and current != _SOURCES[module_name]:
        module = importlib.reload(module)
    if current is not None:
        _SOURCES[module_name] = current
    return module


def read_source(module: types.ModuleType) -> bytes | None:
    try:
        path = inspect.getsourcefile(module)
    except TypeError:  # a built-in module
        return None
    return Path(path).read_bytes() if path and Path(path).is_file() else None


def module_source(module_name: str) -> bytes | None:
    if module_name.split(".")[0] in sys.stdlib_module_names or module_name == "builtins":
        return None
    if module_name in _SOURCES:
        return _SOURCES[module_name]
    module = sys.modules.get(module_name)
    return None if module is None else read_source(module)
