"""Every registered game has a docs page whose observation and action tables match the code; the benchmark page's
code runs; every snippet of README.md and docs/ works from a folder outside the checkout.

The snippet tests start a fresh interpreter in a temporary folder (tests/snippet_driver.py), so they see what a user
of the installed package sees:

- every Python block (```python) is compiled, its imports resolved, and run, page by page in one namespace;
  a block that begins ``# name.py`` is a file the page asks the reader to write, put beside the others. A block
  too long to run here (training, JAX compiling, thousands of games, a server) carries the marker
  ``<!-- check-only: why -->`` on the line before its fence: it is compiled and its imports run, and the test
  reports it (a warning naming each such block);
- every shell snippet (```bash, and fenced or indented blocks that begin with a ``python``, ``pip`` or ``mkdir``
  command) runs in bash with stand-ins for ``python`` (it records each command) and ``pip`` (it does nothing);
  each recorded command then runs until its arguments parse,
  which checks the module exists and takes those arguments (none of them trains or plays here). ``python3 run.py
  TASK`` and ``python -m tests.…`` are commands of a checkout: their tasks and arguments are checked there.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import textwrap
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from cardenvs.tables import tables

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROOT = DOCS.parent
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
DRIVER = Path(__file__).resolve().parent / "snippet_driver.py"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_docs_page_tables_match_the_code(env_id: str) -> None:
    definition = cardenvs.definition(env_id)
    page = DOCS / "games" / ((definition.docs_page or definition.name) + ".md")
    assert page.exists(), f"{env_id} has no docs page {page}"
    text = page.read_text()
    for table in tables(env_id):
        assert table in text, f"{page} is out of date: paste the tables of `python -m cardenvs.tables {env_id}`"
    headings = [line.lower() for line in text.splitlines() if line.startswith("## ")]
    for topic in ("rules", "options", "observation", "actions", "rewards", "version history"):
        assert any(topic in h for h in headings), f"{page} lacks a section on {topic}"


def python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a Markdown page, in order."""
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)


def test_the_benchmark_page_runs_from_a_policy_file_to_its_score_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardenvs.agents.benchmark import suites

    page = DOCS / "benchmark.md"
    blocks = python_blocks(page)
    files = {m.group(1): b for b in blocks if (m := re.match(r"# (\w+\.py)\n", b))}  # policy files of the page
    assert "mybluff.py" in files
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(suites, "GAMES_V2", dict.fromkeys(suites.GAMES_V2, 12))  # the page's code at a smoke budget
    namespace: dict[str, Any] = {}
    for block in blocks:
        if block not in files.values():
            assert len(block.strip().splitlines()) < 10
            exec(compile(block, str(page), "exec"), namespace)
    card = namespace["card"]
    assert card.overall.games == len(suites.OPPONENTS_V2["verish_ne_verish"]) * 12 and card.fingerprint
    assert "docs/benchmark.md" in (DOCS.parent / "README.md").read_text()


@dataclass(frozen=True)
class Snippet:
    """A code block of a page: ``kind`` is "python" or "shell"; ``check_only`` the reason its marker gives."""

    page: str
    line: int
    kind: str
    code: str
    check_only: str | None = None


