"""The tournament report: Markdown and HTML with plots, written next to the database.

Files (for a database ``DIR/NAME.sqlite``): ``DIR/NAME-report.md``, ``DIR/NAME-report.html`` and the plots
``DIR/NAME-ratings.png`` (OpenSkill μ with 95% intervals and mean scores with their intervals),
``DIR/NAME-head_to_head.png`` (heatmap) and ``DIR/NAME-metrics.png`` (game metrics with intervals). Plots use
matplotlib's Agg canvas through ``Figure`` objects (no pyplot, no display needed).
"""

from __future__ import annotations

import contextlib
import html
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.notes import interval_notes, marked
from cardenvs.agents.tournament.plots import plot_head_to_head, plot_metrics, plot_ratings
from cardenvs.agents.tournament.ratings import Rating
from cardenvs.agents.tournament.stats import Estimate, TournamentStats
from cardenvs.agents.tournament.storage import stored_faults

DOCS = "docs/tournaments.md"
REPLAY_PORT = 8765
"""Port of the replay server the report's links to stored games point at."""
REPLAY_URL = "http://127.0.0.1:{port}/?deal={deal}&seating={seating}"


MARKDOWN_SPECIAL = "\\`*[]<>|~&$"
"""Characters that Markdown (or GitHub's math and HTML passthrough) would read as markup in a table cell;
``_`` is escaped only where it could start or end emphasis (not inside a word, as in ``verish_ne_verish``)."""


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown inline text: markup characters backslash-escaped, line breaks as spaces
    (labels and specs are the user's own strings and must not break a table or inject HTML)."""
    flat = " ".join(text.splitlines())
    out = []
    for i, c in enumerate(flat):
        inside_word = 0 < i < len(flat) - 1 and flat[i - 1].isalnum() and flat[i + 1].isalnum()
        out.append("\\" + c if c in MARKDOWN_SPECIAL or (c == "_" and not inside_word) else c)
    return "".join(out)


@dataclass
class Table:
    """A table rendered both as Markdown and as HTML."""

    headers: list[str]
    rows: list[list[str]]

    def markdown(self) -> str:
        lines = ["| " + " | ".join(map(markdown_text, self.headers)) + " |", "|" + "---|" * len(self.headers)]
        lines += ["| " + " | ".join(map(markdown_text, row)) + " |" for row in self.rows]
        return "\n".join(lines)

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = "".join("<tr>" + "".join(f"<td>{_cell_html(c)}</td>" for c in row) + "</tr>" for row in self.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass
class Section:
    """A report section: a title, paragraphs, tables and images, in that order."""

    title: str
    paragraphs: list[str]
    tables: list[Table]
    images: list[str]


def _summary(stats: TournamentStats, ratings: dict[str, Rating]) -> Table:
    pct = round(stats.confidence * 100)
    rows = []
    for label in stats.ranked():
        s = stats.entrant_stats[label]
        r = ratings[label]
        rows.append(
            [
                label,
                str(s.seat_games),
                marked(s.score),
                marked(s.win_rate),
                marked(s.place, 2),
                f"{r.mu:.2f} ± {r.sigma:.2f}",
                f"{r.ordinal:.2f}",
            ]
        )
    headers = [
        "policy",
        "seats played",
        f"mean score [{pct}% CI]",
        f"win rate [{pct}% CI]",
        f"mean place [{pct}% CI]",
        "OpenSkill μ ± σ",
        "ordinal μ−3σ",
    ]
    return Table(headers, rows)


def _head_to_head(stats: TournamentStats) -> Table:
    labels = stats.ranked()
    rows = []
    for a in labels:
        cells = [a]
        for b in labels:
            e = stats.head_to_head.get((a, b))
            cells.append("—" if a == b or e is None else f"{marked(e)} (n={int(e.n)})")
        rows.append(cells)
    return Table(["row beats column", *labels], rows)


def _differences(stats: TournamentStats) -> Table:
    """Every pair, the better-ranked first: paired difference of mean scores, the Holm-adjusted p-value and the
    verdict it gives."""
    labels = stats.ranked()
    rows = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            e = _difference_or_none(stats, a, b)
            if e is None:
                continue
            h2h = stats.head_to_head.get((a, b))
            p = stats.adjusted_p.get((a, b), stats.adjusted_p.get((b, a), math.nan))
            verdict = (
                "no interval"
                if not e.has_interval
                else "not separated"
                if not stats.separated(a, b)
                else f"{a} better"
                if e.value > 0
                else f"{b} better"
            )
            p_text = "—" if math.isnan(p) else f"{p:.3f}"
            rows.append([f"{a} − {b}", marked(e), "—" if h2h is None else marked(h2h), p_text, verdict])
    pct = round(stats.confidence * 100)
    headers = [
        "pair",
        f"score difference [{pct}% CI]",
        f"first beats second [{pct}% CI]",
        "p (Holm)",
        "verdict (Holm)",
    ]
    return Table(headers, rows)


def _ranking(stats: TournamentStats) -> Table:
    """Entrants by mean score, each with how it stands against the next: ``>`` where the Holm-adjusted paired
    difference separates them, ``≈`` where it does not (or there is no interval yet)."""
    labels = [label for label in stats.ranked() if not math.isnan(stats.entrant_stats[label].score.value)]
    rows = []
    for i, label in enumerate(labels):
        relation = ""
        if i + 1 < len(labels):
            relation = f"{'>' if stats.separated(label, labels[i + 1]) else '≈'} {labels[i + 1]}"
        rows.append([str(i + 1), label, relation])
    return Table(["rank", "policy", "against the next"], rows)


def _difference_or_none(stats: TournamentStats, a: str, b: str) -> Estimate | None:
    return stats.difference(a, b) if (a, b) in stats.differences or (b, a) in stats.differences else None


def _seats(stats: TournamentStats) -> Table:
    return Table(
        ["seat", "mean score", "win rate"], [[str(s.seat), marked(s.score), marked(s.win_rate)] for s in stats.seats]
    )


def _metrics(stats: TournamentStats) -> Table:
    ratios = stats.metric_ratios
    rows = [[label] + [marked(stats.entrant_stats[label].metrics[m.name]) for m in ratios] for label in stats.ranked()]
    return Table(["policy", *(m.name for m in ratios)], rows)


def _needed(stats: TournamentStats) -> Table:
    rows = []
    for label in stats.ranked():
        s = stats.entrant_stats[label]
        needed = "—" if s.games_needed is None else f"{s.games_needed:,}"
        low, high = s.games_needed_range
        spread = f"{low:,}–{high:,}" if high else "—"
        width = f"{s.score.width:.3f}" if s.score.has_interval else f"n/a ({s.score.units} deals)"
        rows.append([label, width, needed, spread])
    headers = ["policy", "score interval width now", f"games for width {stats.target_width:g}", "80% range"]
    return Table(headers, rows)


def _to_detect(stats: TournamentStats) -> Table:
    rows = []
    for (a, b), games in stats.games_to_detect.items():
        rows.append([f"{a} − {b}", marked(stats.differences[(a, b)]), "—" if games is None else f"{games:,}"])
    return Table(["pair", "score difference now", f"games to detect ±{stats.detect_difference:g}"], rows)


def build_sections(
    stats: TournamentStats, ratings: dict[str, Rating], settings: dict[str, Any], images: dict[str, str]
) -> list[Section]:
    """The report's content, shared by the Markdown and HTML renderings."""
    pct = round(stats.confidence * 100)
    entrants = Table(["policy", "spec"], [[label, spec] for label, spec in settings["entrants"]])
    overview = [
        f"Game `{settings['env_id']}` with options `{settings['options'] or {}}`; seating scheme "
        f"`{settings['scheme']}` over slots {settings['slots']}; tournament seed {settings['seed']}.",
        f"{stats.num_games} games in {stats.num_deals} duplicate deals; {stats.truncated} truncated by the step cap.",
        *interval_notes(stats, settings.get("policy_seeds", "common"), DOCS),
    ]
    sections = [
        Section("Settings", overview, [entrants], []),
        Section(
            "Results",
            [
                "Win rate: share of games with the best score at the table (a k-way tie counts 1/k). "
                "OpenSkill: Thurstone–Mosteller full-pairing model, ties rated as draws."
            ],
            [_summary(stats, ratings)],
            [images["ratings"]] if "ratings" in images else [],
        ),
        Section(
            "Paired differences",
            [
                "Ranking by mean score: `>` where the paired difference with the next policy is separated from 0 "
                "after Holm's adjustment for comparing every pair, `≈` where it is not (or there is no interval yet).",
                "Mean score of the first policy minus the second, each over every deal it played, differenced deal "
                "by deal (the luck of the deals both played cancels), and the share of their meetings the first won "
                "(ties ½). The intervals are unadjusted; the verdicts use Holm-adjusted p-values, which keep the "
                f"chance of any false verdict among all pairs below {100 - pct}%. Quote these intervals to compare "
                "two policies, not the overlap of their separate intervals.",
            ],
            [_ranking(stats), _differences(stats)],
            [],
        ),
        Section(
            "Head-to-head",
            [
                "Share of the games in which the row policy scored more than the column policy, "
                "ties counting ½; n is the number of such meetings."
            ],
            [_head_to_head(stats)],
            [images["head_to_head"]] if "head_to_head" in images else [],
        ),
        Section(
            "Seat-position bias",
            [
                "Mean score and win rate per seat over all policies: with duplicate deals each policy sits in each "
                "seat equally often, so differences between seats are the seat's own advantage."
            ],
            [_seats(stats)],
            [],
        ),
    ]
    if stats.metric_ratios:
        described = [f"`{m.name}`: {m.description}." for m in stats.metric_ratios]
        metric_images = [images["metrics"]] if "metrics" in images else []
        sections.append(Section("Game metrics", described, [_metrics(stats)], metric_images))
    sections.append(
        Section(
            "Games needed",
            [
                f"Games for the {pct}% interval of each mean score to have width {stats.target_width:g}: the "
                "standard error falls as 1/√deals and the t quantile with the degrees of freedom. The 80% range is "
                "the forecast's own uncertainty (the variance measured so far is itself an estimate).",
                f"Games for a paired difference of ±{stats.detect_difference:g} to be found (its interval excluding "
                "0) with 80% chance, from the variance of the difference measured so far (without Holm's "
                "adjustment).",
            ],
            [_needed(stats), _to_detect(stats)],
            [],
        )
    )
    return sections


def render_markdown(title: str, sections: Sequence[Section]) -> str:
    parts = [f"# {title}"]
    for s in sections:
        parts.append(f"## {s.title}")
        parts.extend(s.paragraphs)
        parts.extend(t.markdown() for t in s.tables)
        parts.extend(f"![{s.title}]({image})" for image in s.images)
    return "\n\n".join(parts) + "\n"


def render_html(title: str, sections: Sequence[Section]) -> str:
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:4px 8px;text-align:left}"
        "th{background:#eee}img{max-width:100%}code{background:#f4f4f4}"
    )
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{style}</style></head><body><h1>{html.escape(title)}</h1>",
    ]
    for s in sections:
        parts.append(f"<h2>{html.escape(s.title)}</h2>")
        parts.extend(f"<p>{_inline_code(p)}</p>" for p in s.paragraphs)
        parts.extend(t.html() for t in s.tables)
        parts.extend(f"<img src='{html.escape(image)}' alt='{html.escape(s.title)}'>" for image in s.images)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _cell_html(text: str) -> str:
    """A table cell; a cell holding only a local address becomes a link (the stored games' replays)."""
    if text.startswith(REPLAY_URL.split("{", 1)[0]) and " " not in text:
        return f"<a href='{html.escape(text)}'>{html.escape(text)}</a>"
    return html.escape(text)


