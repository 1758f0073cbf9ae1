"""``calibrate``: how well does my grader agree with answers a person labelled?

Grades the labelled set that ships with the package (or ``--set FILE``) with
the offline keyword grader and, when an endpoint is configured, with the
configured grader (the model, with the usual offline fallback), then prints
their agreement with the labels side by side and a verdict
(``interviewer.calibration_report`` has the rules).  Progress goes to stderr;
Ctrl+C stops between or during grades and still prints, and saves, what was
graded, marked partial.  The result is saved in the user data dir for the
home screen.  Neither the output nor the saved file ever holds the API key.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interviewer.commands import CommandError, Parser, SubParsers, add_command
from interviewer.commands._common import grader_for, load_library_for
from interviewer.dimensions import DIMENSION_TITLES, DIMENSIONS

if TYPE_CHECKING:
    from interviewer.calibration_report import Outcome
    from interviewer.config import Settings
    from interviewer.grading.types import SessionGrader

NO_ENDPOINT = ("no endpoint configured (--base-url or INTERVIEWER_BASE_URL; --offline is set or none is): "
               "reporting the offline grader alone")


def register(sub: SubParsers) -> None:
    add_command(sub, "calibrate", calibrate,
                "measure how well the configured grader and the offline grader agree with labelled answers",
                _arguments)


def _arguments(p: Parser) -> None:
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--limit", type=int, metavar="N",
                   help="grade only N answers, spread evenly over the set (a quick look; the verdict is weaker)")
    p.add_argument("--set", type=Path, metavar="FILE", dest="labelled",
                   help="a labelled set of your own (same YAML format) instead of the shipped one")


def spread(items: Sequence[Any], limit: int | None) -> list[Any]:
    """``limit`` items evenly spaced over ``items`` (in order), so a short run still covers many questions."""
    if limit is None or limit >= len(items):
        return list(items)
    if limit <= 0:
        raise CommandError("--limit must be at least 1", code=2)
    return [items[i * len(items) // limit] for i in range(limit)]


class Progress:
    """``graded 12/76 (offline)`` on stderr: rewritten in place on a terminal, every tenth line otherwise."""

    def __init__(self, total: int, label: Callable[[], str], stream: Any = None) -> None:
        self.total = total
        self.label = label
        """Asked at each line: the configured grader names its model only after the endpoint first answered."""
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, *_: object) -> None:
        text = f"graded {done}/{self.total} ({self.label()})"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done == self.total else ""))
        elif done % 10 == 0 or done == self.total:
            self.stream.write(text + "\n")
        self.stream.flush()

    def stopped(self) -> None:
        if self.tty:
            self.stream.write("\n")
        self.stream.write("interrupted: reporting the answers graded so far\n")
        self.stream.flush()


def calibrate(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.calibration import Result, grade_labelled
    from interviewer.calibration_report import Outcome, figures, save, verdict
    from interviewer.grading.errors import safe_url
    from interviewer.grading.offline.grader import KeywordGrader
    from interviewer.labelled import LabelledError, load_labelled, request_for
    from interviewer.paths import calibration_set

    set_path: Path = args.labelled or calibration_set()
    try:
        items = spread(load_labelled([set_path]), args.limit)
        library = load_library_for(settings, quiet=True)
        for item in items:  # fail before grading anything when an answer names a case the library lacks
            request_for(library, item)
    except LabelledError as exc:
        raise CommandError(str(exc)) from None
    if not items:
        raise CommandError(f"{set_path}: no labelled answers")

    configured: SessionGrader | None = None
    description = "offline keyword grader"
    if settings.online:
        configured = grader_for(settings)
        description = configured.describe()
    else:
        print(NO_ENDPOINT, file=sys.stderr)

    offline_results: list[Result] = []
    configured_results: list[Result] = []
    partial = False

    def collect(into: list[Result], progress: Progress) -> Callable[[int, Result], None]:
        def on_result(done: int, result: Result) -> None:
            into.append(result)
            progress(done)

        return on_result

    run: Progress | None = None
    try:
        run = Progress(len(items), lambda: "offline")
        grade_labelled(KeywordGrader(), library, items, on_result=collect(offline_results, run))
        if configured is not None:
            run = Progress(len(items), configured.describe)
            grade_labelled(configured, library, items, on_result=collect(configured_results, run))
    except KeyboardInterrupt:
        partial = True
        if run is not None:
            run.stopped()

    if configured is not None:
        description = configured.describe()  # names the model once the endpoint has said which one it serves
    # Compare like with like: after a stop, the offline figures cover the answers the configured grader reached.
    if configured is not None and configured_results:
        offline_results = offline_results[: len(configured_results)]
    configured_figs = figures(configured_results, description) if configured is not None else None
    offline_figs = figures(offline_results, "offline keyword grader")
    models = Counter(r.grade.model for r in configured_results if r.grade.model)
    outcome = Outcome(
        date=datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds"),
        partial=partial,
        set_path=str(set_path),
        total=len(items),
        questions=len({(i.case, i.question) for i in items}),
        endpoint=safe_url(settings.base_url) if configured is not None and settings.base_url else None,
        model=(models.most_common(1)[0][0] if models else settings.model) if configured is not None else None,
        configured=configured_figs,
        offline=offline_figs,
        verdict=verdict(configured_figs, offline_figs, total=len(items), partial=partial),
    )
    data = outcome.as_json()
    text = redact(json.dumps(data, indent=1, ensure_ascii=False), settings)
    try:
        saved: Path | None = save(data, text)
    except OSError as exc:
        print(f"warning: could not save the result: {exc.strerror or exc}", file=sys.stderr)
        saved = None
    if args.json:
        sys.stdout.write(text + "\n")
    else:
        sys.stdout.write(redact(table(outcome), settings))
        if saved is not None:
            print(f"saved to {saved}")
    return 130 if partial else 0


def redact(text: str, settings: Settings) -> str:
    """The last guard: the key never leaves in output or the saved file, even if some reason echoed it."""
    from interviewer.config import PLACEHOLDER_KEY

    key = settings.api_key.get_secret_value() if settings.api_key else None
    if key and key != PLACEHOLDER_KEY:
        text = text.replace(key, "[redacted]")
    return text


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _secs(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def table(outcome: Outcome) -> str:
    """The side-by-side text report: one column per grader, a row per figure."""
    columns = [f for f in (outcome.configured, outcome.offline) if f is not None]
    heads = ["configured", "offline"] if outcome.configured is not None else ["offline"]
    rows: list[tuple[str, list[str]]] = []

    def add(label: str, get: Callable[[dict[str, Any]], str]) -> None:
        rows.append((label, [get(c) for c in columns]))

    def per_dimension(key: str, show: Callable[[float | None], str]) -> None:
        for d in DIMENSIONS:
            rows.append((f"  {DIMENSION_TITLES[d]}", [show(c["dimensions"][d][key]) for c in columns]))

    add("Spearman, overall", lambda c: _num(c["spearman"]))
    per_dimension("spearman", _num)
    add("Exact agreement", lambda c: _pct(c["exact"]))
    per_dimension("exact", _pct)
    add("Within one level", lambda c: _pct(c["within_one"]))
    per_dimension("within_one", _pct)
    add("Fallback rate", lambda c: _pct(c["fallback_rate"]) if c is outcome.configured else "-")
    add("Latency per grade, median", lambda c: _secs(c["median_s"]))
    add("Latency per grade, p95", lambda c: _secs(c["p95_s"]))

    graded = columns[0]["answers"]
    lines = [
        f"Labelled set: {outcome.total} answers over {outcome.questions} questions ({outcome.set_path})",
        f"Graded: {graded} of {outcome.total}" + (" (partial: stopped with Ctrl+C)" if outcome.partial else ""),
    ]
    if outcome.configured is not None:
        lines.append(f"Configured grader: {outcome.configured['grader']}")
    width = max(len(label) for label, _ in rows) + 2
    lines += ["", " " * width + "".join(f"{h:>12}" for h in heads)]
    lines += [label.ljust(width) + "".join(f"{v:>12}" for v in values) for label, values in rows]
    if outcome.configured is not None and outcome.configured["fallback_reasons"]:
        lines += ["", "Fallback reasons (the configured grader fell back to offline):"]
        lines += [f"  {n}x  {reason}" for reason, n in outcome.configured["fallback_reasons"].items()]
    lines += ["", f"Verdict: {outcome.verdict}"]
    return "\n".join(lines) + "\n"
