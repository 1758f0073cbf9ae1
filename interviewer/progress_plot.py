"""Per-dimension scores over time, drawn with plotext, for ``interviewer progress`` and the TUI's progress screen.

``draw`` takes the plotting object rather than importing one: the CLI passes
the ``plotext`` module and the TUI passes a ``textual-plotext`` widget's
``plt``, so both show the same plot from the same code.
"""

from __future__ import annotations

from typing import Any

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.drills import Queue, queue_lines
from interviewer.progress import Progress

COLORS = {"mechanism": "blue", "tradeoff": "magenta", "numbers": "green", "failure_modes": "red"}
"""One colour per dimension, the same in the terminal and in the TUI."""
LETTERS = {"mechanism": "M", "tradeoff": "T", "numbers": "N", "failure_modes": "F"}
"""Markers when there is no colour (a pipe, NO_COLOR): the lines are told apart by letter."""
MAX_TICKS = 8
MAX_POINTS = 240
"""Points per line at most: a terminal is a few hundred dots wide, so thousands of sessions are drawn as the
means of consecutive runs of sessions (the line looks the same; plotting costs a fraction)."""
MIN_POINTS = 2
"""Sessions needed for a plot: one session is a point, not a line over time."""


def can_plot(progress: Progress) -> bool:
    return len(progress.sessions) >= MIN_POINTS


def tick_positions(count: int, most: int = MAX_TICKS) -> list[int]:
    """At most ``most`` evenly spread 1-based session numbers, always the first and the last."""
    if count <= most:
        return list(range(1, count + 1))
    step = (count - 1) / (most - 1)
    return sorted({1 + round(i * step) for i in range(most)})


def thinned(points: list[tuple[int, float]], most: int = MAX_POINTS) -> list[tuple[float, float]]:
    """At most ``most`` points: each the mean position and mean score of a run of consecutive points."""
    if len(points) <= most:
        return [(float(x), v) for x, v in points]
    size = len(points) / most
    out: list[tuple[float, float]] = []
    for i in range(most):
        run = points[round(i * size) : round((i + 1) * size)]
        if run:
            out.append((sum(x for x, _ in run) / len(run), sum(v for _, v in run) / len(run)))
    return out


def draw(
    plt: Any, progress: Progress, title: str = "Scores per dimension (0-4) by session", *, letters: bool = False
) -> None:
    """Draw the mean score of each dimension in each graded session (x: session, oldest first; y: 0-4)."""
    plt.clear_data()
    plt.title(title)
    xs = list(range(1, len(progress.sessions) + 1))
    for dim in DIMENSIONS:
        scored = [(x, v) for x, s in enumerate(progress.sessions, start=1) if (v := s.averages.get(dim)) is not None]
        points = thinned(scored)
        if points:
            plt.plot([x for x, _ in points], [v for _, v in points], label=DIMENSION_TITLES[dim],
                     color=COLORS[dim], marker=LETTERS[dim] if letters else "braille")
    ticks = tick_positions(len(xs))
    plt.xticks(ticks, [progress.sessions[t - 1].started[5:10] for t in ticks])
    plt.ylim(0, 4)
    plt.yticks([0, 1, 2, 3, 4])
    plt.xlabel("session (month-day)")


def plot_text(progress: Progress, width: int = 80, height: int = 18, color: bool = True) -> str:
    """The plot as terminal text (ANSI colours only when ``color``)."""
    import plotext

    plotext.clear_figure()
    draw(plotext, progress, letters=not color)
    plotext.plotsize(width, height)
    plotext.theme("pro" if color else "clear")
    text: str = plotext.build()
    return text if color else plotext.uncolorize(text)


def progress_text(progress: Progress, queue: Queue, case_id: str | None = None, *, width: int = 80,
                  color: bool = False) -> str:
    """What ``interviewer progress`` prints: the plot (with two or more sessions), the table, then the drill queue."""
    parts: list[str] = []
    if can_plot(progress):
        parts.append(plot_text(progress, width=width, color=color).rstrip("\n") + "\n")
    parts.append(progress.as_text())
    parts.append("\n".join(queue_lines(queue, case_id)) + "\n")
    return "\n".join(parts)
