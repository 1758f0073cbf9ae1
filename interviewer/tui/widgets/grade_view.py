"""One grade, drawn: overall, per-dimension bars with evidence and misses, number checks, flags, feedback.

Used live in the session's feedback panel and in the transcript review, so a
grade looks the same wherever it is read.  Each bullet is a mark plus a text
widget, so long quotes wrap under their text rather than under the mark.
Every string from the grade is inserted literally (see ``formatting``).
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.grading.types import Grade
from interviewer.tui.formatting import overall_content, score_bar

VERDICT_MARKS = {"correct": ("✓", "$success"), "wrong": ("✗", "$error"), "unverified": ("?", "$text-muted")}
TITLE_WIDTH = max(len(t) for t in DIMENSION_TITLES.values()) + 1


def grader_line(grade: Grade) -> Content:
    """Which grader produced the grade, and why a fallback happened, if one did."""
    who = "offline keyword grader" if grade.grader == "keyword" else f"model {grade.model or 'llm'}"
    parts: list[str | tuple[str, str]] = [("graded by ", "$text-muted"), (who, "bold")]
    if grade.fallback_reason:
        parts += [("\nfallback: ", "$warning"), (grade.fallback_reason, "$text-muted")]
    return Content.assemble(*parts)


def bullet(mark: str, style: str, text: Content) -> Horizontal:
    return Horizontal(Static(Content.styled(mark, style), classes="mark"), Static(text, classes="text"),
                      classes="bullet")


def grade_widgets(grade: Grade, *, feedback: bool = True) -> list[Widget]:
    """The grade as a list of small widgets, top to bottom."""
    out: list[Widget] = [
        Static(Content.assemble(("Overall ", "bold"), overall_content(grade.overall), "\n", grader_line(grade)),
               classes="head"),
    ]
    for dim in DIMENSIONS:
        score = grade.dimensions.get(dim)
        if score is None:
            continue
        offline = (grade.offline_scores or {}).get(dim)
        shown = offline is not None and offline != score.score
        out.append(Static(Content.assemble((DIMENSION_TITLES[dim].ljust(TITLE_WIDTH), "bold"),
                                           score_bar(score.score), f" {score.score}/4",
                                           (f"  offline grader: {offline}/4" if shown else "", "$warning")),
                          classes="dim"))
        out += [bullet("✓", "$success", Content.styled(f"“{quote}”", "italic")) for quote in score.evidence]
        out += [bullet("✗", "$error", Content.assemble(("missed: ", "$text-muted"), miss)) for miss in score.missing]
    if grade.numbers_checked:
        out.append(Static(Content.styled("Numbers checked", "bold"), classes="section"))
        for check in grade.numbers_checked:
            mark, style = VERDICT_MARKS.get(check.verdict, ("?", "$text-muted"))
            ref = check.reference or "no reference figure"
            out.append(bullet(mark, style, Content.assemble(check.claim, ("  ref: ", "$text-muted"), ref)))
    if grade.flags:
        out.append(Static(Content.assemble(("Flags: ", "bold $warning"), ", ".join(grade.flags)), classes="section"))
    if feedback and grade.feedback.strip():
        out.append(Static(Content.styled("Feedback", "bold"), classes="section"))
        out.append(Static(Content(grade.feedback.strip()), classes="feedback"))
    return out


class GradeView(Vertical):
    """A column of widgets that shows one grade."""

    DEFAULT_CSS = """
    GradeView {
        height: auto;
    }
    GradeView .head {
        margin: 0 0 1 0;
    }
    GradeView .section {
        margin: 1 0 0 0;
    }
    GradeView .bullet {
        height: auto;
    }
    GradeView .bullet .mark {
        width: 4;
        padding: 0 0 0 2;
    }
    GradeView .bullet .text {
        width: 1fr;
    }
    """

    def __init__(self, grade: Grade | None = None, *, feedback: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._feedback = feedback
        self._initial = grade

    def on_mount(self) -> None:
        if self._initial is not None:
            self.show(self._initial)

    def show(self, grade: Grade) -> None:
        self.remove_children()
        self.mount_all(grade_widgets(grade, feedback=self._feedback))