FENCE = re.compile(r"^```(\w*)\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)
INDENTED = re.compile(r"(?:(?<=\n\n)|\A)((?: {4}.*\n)+)")
CHECK_ONLY = re.compile(r"<!-- check-only: (.+?) -->\n$")
COMMAND = re.compile(r"(cd \S+ && )?(\w+=\S* )*(nice -n \d+ )?(python3?|pip|mkdir|for) ")
SHIMS = ("python", "python3", "pip")
"""What a shell snippet runs instead of the real commands: python records its arguments, pip does nothing."""


def is_command(code: str) -> bool:
    """Whether a block is shell commands: its first line that is not a comment starts with one."""
    lines = [line for line in code.splitlines() if line.strip() and not line.startswith("#")]
    return bool(lines) and COMMAND.match(lines[0]) is not None


def snippets(page: Path) -> list[Snippet]:
    """The Python and shell snippets of a Markdown page, in order."""
    text, name = page.read_text(), str(page.relative_to(ROOT))
    found = []
    fenced = list(FENCE.finditer(text))
    for match in fenced:
        language, code = match.group(1), match.group(2)
        kind = "python" if language == "python" else "shell" if language in ("bash", "sh") or is_command(code) else ""
        if kind:
            marker = CHECK_ONLY.search(text, 0, match.start())
            reason = marker.group(1) if marker and marker.end() == match.start() else None
            found.append(Snippet(name, text.count("\n", 0, match.start()) + 1, kind, code, reason))
    for match in INDENTED.finditer(text):
        code = textwrap.dedent(match.group(1))
        inside_a_fence = any(f.start() < match.start() < f.end() for f in fenced)
        if is_command(code) and not inside_a_fence:
            found.append(Snippet(name, text.count("\n", 0, match.start()) + 1, "shell", code))
    return sorted(found, key=lambda s: s.line)


SNIPPETS = [snippet for page in PAGES for snippet in snippets(page)]


def drive(mode: str, job: Any, folder: Path, cwd: Path) -> Any:
    """Run tests/snippet_driver.py on ``job`` in a fresh interpreter started in ``cwd``."""
    source, out = folder / f"{mode}-job.json", folder / f"{mode}-out.json"
    source.write_text(json.dumps(job))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    command = [sys.executable, "-c", DRIVER.read_text(), mode, str(source), str(out)]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


def test_the_snippets_are_found_on_every_page_that_has_code() -> None:
    kinds = {(s.page, s.kind) for s in SNIPPETS}
    assert ("README.md", "python") in kinds and ("README.md", "shell") in kinds
    assert ("docs/fast.md", "shell") in kinds  # the indented benchmark commands
    assert ("docs/rllib.md", "shell") in kinds  # fenced without a language
    assert all(s.check_only is None for s in SNIPPETS if s.kind == "shell"), "shell snippets are all checked alike"


def test_every_python_snippet_runs_from_outside_the_checkout(tmp_path: Path) -> None:
    files = {}
    for s in SNIPPETS:
        first = s.code.splitlines()[0]
        if s.kind == "python" and re.fullmatch(r"# \w+\.py", first):
            files[first[2:]] = s.code
    pages: dict[str, list[dict[str, Any]]] = {}
    for s in SNIPPETS:
        if s.kind == "python":
            pages.setdefault(s.page, []).append({"line": s.line, "code": s.code, "run": s.check_only is None})
    outside = tmp_path / "outside"
    outside.mkdir()
    results = drive("python", {"pages": pages, "files": files}, tmp_path, outside)
    failures = [f"{page}:{line}: {problem}" for page, rows in results.items() for line, problem in rows if problem]
    assert not failures, "\n".join(failures)
    checked_only = [f"{s.page}:{s.line} ({s.check_only})" for s in SNIPPETS if s.check_only]
    warnings.warn(f"{len(checked_only)} snippets only compiled and import-checked: " + "; ".join(checked_only),
                  stacklevel=1)


def recorded_commands(snippet: Snippet, folder: Path) -> tuple[list[list[str]], str]:
    """Run a shell snippet in bash with ``SHIMS`` in place of those commands; the python commands it recorded, and
    what went wrong ("" if nothing)."""
    script, record, shims = folder / "snippet.sh", folder / "record", folder / "bin"
    script.write_text(snippet.code + "\nwait\n")  # a command sent to the background (``&``) records too
    shutil.rmtree(record, ignore_errors=True)
    record.mkdir()
    shims.mkdir(exist_ok=True)
    # one file per call, so a background command and the next one never interleave their arguments
    record_arguments = '#!/bin/sh\n: > "$RECORD/$$"\nfor a in "$@"; do printf \'%s\\0\' "$a" >> "$RECORD/$$"; done\n'
    for name in SHIMS:
        shim = shims / name
        shim.write_text(record_arguments if name.startswith("python") else "#!/bin/sh\n")
        shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}", "RECORD": str(record)}
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    if done.returncode == 0:
        done = subprocess.run(["bash", str(script)], cwd=folder, env=env, capture_output=True, text=True, timeout=60)
    calls = sorted(record.iterdir(), key=lambda path: path.stat().st_mtime_ns)
    commands = [call.read_text().split("\0")[:-1] for call in calls]
    if done.returncode == 0 and not commands:
        return commands, "runs no python command"
    return commands, done.stderr.strip().replace(str(script), "bash") if done.returncode else ""


def test_every_shell_snippet_parses_from_outside_the_checkout(tmp_path: Path) -> None:
    import runpy

    tasks = runpy.run_path(str(ROOT / "run.py"))["TASKS"]
    commands: dict[tuple[str, ...], list[str]] = {}  # arguments -> where they appear
    problems = []
    for s in (s for s in SNIPPETS if s.kind == "shell"):
        recorded, problem = recorded_commands(s, tmp_path)
        if problem:
            problems.append(f"{s.page}:{s.line}: {problem}")
        for argv in recorded:
            if argv[:1] == ["run.py"]:
                if argv[1:2] == [] or argv[1] not in tasks:
                    problems.append(f"{s.page}:{s.line}: run.py has no task {shlex.join(argv[1:2])}")
            else:
                commands.setdefault(tuple(argv), []).append(f"{s.page}:{s.line}")
    in_checkout = [argv for argv in commands if argv[1:2] and argv[1].startswith("tests.")]
    outside = tmp_path / "outside"
    outside.mkdir()
    for group, cwd in ((in_checkout, ROOT), ([a for a in commands if a not in in_checkout], outside)):
        for argv, problem in zip(group, drive("commands", [list(a) for a in group], tmp_path, cwd), strict=True):
            if problem:
                problems.append(f"{', '.join(commands[argv])}: python {shlex.join(argv)}: {problem}")
    assert not problems, "\n".join(problems)