def stored_games(db_path: Path, limit: int = 100) -> list[Section]:
    """A section linking to the replays of the games stored with their event logs (``--store-events``); none
    when the tournament kept no logs. The links open in the play page served by the command the section gives."""
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        keys = db.execute(
            "SELECT deal, seating FROM games WHERE events IS NOT NULL ORDER BY deal, seating LIMIT ?", (limit,)
        ).fetchall()
    if not keys:
        return []
    command = f"python -m cardenvs.experiments.play --replay {db_path} --port {REPLAY_PORT}"
    rows = [[str(d), str(s), REPLAY_URL.format(port=REPLAY_PORT, deal=d, seating=s)] for d, s in keys]
    more = f" (the first {limit})" if len(keys) == limit else ""
    paragraph = (
        f"Start `{command}` and open the address it prints once (it carries the server's secret token); then these "
        f"links open a game{more} in the same browser: step through it from any seat or with every hand shown."
    )
    return [Section("Stored games", [paragraph], [Table(["deal", "seating", "replay"], rows)], [])]


def faults_section(db_path: Path, limit: int = 50) -> list[Section]:
    """A section listing the games that failed (see :mod:`agents.tournament.faults`); none when none did."""
    faults = stored_faults(db_path)
    if not faults:
        return []
    rows = [
        [str(deal), str(seating), "—" if seat is None else str(seat), policy or "—", kind, _shortened(message), when,
         "yes" if played else "no"]
        for deal, seating, seat, policy, kind, message, when, played in faults[-limit:]
    ]  # fmt: skip
    missing = len({(row[0], row[1]) for row in faults if not row[-1]})
    listed = f" (the last {limit} listed)" if len(faults) > limit else ""
    paragraph = (
        f"{len(faults)} fault(s){listed}; each stopped the tournament, keeping the games stored before it. "
        f"{missing} failed game(s) are still missing from the statistics above (`played since`: a later run played "
        "the game): fix the policy, or raise `--move-timeout`, and run the tournament again to play them."
    )
    headers = ["deal", "seating", "seat", "policy", "kind", "message", "when (UTC)", "played since"]
    return [Section("Faults", [paragraph], [Table(headers, rows)], [])]


def _shortened(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _inline_code(text: str) -> str:
    pieces = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


def write_report(
    stats: TournamentStats, ratings: dict[str, Rating], settings: dict[str, Any], db_path: str | Path
) -> Path:
    """Write the Markdown and HTML reports and their plots next to ``db_path``; returns the Markdown path."""
    db = Path(db_path)
    stem, folder = db.stem, db.parent
    images: dict[str, str] = {}
    if stats.num_games:
        plots = {
            "ratings": lambda p: plot_ratings(stats, ratings, p),
            "head_to_head": lambda p: plot_head_to_head(stats, p),
        }
        if stats.metric_ratios:
            plots["metrics"] = lambda p: plot_metrics(stats, p)
        for name, plot in plots.items():
            plot(folder / f"{stem}-{name}.png")
            images[name] = f"{stem}-{name}.png"
    title = f"Tournament: {settings['env_id'].split('/')[-1]}"
    sections = build_sections(stats, ratings, settings, images) + stored_games(db) + faults_section(db)
    markdown = folder / f"{stem}-report.md"
    markdown.write_text(render_markdown(title, sections), encoding="utf-8")
    (folder / f"{stem}-report.html").write_text(render_html(title, sections), encoding="utf-8")
    return markdown
