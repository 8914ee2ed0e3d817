"""Checks the docs' snippets in a fresh interpreter started outside the checkout; tests/test_docs.py drives it.

It runs as ``python -c "<this file's text>" MODE IN.json OUT.json`` from a temporary folder, so nothing of the
checkout is on ``sys.path`` and every import goes through the installed ``cardenvs``. It imports nothing from tests/.

- ``python``: IN is ``{"pages": {page: [{"line", "code", "run"}, …]}, "files": {name: code}}``. Each page gets a
  fresh folder holding the docs' policy files (``files``) and one namespace; each block of the page is compiled,
  its imports resolved (``cardenvs`` modules imported, other libraries found), then executed unless ``run`` is
  false (its import statements still run, for the blocks after it). OUT: ``{page: [[line, problem or ""], …]}``.
- ``commands``: IN is a list of argument lists ``["-m", module, arg, …]``; each module runs as ``__main__`` until
  its argument parsing succeeds (or argparse refuses, or ``--help`` exits). OUT: ``[problem or "", …]``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import io
import json
import os
import runpy
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any


def import_problems(tree: ast.Module, local: set[str]) -> list[str]:
    """What does not resolve among the absolute imports of ``tree``."""
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            wanted = [(node.module, alias.name) for alias in node.names]
        else:
            continue
        for module, name in wanted:
            top = module.split(".")[0]
            if top in local:
                continue
            if top != "cardenvs":  # another library: present is enough (importing torch or Ray here costs seconds)
                if importlib.util.find_spec(top) is None:
                    problems.append(f"{top} is not installed")
                continue
            try:
                imported = importlib.import_module(module)
            except ImportError as error:
                problems.append(f"import {module}: {error}")
                continue
            if name in (None, "*") or hasattr(imported, name):
                continue
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                problems.append(f"{module} has no {name}")
    return problems


def check_page(blocks: list[dict[str, Any]], files: dict[str, str], folder: Path) -> list[list[Any]]:
    """Compile, resolve and (where asked) run one page's blocks in order, in one namespace, from ``folder``."""
    for name, code in files.items():
        (folder / name).write_text(code)
    local = {Path(name).stem for name in files}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    results = []
    os.chdir(folder)
    for block in blocks:
        try:
            tree = ast.parse(block["code"])
            code = compile(tree, f"<line {block['line']}>", "exec")
        except SyntaxError as error:
            results.append([block["line"], f"does not compile: {error}"])
            continue
        problems = import_problems(tree, local)
        if not problems:
            imports = ast.Module([node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)], [])
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    exec(code if block["run"] else compile(imports, "<imports>", "exec"), namespace)
            except Exception:
                problems.append(traceback.format_exc(limit=-3).strip().splitlines()[-1])
        results.append([block["line"], "; ".join(problems)])
    return results


class Parsed(Exception):
    """The command's arguments parsed: stop before it does its work."""


def parse_problem(argv: list[str]) -> str:
    """Run ``python -m module args…`` up to its argument parsing; "" when argparse accepted the arguments."""
    if argv[:1] != ["-m"] or len(argv) < 2:
        return f"not a python -m command: {argv}"
    module, arguments = argv[1], argv[2:]
    parse_args, parse_known_args = argparse.ArgumentParser.parse_args, argparse.ArgumentParser.parse_known_args
    depth: list[int] = []

    def parse_then_stop(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        depth.append(1)
        try:
            parse_args(self, *args, **kwargs)
        finally:
            depth.pop()
        raise Parsed

    def parse_known_then_stop(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        result = parse_known_args(self, *args, **kwargs)
        if not depth:  # a sub-parser's call inside parse_args goes on
            raise Parsed
        return result

    argparse.ArgumentParser.parse_args = parse_then_stop  # type: ignore[method-assign]
    argparse.ArgumentParser.parse_known_args = parse_known_then_stop  # type: ignore[method-assign]
    sys.argv = [module, *arguments]
    errors = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except Parsed:
        return ""
    except SystemExit as exit:
        return "" if exit.code in (0, None) else f"exit {exit.code}: {errors.getvalue().strip().splitlines()[-1:]}"
    except Exception:
        return traceback.format_exc(limit=-2).strip().splitlines()[-1]
    finally:
        argparse.ArgumentParser.parse_args = parse_args  # type: ignore[method-assign]
        argparse.ArgumentParser.parse_known_args = parse_known_args  # type: ignore[method-assign]
    return "ran to its end without parsing arguments"


def main(mode: str, source: Path, out: Path) -> None:
    job = json.loads(source.read_text())
    if mode == "python":
        results: Any = {}
        for page, blocks in job["pages"].items():
            folder = Path(tempfile.mkdtemp(prefix="page-", dir=source.parent))
            results[page] = check_page(blocks, job["files"], folder)
    else:
        results = [parse_problem(argv) for argv in job]
    out.write_text(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]))
